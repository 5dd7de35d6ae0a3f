package node_test

import (
	"fmt"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/urdftest"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/node"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
	"gonum.org/v1/gonum/spatial/r3"
)

func loadDescription(t *testing.T) *urdftest.Robot {
	t.Helper()
	r, err := urdftest.Load(urdftest.Path(node.DescriptionFile))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func chain(t *testing.T, base, tip string) *kinematics.Chain {
	t.Helper()
	f, err := os.Open(urdftest.Path(node.DescriptionFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := kinematics.ParseURDF(f, base, tip)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDescriptionIsValid(t *testing.T) {
	r := loadDescription(t)
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if root, _ := r.Root(); root != "base_link" {
		t.Fatalf("root link %q, want base_link (the child frame of odom)", root)
	}
	// base_footprint: on the ground right below base_link.
	fp := r.Joint("base_footprint_joint")
	xyz, err := fp.OriginXYZ()
	if err != nil || fp.Parent.Link != "base_link" || fp.Child.Link != "base_footprint" || xyz[0] != 0 || xyz[1] != 0 || !(xyz[2] < 0) {
		t.Fatalf("base_footprint_joint %+v %v", fp, xyz)
	}
}

// The joints servosila_driver publishes are exactly the URDF's moving
// joints, and their limits are the driver's.
func TestDescriptionJointsArePublished(t *testing.T) {
	r := loadDescription(t)
	var published []string
	for _, j := range node.JointStateJoints {
		published = append(published, j.String())
	}
	moving := r.MovingJoints()
	slices.Sort(moving)
	want := slices.Clone(published)
	slices.Sort(want)
	if !slices.Equal(moving, want) {
		t.Fatalf("URDF moving joints %v, joint_states names %v", moving, want)
	}
	cfg := node.DefaultConfig().Driver
	for _, j := range node.JointStateJoints {
		uj := r.Joint(j.String())
		lo, hi, vel, err := uj.Limits()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(vel-cfg.MaxJoint[j]) > 1e-9 {
			t.Errorf("%s: URDF velocity limit %g, driver max_velocity.%s %g", j, vel, j, cfg.MaxJoint[j])
		}
		if j.IsArm() && (math.Abs(lo-cfg.Arm.Lower[j]) > 1e-5 || math.Abs(hi-cfg.Arm.Upper[j]) > 1e-5) {
			t.Errorf("%s: URDF limits [%g, %g], driver arm limits [%g, %g]", j, lo, hi, cfg.Arm.Lower[j], cfg.Arm.Upper[j])
		}
	}
}

// Every camera of params/camera_publisher.yaml has an optical frame with
// z along the lens axis, x right and y down, seen through the project's
// own kinematics (pkg/kinematics) from base_link.
func TestDescriptionOpticalFrames(t *testing.T) {
	fwd, left, up := r3.Vec{X: 1}, r3.Vec{Y: 1}, r3.Vec{Z: 1}
	back, right, down := r3.Scale(-1, fwd), r3.Scale(-1, left), r3.Scale(-1, up)
	tests := []struct {
		frame     string
		q         []float64 // waist, shoulder, elbow, neck
		z, x, y   r3.Vec    // optical axes in base_link
		leftOfArm bool
	}{
		{"zoom_optical_frame", []float64{0, 0, 0, 0}, fwd, right, down, false},
		{"front_left_optical_frame", []float64{0, 0, 0, 0}, fwd, right, down, true},
		{"front_right_optical_frame", []float64{0, 0, 0, 0}, fwd, right, down, false},
		{"rear_optical_frame", []float64{0, 0, 0, 0}, back, left, down, false},
		// The waist turned a quarter left: the head looks left.
		{"zoom_optical_frame", []float64{math.Pi / 2, 0, 0, 0}, left, fwd, down, false},
		// Head pitched up a quarter (neck positive = up): looking up.
		{"zoom_optical_frame", []float64{0, 0, 0, math.Pi / 2}, up, right, fwd, false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s%v", tc.frame, tc.q), func(t *testing.T) {
			c := chain(t, "base_link", tc.frame)
			if got := c.JointNames(); !slices.Equal(got, []string{"waist", "shoulder", "elbow", "neck"}) {
				t.Fatalf("chain to %s: joints %v", tc.frame, got)
			}
			T, err := c.FK(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			for _, ax := range []struct {
				name      string
				local, in r3.Vec
			}{{"z", up, tc.z}, {"x", fwd, tc.x}, {"y", left, tc.y}} {
				if got := T.Rotation.Rotate(ax.local); r3.Norm(r3.Sub(got, ax.in)) > 1e-9 {
					t.Errorf("%s axis of %s in base_link: %v, want %v", ax.name, tc.frame, got, ax.in)
				}
			}
		})
	}
	// The stereo pair: left camera to the left of the right one.
	l, _ := chain(t, "base_link", "front_left_optical_frame").FK(make([]float64, 4))
	r, _ := chain(t, "base_link", "front_right_optical_frame").FK(make([]float64, 4))
	if !(l.Translation.Y > r.Translation.Y) {
		t.Errorf("stereo pair: left camera at %v, right at %v", l.Translation, r.Translation)
	}
}

// The tool frame, the laser and the flippers hang where the description
// says, and positive angles lift (shoulder, flippers) and open (gripper).
func TestDescriptionSigns(t *testing.T) {
	tool := chain(t, "base_link", "tool_frame")
	zero, _ := tool.FK(make([]float64, 4))
	raised, _ := tool.FK([]float64{0, 0.3, 0, 0})
	if !(raised.Translation.Z > zero.Translation.Z+0.1) {
		t.Errorf("shoulder +0.3 rad moved the tool from %v to %v: not up", zero.Translation, raised.Translation)
	}
	flip := chain(t, "base_link", "left_flipper_link")
	if got := flip.JointNames(); !slices.Equal(got, []string{"flippers"}) {
		t.Fatalf("flipper chain joints %v", got)
	}
	// The flipper extends along its link's x: a point 0.3 m out.
	tip := func(q float64) r3.Vec {
		T, _ := flip.FK([]float64{q})
		return T.Apply(r3.Vec{X: 0.3})
	}
	if up, flat := tip(0.5), tip(0); !(up.Z > flat.Z+0.1) {
		t.Errorf("flippers +0.5 rad: tip %v from %v, not up", up, flat)
	}
	jaw := chain(t, "gripper_base_link", "gripper_jaw_link")
	open, _ := jaw.FK([]float64{0.5})
	if got := open.Rotation.Rotate(r3.Vec{X: 1}); !(got.Y > 0.4) {
		t.Errorf("gripper +0.5 rad: jaw along %v, not opening left", got)
	}
	// The laser (fixed to base_link: no kinematic chain) with its scan
	// plane level, above the body (0.10 m above base_link).
	r := loadDescription(t)
	lj, fj := r.Joint("laser_joint"), r.Joint("base_footprint_joint")
	lx, _ := lj.OriginXYZ()
	fx, _ := fj.OriginXYZ()
	if lj.Parent.Link != "base_link" || !(lx[2] > 0.10) || lx[2]-fx[2] < 0.2 || (lj.Origin.RPY != "" && lj.Origin.RPY != "0 0 0") {
		t.Errorf("laser_joint %+v at %v, ground at %v", lj, lx, fx)
	}
}

// Fill's golden table: which joints, which order, which angle.
func TestJointStatesFill(t *testing.T) {
	quarter := wire.RadToCounts(math.Pi/2, 0)
	var full wire.Telemetry
	full.MotorCount = wire.NumMotors
	for s := range full.Motors {
		full.Motors[s].Position = uint32(s) * 1000
	}
	full.Motors[3].Position = quarter // waist by the default slots
	tests := []struct {
		name  string
		cfg   servosila.Config
		t     wire.Telemetry
		names []string
		pos   []float64
	}{
		{
			name: "default slots", t: full,
			names: []string{"waist", "shoulder", "elbow", "neck", "flippers", "gripper"},
			pos:   []float64{counts(quarter), counts(4000), counts(5000), counts(6000), counts(2000), counts(7000)},
		},
		{
			name: "joint zero", t: full, cfg: servosila.Config{JointZero: [wire.NumJoints]uint32{wire.Flippers: 2000}},
			names: []string{"waist", "shoulder", "elbow", "neck", "flippers", "gripper"},
			pos:   []float64{counts(quarter), counts(4000), counts(5000), counts(6000), 0, counts(7000)},
		},
		{
			name: "short packet: records 0..4 only", t: func() wire.Telemetry { x := full; x.MotorCount = 5; return x }(),
			names: []string{"waist", "shoulder", "flippers"},
			pos:   []float64{counts(quarter), counts(4000), counts(2000)},
		},
		{
			name: "gripper without a record", t: full,
			cfg:   servosila.Config{MotorSlots: &[wire.NumJoints]int{3, 4, 5, 6, 2, wire.None}},
			names: []string{"waist", "shoulder", "elbow", "neck", "flippers"},
			pos:   []float64{counts(quarter), counts(4000), counts(5000), counts(6000), counts(2000)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			js := node.NewJointStates()
			js.Fill(&tc.cfg, &wire.Telemetry{}) // a previous message must not leak into the next
			if n := js.Fill(&tc.cfg, &tc.t); n != len(tc.names) || !slices.Equal(js.Name, tc.names) {
				t.Fatalf("names %v (%d), want %v", js.Name, n, tc.names)
			}
			for i := range tc.pos {
				if math.Abs(js.Position[i]-tc.pos[i]) > 1e-12 {
					t.Errorf("%s = %g, want %g", tc.names[i], js.Position[i], tc.pos[i])
				}
			}
		})
	}
}

func counts(c uint32) float64 { return wire.CountsToRad(c, 0) }

func TestJointStatesFillAllocatesNothing(t *testing.T) {
	cfg := node.DefaultConfig().Driver
	var tel wire.Telemetry
	tel.MotorCount = wire.NumMotors
	js := node.NewJointStates()
	if a := testing.AllocsPerRun(100, func() { js.Fill(&cfg, &tel) }); a != 0 {
		t.Fatalf("Fill allocates %v times per call", a)
	}
}

func BenchmarkJointStatesFill(b *testing.B) {
	cfg := node.DefaultConfig().Driver
	var tel wire.Telemetry
	tel.MotorCount = wire.NumMotors
	js := node.NewJointStates()
	b.ReportAllocs()
	for b.Loop() {
		js.Fill(&cfg, &tel)
	}
}

func TestJointStatesDue(t *testing.T) {
	c := node.DefaultConfig() // telemetry timeout 3 s
	at := time.Unix(100, 0)
	for _, tc := range []struct {
		have bool
		age  time.Duration
		want bool
	}{
		{false, 0, false},
		{true, 0, true},
		{true, 2900 * time.Millisecond, true},
		{true, c.Driver.TelemetryTimeout + time.Millisecond, false},
	} {
		if got := c.JointStatesDue(tc.have, at, at.Add(tc.age)); got != tc.want {
			t.Errorf("have %v, age %v: due %v, want %v", tc.have, tc.age, got, tc.want)
		}
	}
}

// ExampleJointStates_Fill turns one telemetry packet into the content of a
// sensor_msgs/JointState.
func ExampleJointStates_Fill() {
	cfg := node.DefaultConfig().Driver
	var tel wire.Telemetry
	tel.MotorCount = wire.NumMotors
	tel.Motors[cfg.MotorSlots[wire.Shoulder]].Position = wire.RadToCounts(0.5, 0)
	js := node.NewJointStates()
	js.Fill(&cfg, &tel)
	for i, n := range js.Name {
		fmt.Printf("%s %.3f\n", n, js.Position[i])
	}
	// Output:
	// waist 0.000
	// shoulder 0.500
	// elbow 0.000
	// neck 0.000
	// flippers 0.000
	// gripper 0.000
}
