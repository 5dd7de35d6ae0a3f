//go:build ros2

package rosnode

import (
	"fmt"
	"time"

	builtin_interfaces_msg "github.com/telebridge/telebridge/internal/rosmsg/builtin_interfaces/msg"
	geometry_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/geometry_msgs/msg"
	trajectory_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/trajectory_msgs/msg"
	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/tf"
)

// JointTrajectory fills msg (reused between calls) with a joint target as
// a trajectory of its point and, if it has one, its Next point;
// header.frame_id frame, header.stamp the target's Stamp if stamp is true,
// else zero ("start now" for a trajectory controller; see
// StampTrajectories of pkg/jog/node's Config).
func JointTrajectory(msg *trajectory_msgs_msg.JointTrajectory, t jog.JointTarget, frame string, stamp bool) {
	msg.Header.FrameId = frame
	msg.Header.Stamp = builtin_interfaces_msg.Time{}
	if stamp {
		msg.Header.Stamp = Stamp(t.Stamp)
	}
	msg.JointNames = append(msg.JointNames[:0], t.JointNames...)
	n := 1
	if len(t.Next) != 0 {
		n = 2
	}
	if cap(msg.Points) < n {
		msg.Points = make([]trajectory_msgs_msg.JointTrajectoryPoint, n)
	}
	msg.Points = msg.Points[:n]
	p := &msg.Points[0]
	p.Positions = append(p.Positions[:0], t.Positions...)
	p.Velocities = append(p.Velocities[:0], t.Velocities...) // empty: positions only
	p.TimeFromStart = Duration(t.TimeFromStart)
	if n == 2 {
		p = &msg.Points[1]
		p.Positions = append(p.Positions[:0], t.Next...)
		p.Velocities = append(p.Velocities[:0], t.NextVelocities...)
		p.TimeFromStart = Duration(t.NextTimeFromStart)
	}
}

// JointTargetOf reads a trajectory as a joint target: its first point,
// and its last point as Next when there are several (the arm goes
// through the first and ends at the last), with the points' velocities if
// they have any and the header stamp (zero: start now). The slices are
// the message's.
func JointTargetOf(msg *trajectory_msgs_msg.JointTrajectory) (jog.JointTarget, error) {
	if len(msg.Points) == 0 {
		return jog.JointTarget{}, fmt.Errorf("joint trajectory without points")
	}
	dur := func(d builtin_interfaces_msg.Duration) time.Duration {
		return time.Duration(d.Sec)*time.Second + time.Duration(d.Nanosec)
	}
	p := &msg.Points[0]
	t := jog.JointTarget{JointNames: msg.JointNames, Positions: p.Positions, Velocities: p.Velocities, TimeFromStart: dur(p.TimeFromStart)}
	if s := msg.Header.Stamp; s.Sec != 0 || s.Nanosec != 0 {
		t.Stamp = Time(s)
	}
	if len(msg.Points) > 1 {
		q := &msg.Points[len(msg.Points)-1]
		t.Next, t.NextVelocities, t.NextTimeFromStart = q.Positions, q.Velocities, dur(q.TimeFromStart)
	}
	return t, nil
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
