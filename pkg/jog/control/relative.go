package control

import (
	"fmt"
	"slices"

	"github.com/telebridge/telebridge/pkg/geom"
	"gonum.org/v1/gonum/spatial/r3"
)

// Relative command types of cartesian_delta_command_type (seed 004): each
// point of an incremental Cartesian move goes to the robot as the
// increment from the tool's measured pose to the point's pose, for a robot
// controller that takes relative Cartesian commands.
const (
	// CommandREL: the increment in the robot base's axes, turning about
	// the tool point.
	CommandREL = "REL"
	// CommandRELW: the increment in the world frame's axes
	// (robot_data.world_frame), turning about the tool point.
	CommandRELW = "RELW"
	// CommandRELT: the increment in the tool's own frame
	// (robot_data.flange_frame): target = tool * Delta.
	CommandRELT = "RELT"
)

// relativeTypes are the relative command types.
var relativeTypes = []string{CommandREL, CommandRELW, CommandRELT}

// IsRelative reports whether a command type is one of the relative ones.
func IsRelative(commandType string) bool { return slices.Contains(relativeTypes, commandType) }

// RelativeCommand is one point of a motion as a relative Cartesian
// command (jog.JointTarget.Relative).
type RelativeCommand struct {
	// Type is CommandREL, CommandRELW or CommandRELT; empty: the target
	// is a joint target only.
	Type string
	// Frame names the frame whose axes Delta is expressed in: the robot
	// base (robot_data.fixed_frame), the world frame or the tool frame.
	Frame string
	// Delta is the increment: translation [m] and rotation. REL and RELW
	// turn about the tool point; RELT is a transform in the tool frame.
	Delta geom.Transform
}

// RelativeDelta returns the increment of command type typ that takes the
// tool from pose tool to pose target (both T_base_tool). baseToWorld is
// T_base_world, used by RELW only.
func RelativeDelta(typ string, tool, target, baseToWorld geom.Transform) (geom.Transform, error) {
	dp := r3.Sub(target.Translation, tool.Translation)
	dr := target.Rotation.Mul(tool.Rotation.Conj()).Normalize()
	switch typ {
	case CommandREL:
		return geom.Transform{Translation: dp, Rotation: dr}, nil
	case CommandRELW:
		w := baseToWorld.Rotation
		return geom.Transform{Translation: w.Conj().Rotate(dp), Rotation: w.Conj().Mul(dr).Mul(w).Normalize()}, nil
	case CommandRELT:
		return tool.Inverse().Mul(target), nil
	}
	return geom.Transform{}, fmt.Errorf("%w: %q is not a relative command type (%v)", ErrParam, typ, relativeTypes)
}

// Apply returns the tool pose the command asks for (T_base_tool), from
// the tool's current pose in the base; baseToWorld is T_base_world (RELW
// only). It is what a robot controller that takes relative commands does
// with one, and the inverse of RelativeDelta.
func (r RelativeCommand) Apply(tool, baseToWorld geom.Transform) (geom.Transform, error) {
	switch r.Type {
	case CommandREL:
		return geom.Transform{Translation: r3.Add(tool.Translation, r.Delta.Translation),
			Rotation: r.Delta.Rotation.Mul(tool.Rotation).Normalize()}, nil
	case CommandRELW:
		w := baseToWorld.Rotation
		dr := w.Mul(r.Delta.Rotation).Mul(w.Conj())
		return geom.Transform{Translation: r3.Add(tool.Translation, w.Rotate(r.Delta.Translation)),
			Rotation: dr.Mul(tool.Rotation).Normalize()}, nil
	case CommandRELT:
		return tool.Mul(r.Delta), nil
	}
	return geom.Transform{}, fmt.Errorf("%w: %q is not a relative command type (%v)", ErrParam, r.Type, relativeTypes)
}
