//go:build ros2

package rosnode

import (
	"context"
	"fmt"
	"time"

	diagnostic_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/diagnostic_msgs/msg"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/rate"
)

// PublishDiagnostics publishes on /diagnostics (diag.Topic), every
// diag.Period while the node runs, the statuses that report returns at
// that instant (the wall clock), named after the node. report runs on a
// goroutine of its own and must be safe with the node's callbacks. Call
// it from setup only.
func (n *Node) PublishDiagnostics(report func(now time.Time) []diag.Status) error {
	pub, err := diagnostic_msgs_msg.NewDiagnosticArrayPublisher(n.Node, diag.Topic, PubOpts(diag.QoS))
	if err != nil {
		return fmt.Errorf("publisher %s: %w", diag.Topic, err)
	}
	name, log := n.FullyQualifiedName(), n.Logger()
	n.Go("diagnostics", func(ctx context.Context) error {
		return rate.Run(ctx, diag.Period, func(rate.Tick) error {
			if err := pub.Publish(Diagnostics(name, n.Now(), report(time.Now())...)); err != nil {
				log.Warnf("publish %s: %v", diag.Topic, err)
			}
			return nil
		})
	})
	return nil
}
