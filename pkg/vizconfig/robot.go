package vizconfig

import (
	"fmt"
	"strings"

	"github.com/telebridge/telebridge/pkg/qos"
)

// Topic is one topic a visualisation subscribes to, as its publisher
// names it.
type Topic struct {
	// Name is the publisher's name: relative ("odom", resolved in the
	// robot's namespace) or absolute ("/joint_states").
	Name string
	// Type is the ROS 2 message type ("nav_msgs/msg/Odometry").
	Type string
	// Publisher is the profile the node publishes with.
	Publisher qos.Profile
	// Subscriber is the profile RViz subscribes with: one that matches
	// Publisher (qos.Compatible).
	Subscriber qos.Profile
}

// Camera is one camera's image stream.
type Camera struct {
	// Name is the camera's name (camera_publisher's cameras parameter).
	Name string
	// Image is its image topic: sensor_msgs/Image, or
	// sensor_msgs/CompressedImage for compressed pixel formats.
	Image Topic
	// Info is its camera_info topic (sensor_msgs/CameraInfo).
	Info Topic
	// Frame is the image's frame_id, an optical frame of the description
	// (z along the lens, x right, y down), without the frame prefix.
	Frame string
}

// Robot is what the visualisation of one robot shows, with the names its
// nodes publish under.
type Robot struct {
	// Name is the file stem: rviz/<Name>.rviz, foxglove/telebridge-<Name>.json.
	Name string
	// Title names the robot in the files ("Servosila Engineer").
	Title string
	// Namespace is the robot's namespace without slashes ("" for the
	// default, "robot1"); FramePrefix is put before every frame id
	// ("robot1/"). Set both with Namespaced.
	Namespace, FramePrefix string
	// FixedFrame is the frame the views hold still (REP 105: odom for the
	// vehicles, the description's root for the arm), without the prefix.
	FixedFrame string
	// BaseFrame is the robot's body frame, which the 3D views centre on
	// and follow, without the prefix.
	BaseFrame string
	// ViewDistance is the distance of the 3D views' eye from BaseFrame [m].
	ViewDistance float64
	// Description is robot_state_publisher's robot_description.
	Description Topic
	// Odometry is the odometry topic; Name "" when the robot has none.
	Odometry Topic
	// JointStates is the joint state topic (sensor_msgs/JointState).
	JointStates Topic
	// Diagnostics is the diagnostics topic (diagnostic_msgs/DiagnosticArray);
	// Name "" when the robot's nodes publish none.
	Diagnostics Topic
	// Cameras are the robot's cameras, in camera_publisher's order.
	Cameras []Camera
}

// Namespaced returns r under namespace ns ("robot1"; slashes around it are
// dropped) with every frame id prefixed by prefix ("robot1/").
func (r Robot) Namespaced(ns, prefix string) Robot {
	r.Namespace = strings.Trim(ns, "/")
	r.FramePrefix = prefix
	return r
}

// Resolve returns topic t's absolute name in the robot's namespace.
func (r Robot) Resolve(t Topic) string {
	if strings.HasPrefix(t.Name, "/") {
		return t.Name
	}
	if r.Namespace == "" {
		return "/" + t.Name
	}
	return "/" + r.Namespace + "/" + t.Name
}

// Frame returns frame f with the robot's frame prefix.
func (r Robot) Frame(f string) string { return r.FramePrefix + f }

// HasOdometry reports whether the robot publishes odometry.
func (r Robot) HasOdometry() bool { return r.Odometry.Name != "" }

// HasDiagnostics reports whether the robot's nodes publish diagnostics.
func (r Robot) HasDiagnostics() bool { return r.Diagnostics.Name != "" }

// Check reports a robot that no file could show: no name, no fixed frame,
// a topic without a name or type, or a subscriber profile that would not
// match its publisher.
func (r Robot) Check() error {
	if r.Name == "" || r.FixedFrame == "" || r.BaseFrame == "" || !(r.ViewDistance > 0) {
		return fmt.Errorf("vizconfig: robot %q: name, fixed frame, base frame and a positive view distance are required", r.Name)
	}
	topics := []Topic{r.Description, r.JointStates}
	if r.HasOdometry() {
		topics = append(topics, r.Odometry)
	}
	if r.HasDiagnostics() {
		topics = append(topics, r.Diagnostics)
	}
	for _, c := range r.Cameras {
		if c.Name == "" || c.Frame == "" {
			return fmt.Errorf("vizconfig: robot %q: camera %q without name or frame", r.Name, c.Name)
		}
		topics = append(topics, c.Image, c.Info)
	}
	for _, t := range topics {
		if t.Name == "" || t.Type == "" {
			return fmt.Errorf("vizconfig: robot %q: topic %q without name or type", r.Name, t.Name)
		}
		if !qos.Compatible(t.Publisher, t.Subscriber) {
			return fmt.Errorf("vizconfig: robot %q: topic %s: subscriber %+v does not match publisher %+v", r.Name, t.Name, t.Subscriber, t.Publisher)
		}
	}
	return nil
}
