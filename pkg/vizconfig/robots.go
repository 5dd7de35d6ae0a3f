package vizconfig

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/telebridge/telebridge/pkg/diag"

	urdffiles "github.com/telebridge/telebridge/launch/urdf"
	armsimnode "github.com/telebridge/telebridge/pkg/armsim/node"
	"github.com/telebridge/telebridge/pkg/camera"
	cameranode "github.com/telebridge/telebridge/pkg/camera/node"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/console/graph"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/telebridge/telebridge/pkg/qos"
	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"
	"github.com/telebridge/telebridge/pkg/urdf"
)

// Subscriber profiles of the visualisations.
var (
	// SubDescription takes robot_description as robot_state_publisher
	// offers it: reliable, transient local (a viewer started after the
	// robot still receives the description).
	SubDescription = graph.QoSRobotDescription
	// SubState is for odometry and joint states: reliable, volatile,
	// keep last 5 (RViz's default depth).
	SubState = qos.Profile{Reliability: qos.Reliable, Durability: qos.Volatile, History: qos.KeepLast, Depth: 5}
	// SubImage is for images and camera info: best effort, so that it
	// matches a best-effort publisher (the sensor-data profile) and a
	// reliable one (REP 2003's system default) alike.
	SubImage = qos.SensorData
)

// Message types.
const (
	typeString      = "std_msgs/msg/String"
	typeOdometry    = "nav_msgs/msg/Odometry"
	typeJointState  = "sensor_msgs/msg/JointState"
	typeDiagnostics = "diagnostic_msgs/msg/DiagnosticArray"
	typeImage       = "sensor_msgs/msg/Image"
	typeCompressed  = "sensor_msgs/msg/CompressedImage"
	typeCameraInfo  = "sensor_msgs/msg/CameraInfo"
)

func description() Topic {
	return Topic{Name: graph.TopicRobotDescription, Type: typeString, Publisher: graph.QoSRobotDescription, Subscriber: SubDescription}
}

// Servosila is the Servosila Engineer: servosila_driver's odometry, joint
// states and diagnostics, robot_state_publisher's description of
// servosila_engineer.urdf, and the cameras (camera_publisher in the same
// namespace; pass camera_publisher's normalized configurations, e.g. from
// cameranode.ParseParamsFile of params/camera_publisher.yaml).
func Servosila(cameras []camera.Config) (Robot, error) {
	def := servosilanode.DefaultConfig()
	r := Robot{
		Name:         "servosila",
		Title:        "Servosila Engineer",
		FixedFrame:   def.OdomFrame,
		BaseFrame:    def.BaseFrame,
		ViewDistance: 3,
		Description:  description(),
		Odometry:     Topic{Name: servosilanode.TopicOdom, Type: typeOdometry, Publisher: servosilanode.QoSOdom, Subscriber: SubState},
		JointStates:  Topic{Name: servosilanode.TopicJointStates, Type: typeJointState, Publisher: servosilanode.QoSJointStates, Subscriber: SubState},
		Diagnostics:  Topic{Name: servosilanode.TopicDiagnostics, Type: typeDiagnostics, Publisher: servosilanode.QoSDiagnostics, Subscriber: qos.Default},
	}
	for _, c := range cameras {
		format, err := wire.ParsePixelFormat(c.PixelFormat)
		if err != nil {
			return Robot{}, fmt.Errorf("vizconfig: camera %s: %w", c.Name, err)
		}
		names := cameranode.TopicsFor(c.Name)
		image := Topic{Name: names.Image, Type: typeImage, Publisher: cameranode.ImageQoS, Subscriber: SubImage}
		if format.Compressed {
			image.Name, image.Type = names.Compressed, typeCompressed
		}
		r.Cameras = append(r.Cameras, Camera{
			Name:  c.Name,
			Image: image,
			Info:  Topic{Name: names.CameraInfo, Type: typeCameraInfo, Publisher: cameranode.ImageQoS, Subscriber: SubImage},
			Frame: cmp.Or(c.FrameID, camera.OpticalFrame(c.Name)),
		})
	}
	return r, r.Check()
}

// Furbot is the Furbot vehicle: furbot_odometry's odometry and joint
// states (wheels and steering), furbot_bridge's diagnostics and
// robot_state_publisher's description of furbot.urdf.
func Furbot() (Robot, error) {
	r := Robot{
		Name:         "furbot",
		Title:        "Furbot",
		FixedFrame:   furbotnode.FrameOdom,
		BaseFrame:    furbotnode.FrameBase,
		ViewDistance: 8,
		Description:  description(),
		Odometry:     Topic{Name: furbotnode.TopicOdom, Type: typeOdometry, Publisher: furbotnode.QoSOdom, Subscriber: SubState},
		JointStates:  Topic{Name: furbotnode.TopicJointStates, Type: typeJointState, Publisher: furbotnode.QoSJointStates, Subscriber: SubState},
		Diagnostics:  Topic{Name: furbotnode.TopicDiagnostics, Type: typeDiagnostics, Publisher: furbotnode.QoSDiagnostics, Subscriber: qos.Default},
	}
	return r, r.Check()
}

// Arm is the jog stack's default arm (ur5_like.urdf, jog.launch.py): the
// description from robot_state_publisher, the joint states of arm_sim (or
// of the real arm's joint_state_broadcaster), held still in the
// description's root frame. It publishes no odometry; jog_server and
// arm_sim publish /diagnostics (diag.Topic).
func Arm() (Robot, error) {
	root, err := rootLink(urdffiles.UR5Like)
	if err != nil {
		return Robot{}, err
	}
	r := Robot{
		Name:         "arm",
		Title:        "Jog arm (ur5_like)",
		FixedFrame:   root,
		BaseFrame:    root,
		ViewDistance: 2.5,
		Description:  description(),
		JointStates:  Topic{Name: armsimnode.TopicJointStates, Type: typeJointState, Publisher: armsimnode.QoSJointStates, Subscriber: SubState},
		Diagnostics:  Topic{Name: diag.Topic, Type: typeDiagnostics, Publisher: diag.QoS, Subscriber: qos.Default},
	}
	return r, r.Check()
}

// rootLink returns the link of a URDF that is no joint's child.
func rootLink(text string) (string, error) {
	robot, err := urdf.Decode(strings.NewReader(text))
	if err != nil {
		return "", fmt.Errorf("vizconfig: %w", err)
	}
	child := map[string]bool{}
	for _, j := range robot.Joints {
		child[j.Child.Link] = true
	}
	var roots []string
	for _, l := range robot.Links {
		if !child[l.Name] {
			roots = append(roots, l.Name)
		}
	}
	if len(roots) != 1 {
		return "", fmt.Errorf("vizconfig: description %q has %d root links %v", robot.Name, len(roots), roots)
	}
	return roots[0], nil
}
