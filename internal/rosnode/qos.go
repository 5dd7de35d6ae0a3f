//go:build ros2

package rosnode

import (
	"fmt"
	"slices"

	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/rosqos"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// QoS translates a core QoS profile into rclgo's.
func QoS(p qos.Profile) rclgo.QosProfile {
	out := rclgo.NewDefaultQosProfile()
	out.Depth = p.Depth
	switch p.History {
	case qos.KeepLast:
		out.History = rclgo.HistoryKeepLast
	case qos.KeepAll:
		out.History = rclgo.HistoryKeepAll
	default:
		out.History = rclgo.HistorySystemDefault
	}
	switch p.Reliability {
	case qos.Reliable:
		out.Reliability = rclgo.ReliabilityReliable
	case qos.BestEffort:
		out.Reliability = rclgo.ReliabilityBestEffort
	default:
		out.Reliability = rclgo.ReliabilitySystemDefault
	}
	switch p.Durability {
	case qos.Volatile:
		out.Durability = rclgo.DurabilityVolatile
	case qos.TransientLocal:
		out.Durability = rclgo.DurabilityTransientLocal
	default:
		out.Durability = rclgo.DurabilitySystemDefault
	}
	return out
}

// PubOpts returns publisher options with the QoS of p.
func PubOpts(p qos.Profile) *rclgo.PublisherOptions {
	return &rclgo.PublisherOptions{Qos: QoS(p)}
}

// SubOpts returns subscription options with the QoS of p.
func SubOpts(p qos.Profile) *rclgo.SubscriptionOptions {
	return &rclgo.SubscriptionOptions{Qos: QoS(p)}
}

// SrvOpts returns service options with the QoS of p.
func SrvOpts(p qos.Profile) *rclgo.ServiceOptions {
	return &rclgo.ServiceOptions{Qos: QoS(p)}
}

// qosParams resolves the topic of every publisher of opts.Publishers as
// rcl will (namespace and remaps) and appends their qos_overrides
// parameters to opts.Table. It returns the resolved names, in order.
func (n *Node) qosParams(opts *options, remaps []rosparam.Remap) ([]string, error) {
	resolved := make([]string, len(opts.Publishers))
	table := slices.Clone(opts.Table)
	for i, p := range opts.Publishers {
		r, err := rosqos.Resolve(p.Topic, n.Name(), n.Namespace(), remaps)
		if err != nil {
			return nil, fmt.Errorf("rosnode: %w", err)
		}
		resolved[i] = r
		table = append(table, rosqos.Params(r, p.Default)...)
	}
	opts.Table = table
	return resolved, nil
}

// qosProfiles reads the profile of every publisher from its declared
// parameters and logs those that differ from their default.
func (n *Node) qosProfiles(pubs []rosqos.Publisher, resolved []string) error {
	n.qos = make(map[string]qos.Profile, len(pubs))
	for i, p := range pubs {
		prof, err := rosqos.Profile(resolved[i], p.Default, n.Params.Get)
		if err != nil {
			return fmt.Errorf("rosnode: %w", err)
		}
		if prof != p.Default {
			n.Logger().Infof("publisher %s: QoS %s, %s, %s, depth %d (qos_overrides)", resolved[i],
				rosqos.FormatReliability(prof.Reliability), rosqos.FormatDurability(prof.Durability),
				rosqos.FormatHistory(prof.History), prof.Depth)
		}
		n.qos[p.Topic] = prof
	}
	return nil
}

// PublisherOpts returns the options of the publisher on topic, one of
// Spec.Publishers (as given there), with its qos_overrides applied. A
// topic that is not one of them is an error of the node's code.
func (n *Node) PublisherOpts(topic string) (*rclgo.PublisherOptions, error) {
	p, ok := n.qos[topic]
	if !ok {
		return nil, fmt.Errorf("rosnode: publisher %s is not among the node's QoS-overridable publishers", topic)
	}
	return PubOpts(p), nil
}
