package nav2path

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Step is the spacing of the generated poses [m].
const Step = 0.05

// ErrSpec is wrapped by the error of a malformed path spec.
var ErrSpec = errors.New("nav2path: invalid path spec")

// Pose is a planar pose [m, m, rad].
type Pose struct {
	X, Y, Yaw float64 // [m], [m], [rad]
}

// Spec describes a path shape relative to its start pose.
type Spec struct {
	// Kind is "straight" or "arc".
	Kind string
	// Length of a straight [m], > 0.
	Length float64
	// Radius of an arc [m], > 0.
	Radius float64
	// Angle an arc turns through [rad], positive left (counter-clockwise),
	// non-zero, at most 2π in size.
	Angle float64
}

// ParseSpec reads "straight:LENGTH" (metres) or "arc:RADIUS:DEGREES"
// (metres; degrees positive left).
func ParseSpec(s string) (Spec, error) {
	f := strings.Split(s, ":")
	num := func(i int) (float64, error) {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: %q: field %d is not a number", ErrSpec, s, i+1)
		}
		return v, nil
	}
	var sp Spec
	var err error
	switch {
	case f[0] == "straight" && len(f) == 2:
		sp.Kind = "straight"
		if sp.Length, err = num(1); err != nil {
			return Spec{}, err
		}
	case f[0] == "arc" && len(f) == 3:
		sp.Kind = "arc"
		if sp.Radius, err = num(1); err != nil {
			return Spec{}, err
		}
		var deg float64
		if deg, err = num(2); err != nil {
			return Spec{}, err
		}
		sp.Angle = deg * math.Pi / 180
	default:
		return Spec{}, fmt.Errorf("%w: %q: want straight:LENGTH or arc:RADIUS:DEGREES", ErrSpec, s)
	}
	return sp, sp.validate()
}

func (sp Spec) validate() error {
	switch sp.Kind {
	case "straight":
		if !(sp.Length > 0) || math.IsInf(sp.Length, 0) {
			return fmt.Errorf("%w: length %g m must be positive", ErrSpec, sp.Length)
		}
	case "arc":
		if !(sp.Radius > 0) || math.IsInf(sp.Radius, 0) {
			return fmt.Errorf("%w: radius %g m must be positive", ErrSpec, sp.Radius)
		}
		if sp.Angle == 0 || !(math.Abs(sp.Angle) <= 2*math.Pi) {
			return fmt.Errorf("%w: angle %g rad must be non-zero and at most 2π", ErrSpec, sp.Angle)
		}
	default:
		return fmt.Errorf("%w: kind %q", ErrSpec, sp.Kind)
	}
	return nil
}

// PathLength is the length of the path [m].
func (sp Spec) PathLength() float64 {
	if sp.Kind == "arc" {
		return sp.Radius * math.Abs(sp.Angle)
	}
	return sp.Length
}

// Generate returns the poses of the path from start: the first is start,
// the last is the path's end, the others Step apart along the path (the
// last interval may be shorter), each oriented along the path.
func Generate(sp Spec, start Pose) ([]Pose, error) {
	if err := sp.validate(); err != nil {
		return nil, err
	}
	total := sp.PathLength()
	n := int(math.Ceil(total/Step - 1e-9))
	poses := make([]Pose, 0, n+1)
	for i := 0; i <= n; i++ {
		s := math.Min(float64(i)*Step, total)
		poses = append(poses, sp.at(start, s))
	}
	return poses, nil
}

// at is the pose at distance s along the path from start.
func (sp Spec) at(start Pose, s float64) Pose {
	c, si := math.Cos(start.Yaw), math.Sin(start.Yaw)
	var lx, ly, dyaw float64 // in the start pose's frame
	if sp.Kind == "straight" {
		lx = s
	} else {
		sign := math.Copysign(1, sp.Angle)
		th := s / sp.Radius
		lx = sp.Radius * math.Sin(th)
		ly = sign * sp.Radius * (1 - math.Cos(th))
		dyaw = sign * th
	}
	return Pose{
		X:   start.X + c*lx - si*ly,
		Y:   start.Y + si*lx + c*ly,
		Yaw: wrap(start.Yaw + dyaw),
	}
}

// wrap brings an angle into (-π, π].
func wrap(a float64) float64 {
	a = math.Remainder(a, 2*math.Pi)
	if a == -math.Pi {
		return math.Pi
	}
	return a
}

// Goal names what a FollowPath goal carries besides the path.
type Goal struct {
	// Frame is the path's frame id, e.g. "odom".
	Frame string
	// ControllerID is the controller plugin, e.g. "FollowPath".
	ControllerID string
	// GoalCheckerID is the goal checker plugin, e.g.
	// "general_goal_checker"; empty leaves the field out (the server's
	// only checker is used).
	GoalCheckerID string
}

// GoalYAML writes a nav2_msgs/action/FollowPath goal with poses as its path,
// in the YAML `ros2 action send_goal` takes (flow style, one pose a line).
// Stamps are zero: the controller takes the latest transform.
func GoalYAML(w io.Writer, g Goal, poses []Pose) error {
	var b strings.Builder
	fmt.Fprintf(&b, "{path: {header: {frame_id: %s}, poses: [\n", g.Frame)
	for i, p := range poses {
		sep := ","
		if i == len(poses)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "  {header: {frame_id: %s}, pose: {position: {x: %.4f, y: %.4f, z: 0.0}, orientation: {x: 0.0, y: 0.0, z: %.6f, w: %.6f}}}%s\n",
			g.Frame, p.X, p.Y, math.Sin(p.Yaw/2), math.Cos(p.Yaw/2), sep)
	}
	fmt.Fprintf(&b, "]}, controller_id: %s", g.ControllerID)
	if g.GoalCheckerID != "" {
		fmt.Fprintf(&b, ", goal_checker_id: %s", g.GoalCheckerID)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("write goal: %w", err)
	}
	return nil
}
