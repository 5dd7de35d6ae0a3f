//go:build ros2

package rosnode

import (
	"time"

	diagnostic_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/diagnostic_msgs/msg"
	geometry_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/geometry_msgs/msg"
	nav_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/nav_msgs/msg"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/odometry"
)

// Odometry fills msg (reused between calls) from an odometry state; the
// pose is in odomFrame, the twist in baseFrame (nav_msgs/Odometry's rule).
func Odometry(msg *nav_msgs_msg.Odometry, st odometry.State, stamp time.Time, odomFrame, baseFrame string) {
	msg.Header = Header(stamp, odomFrame)
	msg.ChildFrameId = baseFrame
	msg.Pose.Pose.Position = geometry_msgs_msg.Point{X: st.Pose.X, Y: st.Pose.Y}
	x, y, z, w := st.Pose.Quaternion()
	msg.Pose.Pose.Orientation = geometry_msgs_msg.Quaternion{X: x, Y: y, Z: z, W: w}
	msg.Pose.Covariance = st.PoseCovariance
	msg.Twist.Twist.Linear = geometry_msgs_msg.Vector3{X: st.Twist.V}
	msg.Twist.Twist.Angular = geometry_msgs_msg.Vector3{Z: st.Twist.W}
	msg.Twist.Covariance = st.TwistCovariance
}

// OdomTransform returns the transform odomFrame -> baseFrame of a state.
func OdomTransform(st odometry.State, stamp time.Time, odomFrame, baseFrame string) geometry_msgs_msg.TransformStamped {
	x, y, z, w := st.Pose.Quaternion()
	return geometry_msgs_msg.TransformStamped{
		Header:       Header(stamp, odomFrame),
		ChildFrameId: baseFrame,
		Transform: geometry_msgs_msg.Transform{
			Translation: geometry_msgs_msg.Vector3{X: st.Pose.X, Y: st.Pose.Y},
			Rotation:    geometry_msgs_msg.Quaternion{X: x, Y: y, Z: z, W: w},
		},
	}
}

// Diagnostics builds a diagnostic_msgs/DiagnosticArray from statuses
// reported by node (its fully qualified name, Node.FullyQualifiedName):
// each status is named diag.StatusName(node, its component).
func Diagnostics(node string, stamp time.Time, statuses ...diag.Status) *diagnostic_msgs_msg.DiagnosticArray {
	msg := diagnostic_msgs_msg.NewDiagnosticArray()
	msg.Header = Header(stamp, "")
	for _, s := range statuses {
		s.Name = diag.StatusName(node, s.Name)
		d := diagnostic_msgs_msg.DiagnosticStatus{Level: byte(s.Level), Name: s.Name, Message: s.Message, HardwareId: s.HardwareID}
		for _, kv := range s.Values {
			d.Values = append(d.Values, diagnostic_msgs_msg.KeyValue{Key: kv.Key, Value: kv.Value})
		}
		msg.Status = append(msg.Status, d)
	}
	return msg
}
