//go:build ros2

package rosnode

import (
	"fmt"
	"time"

	geometry_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/geometry_msgs/msg"
	trajectory_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/trajectory_msgs/msg"
	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/tf"
)

// JointTrajectory fills msg (reused between calls) with a joint target as
// a one-point trajectory: header.stamp zero ("start now" for a trajectory
// controller, see jog.NodeConfig), header.frame_id frame.
func JointTrajectory(msg *trajectory_msgs_msg.JointTrajectory, t jog.JointTarget, frame string) {
	msg.Header.FrameId = frame
	msg.JointNames = append(msg.JointNames[:0], t.JointNames...)
	if len(msg.Points) != 1 {
		msg.Points = make([]trajectory_msgs_msg.JointTrajectoryPoint, 1)
	}
	p := &msg.Points[0]
	p.Positions = append(p.Positions[:0], t.Positions...)
	p.Velocities = append(p.Velocities[:0], t.Velocities...) // empty: positions only
	p.TimeFromStart = Duration(t.TimeFromStart)
}

// JointTargetOf reads a one-point trajectory as a joint target (the last
// point when there are several: where the arm must end), with the
// point's velocities if it has any. The slices are the message's.
func JointTargetOf(msg *trajectory_msgs_msg.JointTrajectory) (jog.JointTarget, error) {
	if len(msg.Points) == 0 {
		return jog.JointTarget{}, fmt.Errorf("joint trajectory without points")
	}
	p := msg.Points[len(msg.Points)-1]
	d := time.Duration(p.TimeFromStart.Sec)*time.Second + time.Duration(p.TimeFromStart.Nanosec)
	return jog.JointTarget{JointNames: msg.JointNames, Positions: p.Positions, Velocities: p.Velocities, TimeFromStart: d}, nil
}

// TFStamped converts a geometry_msgs/TransformStamped (a /tf or
// /tf_static entry) to a tf.Stamped.
func TFStamped(m *geometry_msgs_msg.TransformStamped) tf.Stamped {
	tr, q := m.Transform.Translation, m.Transform.Rotation
	t := geom.Translation(tr.X, tr.Y, tr.Z)
	t.Rotation = geom.Quat{W: q.W, X: q.X, Y: q.Y, Z: q.Z}
	return tf.Stamped{
		Parent: m.Header.FrameId, Child: m.ChildFrameId,
		Stamp:     time.Unix(int64(m.Header.Stamp.Sec), int64(m.Header.Stamp.Nanosec)).UTC(),
		Transform: t,
	}
}
