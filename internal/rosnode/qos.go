//go:build ros2

package rosnode

import (
	"github.com/telebridge/telebridge/pkg/qos"
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
