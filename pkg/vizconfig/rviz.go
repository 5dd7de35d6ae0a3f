package vizconfig

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/telebridge/telebridge/pkg/qos"
	"gopkg.in/yaml.v3"
)

// RViz2 (Humble) plugin classes the configurations use
// (rviz_default_plugins' plugins_description.xml, rviz_common's panels).
const (
	ClassGrid       = "rviz_default_plugins/Grid"
	ClassRobotModel = "rviz_default_plugins/RobotModel"
	ClassTF         = "rviz_default_plugins/TF"
	ClassOdometry   = "rviz_default_plugins/Odometry"
	ClassImage      = "rviz_default_plugins/Image"
	ClassOrbit      = "rviz_default_plugins/Orbit"
)

// RVizFixedFrameKey is the string RViz writes for "the fixed frame" in
// frame properties (a Grid's Reference Frame).
const RVizFixedFrameKey = "<Fixed Frame>"

// RVizQoS returns the names RViz's QoS property shows for p's
// reliability, durability and history ("Best Effort", "Transient Local",
// "Keep Last").
func RVizQoS(p qos.Profile) (reliability, durability, history string) {
	reliability = map[qos.Reliability]string{qos.Reliable: "Reliable", qos.BestEffort: "Best Effort", qos.SystemReliability: "System Default"}[p.Reliability]
	durability = map[qos.Durability]string{qos.Volatile: "Volatile", qos.TransientLocal: "Transient Local", qos.SystemDurability: "System Default"}[p.Durability]
	history = map[qos.History]string{qos.KeepLast: "Keep Last", qos.KeepAll: "Keep All", qos.SystemHistory: "System Default"}[p.History]
	return reliability, durability, history
}

// rvizTopic is a topic property with its QoS children, as RViz saves it.
// filter adds the message-filter queue ("Filter size") of displays that
// transform messages into the fixed frame.
func (r Robot) rvizTopic(t Topic, filter bool) omap {
	rel, dur, hist := RVizQoS(t.Subscriber)
	o := omap{{"Depth", t.Subscriber.Depth}, {"Durability Policy", dur}}
	if filter {
		o = append(o, kv{"Filter size", 10})
	}
	return append(o, kv{"History Policy", hist}, kv{"Reliability Policy", rel}, kv{"Value", r.Resolve(t)})
}

// RViz returns r's RViz2 configuration (a .rviz file): a grid, the robot
// model from robot_description, tf, the odometry (pose arrows with their
// covariance) and one Image display per camera, in the fixed frame
// r.FixedFrame, the orbit view centred on r.BaseFrame.
func RViz(r Robot) ([]byte, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	displays := []any{
		omap{{"Alpha", 0.5}, {"Cell Size", 1}, {"Class", ClassGrid}, {"Color", "160; 160; 164"}, {"Enabled", true},
			{"Name", "Grid"}, {"Plane", "XY"}, {"Plane Cell Count", 20}, {"Reference Frame", RVizFixedFrameKey}, {"Value", true}},
		omap{{"Alpha", 1}, {"Class", ClassRobotModel}, {"Collision Enabled", false}, {"Description File", ""},
			{"Description Source", "Topic"}, {"Description Topic", r.rvizTopic(r.Description, false)}, {"Enabled", true},
			{"Name", r.Title}, {"TF Prefix", strings.TrimSuffix(r.FramePrefix, "/")}, {"Update Interval", 0}, {"Value", true},
			{"Visual Enabled", true}},
		omap{{"Class", ClassTF}, {"Enabled", true}, {"Frame Timeout", 15}, {"Frames", omap{{"All Enabled", true}}},
			{"Marker Scale", 0.5}, {"Name", "TF"}, {"Show Arrows", true}, {"Show Axes", true}, {"Show Names", false},
			{"Update Interval", 0}, {"Value", true}},
	}
	if r.HasOdometry() {
		displays = append(displays, omap{{"Angle Tolerance", 0.1}, {"Class", ClassOdometry},
			{"Covariance", omap{{"Value", true}}}, {"Enabled", true}, {"Keep", 100}, {"Name", "Odometry"},
			{"Position Tolerance", 0.1}, {"Shape", omap{{"Value", "Arrow"}}}, {"Topic", r.rvizTopic(r.Odometry, true)},
			{"Value", true}})
	}
	for _, c := range r.Cameras {
		displays = append(displays, omap{{"Class", ClassImage}, {"Enabled", true}, {"Max Value", 1}, {"Median window", 5},
			{"Min Value", 0}, {"Name", c.Name + " camera"}, {"Normalize Range", true},
			{"Topic", r.rvizTopic(c.Image, false)}, {"Value", true}})
	}
	// The view follows the robot's body; the arm's base is the fixed frame.
	target := r.Frame(r.BaseFrame)
	if r.BaseFrame == r.FixedFrame {
		target = RVizFixedFrameKey
	}
	doc := omap{
		{"Panels", []any{
			omap{{"Class", "rviz_common/Displays"}, {"Name", "Displays"}},
			omap{{"Class", "rviz_common/Views"}, {"Name", "Views"}},
		}},
		{"Visualization Manager", omap{
			{"Class", ""},
			{"Displays", displays},
			{"Enabled", true},
			{"Global Options", omap{{"Background Color", "48; 48; 48"}, {"Fixed Frame", r.Frame(r.FixedFrame)}, {"Frame Rate", 30}}},
			{"Name", "root"},
			{"Tools", []any{
				omap{{"Class", "rviz_default_plugins/Interact"}, {"Hide Inactive Objects", true}},
				omap{{"Class", "rviz_default_plugins/MoveCamera"}},
				omap{{"Class", "rviz_default_plugins/Select"}},
				omap{{"Class", "rviz_default_plugins/FocusCamera"}},
				omap{{"Class", "rviz_default_plugins/Measure"}},
			}},
			{"Value", true},
			{"Views", omap{
				{"Current", omap{{"Class", ClassOrbit}, {"Distance", r.ViewDistance}, {"Focal Point", omap{{"X", 0}, {"Y", 0}, {"Z", 0}}},
					{"Name", "Current View"}, {"Near Clip Distance", 0.01}, {"Pitch", 0.5}, {"Target Frame", target},
					{"Value", "Orbit (rviz)"}, {"Yaw", 2.5}}},
			}},
		}},
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# RViz2 (ROS 2 Humble) configuration of the %s. Code generated by internal/tools/vizconfig\n"+
		"# (go generate ./pkg/vizconfig) from the nodes' topic names and frames. DO NOT EDIT.\n", r.Title)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("vizconfig: rviz: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("vizconfig: rviz: %w", err)
	}
	return b.Bytes(), nil
}
