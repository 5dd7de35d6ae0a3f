package node_test

import (
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/telebridge/telebridge/internal/testkit/urdftest"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/kinematics"
)

func loadFurbotDescription(t *testing.T) *urdftest.Robot {
	t.Helper()
	r, err := urdftest.Load(urdftest.Path(node.DescriptionFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	return r
}

func furbotChain(t *testing.T, tip string) *kinematics.Chain {
	t.Helper()
	f, err := os.Open(urdftest.Path(node.DescriptionFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := kinematics.ParseURDF(f, "base_link", tip)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// One source of truth: the description's wheelbase, track, wheel radius,
// steering limit and steering rate are the nodes' parameter defaults, and
// its moving joints are exactly the ones furbot_odometry publishes.
func TestDescriptionMatchesNodeDefaults(t *testing.T) {
	r := loadFurbotDescription(t)
	if root, _ := r.Root(); root != "base_link" {
		t.Fatalf("root %q, want base_link (the child frame of odom)", root)
	}
	got, want := r.MovingJoints(), slices.Clone(node.JointNames[:])
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("URDF moving joints %v, published %v", got, want)
	}
	ctl := node.DefaultTwistNodeConfig().Controller
	odo := node.DefaultOdomNodeConfig().Odometry
	if ctl.Wheelbase != odo.Wheelbase {
		t.Fatalf("twist control wheelbase %g, odometry odom_wheelbase %g", ctl.Wheelbase, odo.Wheelbase)
	}
	pos := func(joint string) [3]float64 {
		t.Helper()
		j := r.Joint(joint)
		if j == nil || j.Parent.Link != "base_link" {
			t.Fatalf("joint %s missing or not on base_link", joint)
		}
		xyz, err := j.OriginXYZ()
		if err != nil {
			t.Fatal(err)
		}
		return xyz
	}
	rl, rr := pos(node.JointRearLeftWheel), pos(node.JointRearRightWheel)
	fl, fr := pos(node.JointFrontLeftSteer), pos(node.JointFrontRightSteer)
	const eps = 1e-9
	// base_link in the middle of the rear axle.
	if rl[0] != 0 || rr[0] != 0 || rl[2] != 0 || rr[2] != 0 || math.Abs(rl[1]+rr[1]) > eps {
		t.Errorf("rear wheels at %v and %v: base_link is not the middle of the rear axle", rl, rr)
	}
	if d := rl[1] - rr[1]; math.Abs(d-odo.Track) > eps {
		t.Errorf("URDF rear track %g, furbot_odometry track %g", d, odo.Track)
	}
	for _, f := range [][3]float64{fl, fr} {
		if math.Abs(f[0]-ctl.Wheelbase) > eps {
			t.Errorf("front wheel at x %g, wheelbase %g", f[0], ctl.Wheelbase)
		}
	}
	// The ground: one wheel radius below the axle.
	fp := r.Joint("base_footprint_joint")
	if xyz, _ := fp.OriginXYZ(); fp.Child.Link != "base_footprint" || math.Abs(xyz[2]+odo.WheelRadius) > eps || xyz[0] != 0 || xyz[1] != 0 {
		t.Errorf("base_footprint at %v, want %g below base_link", xyz, odo.WheelRadius)
	}
	// Steering limit: the inner wheel's angle at max_steer.
	inner, _ := control.AckermannAngles(ctl.MaxSteer, ctl.Wheelbase, odo.Track)
	for _, name := range []string{node.JointFrontLeftSteer, node.JointFrontRightSteer} {
		lo, hi, vel, err := r.Joint(name).Limits()
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(hi-inner) > 1e-4 || math.Abs(lo+inner) > 1e-4 {
			t.Errorf("%s limits [%g, %g], want ±%.4f (inner wheel at max_steer %g)", name, lo, hi, inner, ctl.MaxSteer)
		}
		if math.Abs(vel-ctl.SteerRate) > eps {
			t.Errorf("%s velocity limit %g, steer_rate %g", name, vel, ctl.SteerRate)
		}
	}
}

// The kinematics parser reads the wheel chains: a steering joint turns the
// front wheel's axle about z, positive left.
func TestDescriptionSteeringChain(t *testing.T) {
	c := furbotChain(t, "front_left_wheel_link")
	if got := c.JointNames(); !slices.Equal(got, []string{node.JointFrontLeftSteer, node.JointFrontLeftWheel}) {
		t.Fatalf("chain joints %v", got)
	}
	T, err := c.FK([]float64{0.4, 0})
	if err != nil {
		t.Fatal(err)
	}
	// The wheel's rolling direction (its x) turns left.
	if dir := T.Rotation.Rotate(r3.Vec{X: 1}); math.Abs(math.Atan2(dir.Y, dir.X)-0.4) > 1e-9 {
		t.Errorf("steering 0.4 rad: wheel rolls along %v", dir)
	}
}

// Golden sequence: straight at 2 rad/s on both rear wheels for 1 s of
// vehicle time in 10 ms frames, repeats ignored, a gap held.
func TestJointStatesIntegration(t *testing.T) {
	js, err := node.NewJointStates(control.OdometryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	tr := wire.Traction{Left: 200, Right: 200} // 2 rad/s
	if js.Traction(tr, 1000) {
		t.Fatal("published before any steering sample")
	}
	js.Steering(wire.Steering{})
	for ms := uint32(1010); ms <= 2000; ms += 10 {
		if !js.Traction(tr, ms) {
			t.Fatalf("sample at %d ms not published", ms)
		}
		if js.Traction(tr, ms) {
			t.Fatalf("repeated sample at %d ms published", ms)
		}
	}
	want := math.Remainder(2.0, 2*math.Pi)
	for i, name := range js.Name {
		got := js.Position[i]
		exp := want
		if name == node.JointFrontLeftSteer || name == node.JointFrontRightSteer {
			exp = 0
		}
		if math.Abs(got-exp) > 1e-9 {
			t.Errorf("%s = %.6f, want %.6f", name, got, exp)
		}
	}
	// A gap of 5 s (longer than odom_max_gap) holds the angles.
	before := slices.Clone(js.Position)
	js.Traction(tr, 7000)
	if !slices.Equal(before, js.Position) {
		t.Errorf("across a gap: %v, want %v held", js.Position, before)
	}
	if a := testing.AllocsPerRun(100, func() {
		js.Traction(tr, 7010)
		js.Traction(tr, 7020)
	}); a != 0 {
		t.Errorf("Traction allocates %v times per call", a)
	}
}

func BenchmarkJointStatesTraction(b *testing.B) {
	js, err := node.NewJointStates(control.OdometryConfig{})
	if err != nil {
		b.Fatal(err)
	}
	js.Steering(wire.Steering{Angle: 1500})
	tr := wire.Traction{Left: 300, Right: 330}
	ms := uint32(0)
	b.ReportAllocs()
	for b.Loop() {
		ms += 10
		js.Traction(tr, ms)
	}
}

// ExampleJointStates integrates half a second of a straight drive at
// 1 rad/s on both rear wheels (0.3 m/s with the default radius).
func ExampleJointStates() {
	js, _ := node.NewJointStates(control.OdometryConfig{})
	js.Steering(wire.Steering{Angle: 0})
	for ms := uint32(0); ms <= 500; ms += 10 {
		js.Traction(wire.Traction{Left: 100, Right: 100}, ms)
	}
	for i, name := range js.Name {
		fmt.Printf("%s %.3f\n", name, js.Position[i])
	}
	// Output:
	// rear_left_wheel_joint 0.500
	// rear_right_wheel_joint 0.500
	// front_left_steering_joint 0.000
	// front_right_steering_joint 0.000
	// front_left_wheel_joint 0.500
	// front_right_wheel_joint 0.500
}
