package node

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosqos"
)

func TestTopicsTable(t *testing.T) {
	type key struct{ node, name string }
	seen := map[key]bool{}
	pubs := map[string]Topic{}
	for _, tp := range Topics {
		k := key{tp.Node, tp.Name}
		if seen[k] || tp.Type == "" || tp.QoS.Validate() != nil {
			t.Errorf("topic %+v duplicated or incomplete", tp)
		}
		seen[k] = true
		if tp.Publish {
			if _, dup := pubs[tp.Name]; dup {
				t.Errorf("%s published by two nodes", tp.Name)
			}
			pubs[tp.Name] = tp
		}
	}
	// Every subscription has a publisher in the stack (or comes from
	// outside: cmd_vel), with the same type and compatible QoS.
	for _, tp := range Topics {
		if tp.Publish || tp.Name == TopicCmdVel {
			continue
		}
		p, ok := pubs[tp.Name]
		if !ok || p.Type != tp.Type {
			t.Errorf("%s subscribes %s (%s): publisher %+v", tp.Node, tp.Name, tp.Type, p)
			continue
		}
		if !qos.Compatible(p.QoS, tp.QoS) {
			t.Errorf("%s: publisher QoS %+v does not match subscriber %+v", tp.Name, p.QoS, tp.QoS)
		}
	}
	// Nav2: cmd_vel subscribed by the twist controller, odom published
	// reliably, both as standard types.
	if !seen[key{TwistName, TopicCmdVel}] || pubs[TopicOdom].Type != "nav_msgs/msg/Odometry" || pubs[TopicOdom].QoS.Reliability != qos.Reliable {
		t.Errorf("Nav2 needs cmd_vel on %s and a reliable odom: %+v", TwistName, pubs[TopicOdom])
	}
	if QoSCmdVel.Reliability != qos.Reliable || QoSTelemetry != qos.Default || QoSTelemetrySub.Reliability != qos.BestEffort {
		t.Error("cmd_vel must be reliable, the telemetry published with REP-2003's system default and subscribed best effort")
	}
	// Every sensor publisher is a published topic of its node, with its
	// table's profile: REP-2003's system default.
	for _, set := range []struct {
		node string
		pubs []rosqos.Publisher
	}{{BridgeName, BridgePublishers}, {OdometryName, OdometryPublishers}} {
		for _, p := range set.pubs {
			tp, ok := pubs[p.Topic]
			if !ok || tp.Node != set.node || tp.QoS != p.Default || p.Default != rosqos.SensorProfile {
				t.Errorf("%s: sensor publisher %+v, table %+v", set.node, p, tp)
			}
		}
	}
	if !qos.Compatible(qos.SensorData, QoSTelemetrySub) {
		t.Error("a telemetry publisher overridden to best effort does not reach the stack's subscribers")
	}
	if len(BridgePublishers) != 9 || len(OdometryPublishers) != 2 {
		t.Errorf("sensor publishers: bridge %d, odometry %d", len(BridgePublishers), len(OdometryPublishers))
	}
	if len(TF) != 1 || TF[0] != [2]string{"odom", "base_link"} {
		t.Errorf("TF %v", TF)
	}
}
