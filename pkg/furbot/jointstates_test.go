package furbot_test

import (
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/telebridge/telebridge/internal/testkit/urdftest"
	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"gonum.org/v1/gonum/spatial/r3"
)

func loadFurbotDescription(t *testing.T) *urdftest.Robot {
	t.Helper()
	r, err := urdftest.Load(urdftest.Path(furbot.DescriptionFile))
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
	f, err := os.Open(urdftest.Path(furbot.DescriptionFile))
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
	got, want := r.MovingJoints(), slices.Clone(furbot.JointNames[:])
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("URDF moving joints %v, published %v", got, want)
	}
	ctl := furbot.DefaultTwistNodeConfig().Controller
	odo := furbot.DefaultOdomNodeConfig().Odometry
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
	rl, rr := pos(furbot.JointRearLeftWheel), pos(furbot.JointRearRightWheel)
	fl, fr := pos(furbot.JointFrontLeftSteer), pos(furbot.JointFrontRightSteer)
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
	inner, _ := furbot.AckermannAngles(ctl.MaxSteer, ctl.Wheelbase, odo.Track)
	for _, name := range []string{furbot.JointFrontLeftSteer, furbot.JointFrontRightSteer} {
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
	if got := c.JointNames(); !slices.Equal(got, []string{furbot.JointFrontLeftSteer, furbot.JointFrontLeftWheel}) {
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

func TestAckermannAngles(t *testing.T) {
	const L, T = 2.0, 1.2
	tests := []struct {
		name        string
		delta       float64
		left, right float64
	}{
		{"straight", 0, 0, 0},
		// Left turn about (0, R): the left (inner) wheel turns more.
		{"left 0.3", 0.3, math.Atan(L / (L/math.Tan(0.3) - T/2)), math.Atan(L / (L/math.Tan(0.3) + T/2))},
		{"right 0.3", -0.3, -math.Atan(L / (L/math.Tan(0.3) + T/2)), -math.Atan(L / (L/math.Tan(0.3) - T/2))},
		{"limit 0.55", 0.55, 0.64433, 0.47783},
	}
	for _, tc := range tests {
		l, r := furbot.AckermannAngles(tc.delta, L, T)
		if math.Abs(l-tc.left) > 1e-5 || math.Abs(r-tc.right) > 1e-5 {
			t.Errorf("%s: %.5f, %.5f, want %.5f, %.5f", tc.name, l, r, tc.left, tc.right)
		}
	}
}

// Golden sequence: straight at 2 rad/s on both rear wheels for 1 s of
// vehicle time in 10 ms frames, repeats ignored, a gap held.
func TestJointStatesIntegration(t *testing.T) {
	js, err := furbot.NewJointStates(furbot.OdometryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	tr := furbot.Traction{Left: 200, Right: 200} // 2 rad/s
	if js.Traction(tr, 1000) {
		t.Fatal("published before any steering sample")
	}
	js.Steering(furbot.Steering{})
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
		if name == furbot.JointFrontLeftSteer || name == furbot.JointFrontRightSteer {
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
	js, err := furbot.NewJointStates(furbot.OdometryConfig{})
	if err != nil {
		b.Fatal(err)
	}
	js.Steering(furbot.Steering{Angle: 1500})
	tr := furbot.Traction{Left: 300, Right: 330}
	ms := uint32(0)
	b.ReportAllocs()
	for b.Loop() {
		ms += 10
		js.Traction(tr, ms)
	}
}

// The joint states from the bridge's telemetry, through the three-node
// split in lock-step over UDP, against the simulator's truth: a left arc.
func TestJointStatesMatchSimulator(t *testing.T) {
	n := newNodeRig(t)
	n.start(t)
	odo := furbot.DefaultOdomNodeConfig().Odometry
	js, err := furbot.NewJointStates(odo)
	if err != nil {
		t.Fatal(err)
	}
	R, L, T := odo.WheelRadius, odo.Wheelbase, odo.Track
	// Expected front wheel angles from the truth (speed, steering) alone.
	var expFL, expFR float64
	cmd := furbot.Twist{V: 1.0, W: 0.25}
	start := n.sim.Truth()
	prev := start
	for i := 0; i < 800; i++ {
		var c *furbot.Twist
		if i%5 == 0 {
			c = &cmd
		}
		s := n.step(t, c)
		js.Steering(s.Status.Steering)
		js.Traction(s.Status.Traction, s.Status.Timestamp)
		tr := n.sim.Truth()
		dt := tr.T - prev.T
		for _, w := range []struct {
			exp *float64
			y   float64
		}{{&expFL, T / 2}, {&expFR, -T / 2}} {
			st := math.Tan(prev.Steer)
			*w.exp += prev.V * math.Hypot(L*st, L-w.y*st) / L * dt / R
		}
		prev = tr
	}
	// The latest status the bridge received is the simulator's state one
	// period ago: compare with that.
	truth := prev
	yaw := truth.Yaw - start.Yaw
	dist := truth.Distance - start.Distance
	if yaw < 0.5 || dist < 4 {
		t.Fatalf("the vehicle did not drive the arc: %.2f m, %.2f rad", dist, yaw)
	}
	angle := func(name string) float64 {
		i := slices.Index(js.Name, name)
		return js.Position[i]
	}
	diff := func(a, b float64) float64 { return math.Abs(math.Remainder(a-b, 2*math.Pi)) }
	sl, sr := furbot.AckermannAngles(truth.Steer, L, T)
	for _, c := range []struct {
		name      string
		want, tol float64
	}{
		// Rear wheels: the path of each wheel (the axle middle's path
		// -+ half the track times the yaw) over the radius. 1 % of the
		// distance in wheel radians, for the quantisation of the speeds
		// (0.01 rad/s) and the period the bridge lags.
		{furbot.JointRearLeftWheel, (dist - yaw*T/2) / R, 0.01 * dist / R},
		{furbot.JointRearRightWheel, (dist + yaw*T/2) / R, 0.01 * dist / R},
		{furbot.JointFrontLeftWheel, expFL, 0.01 * dist / R},
		{furbot.JointFrontRightWheel, expFR, 0.01 * dist / R},
		// Steering: the telemetry's 0.01 degree and one period of the
		// steering rate.
		{furbot.JointFrontLeftSteer, sl, 0.01},
		{furbot.JointFrontRightSteer, sr, 0.01},
	} {
		if d := diff(angle(c.name), c.want); d > c.tol {
			t.Errorf("%s = %.4f, simulator says %.4f (off by %.4f, tolerance %.4f)", c.name, angle(c.name), math.Remainder(c.want, 2*math.Pi), d, c.tol)
		}
	}
	if !(sl > sr && sr > 0) {
		t.Errorf("left arc: steering joints %.3f (left) and %.3f (right)", sl, sr)
	}
	t.Logf("arc of %.2f m, %.2f rad: rear wheels %.4f / %.4f rad (mod 2pi), steering %.4f / %.4f rad",
		dist, yaw, angle(furbot.JointRearLeftWheel), angle(furbot.JointRearRightWheel), angle(furbot.JointFrontLeftSteer), angle(furbot.JointFrontRightSteer))
}

// ExampleJointStates integrates half a second of a straight drive at
// 1 rad/s on both rear wheels (0.3 m/s with the default radius).
func ExampleJointStates() {
	js, _ := furbot.NewJointStates(furbot.OdometryConfig{})
	js.Steering(furbot.Steering{Angle: 0})
	for ms := uint32(0); ms <= 500; ms += 10 {
		js.Traction(furbot.Traction{Left: 100, Right: 100}, ms)
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
