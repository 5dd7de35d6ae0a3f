package odometry

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"
)

const eps = 1e-9

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func poseNear(t *testing.T, got, want Pose2D, tol float64) {
	t.Helper()
	if !near(got.X, want.X, tol) || !near(got.Y, want.Y, tol) || !near(NormalizeAngle(got.Yaw-want.Yaw), 0, tol) {
		t.Fatalf("pose %+v, want %+v (tol %g)", got, want, tol)
	}
}

func TestIntegrate(t *testing.T) {
	tests := []struct {
		name  string
		start Pose2D
		tw    Twist2D
		dt    float64
		want  Pose2D
	}{
		{"straight", Pose2D{}, Twist2D{V: 1}, 2, Pose2D{X: 2}},
		{"straight along a heading", Pose2D{X: 1, Yaw: math.Pi / 2}, Twist2D{V: 0.5}, 2, Pose2D{X: 1, Y: 1, Yaw: math.Pi / 2}},
		{"backwards", Pose2D{}, Twist2D{V: -1}, 1, Pose2D{X: -1}},
		{"pure rotation", Pose2D{X: 3, Y: 4}, Twist2D{W: 1}, math.Pi / 2, Pose2D{X: 3, Y: 4, Yaw: math.Pi / 2}},
		// Quarter circle of radius 2 to the left: from the origin heading x
		// to (2, 2) heading y.
		{"left arc", Pose2D{}, Twist2D{V: math.Pi, W: math.Pi / 2}, 1, Pose2D{X: 2, Y: 2, Yaw: math.Pi / 2}},
		{"right arc", Pose2D{}, Twist2D{V: math.Pi, W: -math.Pi / 2}, 1, Pose2D{X: 2, Y: -2, Yaw: -math.Pi / 2}},
		// Backing up while turning left: the centre of the turn is at (0, v/w) = (0, -2).
		{"reverse arc", Pose2D{}, Twist2D{V: -math.Pi, W: math.Pi / 2}, 1, Pose2D{X: -2, Y: -2, Yaw: math.Pi / 2}},
		{"full circle returns", Pose2D{X: 1, Y: 1, Yaw: 0.3}, Twist2D{V: 1, W: 1}, 2 * math.Pi, Pose2D{X: 1, Y: 1, Yaw: 0.3}},
		{"tiny yaw rate is a straight line", Pose2D{}, Twist2D{V: 1, W: 1e-9}, 1, Pose2D{X: 1, Y: 5e-10, Yaw: 1e-9}},
		{"zero dt", Pose2D{X: 1, Yaw: 1}, Twist2D{V: 5, W: 5}, 0, Pose2D{X: 1, Yaw: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			poseNear(t, Integrate(tc.start, tc.tw, tc.dt), tc.want, 1e-9)
		})
	}
}

// Exact integration must not depend on how the interval is cut.
func TestIntegrateIndependentOfStep(t *testing.T) {
	tw := Twist2D{V: 1.3, W: 0.4}
	one := Integrate(Pose2D{}, tw, 10)
	many := Pose2D{}
	for range 10000 {
		many = Integrate(many, tw, 0.001)
	}
	poseNear(t, many, one, 1e-9)
}

func TestNormalizeAngle(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{0, 0}, {math.Pi, math.Pi}, {-math.Pi, math.Pi}, {3 * math.Pi / 2, -math.Pi / 2}, {7 * math.Pi, math.Pi}, {-0.5, -0.5},
	} {
		if got := NormalizeAngle(tc.in); !near(got, tc.want, eps) {
			t.Errorf("NormalizeAngle(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
}

func TestFromWheelsAndBicycle(t *testing.T) {
	if tw := FromWheels(1, 1, 1.2); tw != (Twist2D{V: 1}) {
		t.Errorf("equal wheels: %+v", tw)
	}
	if tw := FromWheels(-0.6, 0.6, 1.2); !near(tw.V, 0, eps) || !near(tw.W, 1, eps) {
		t.Errorf("spin in place: %+v", tw)
	}
	// Steering 45 deg left, wheelbase 2 m: turning radius 2 m.
	if tw := FromBicycle(2, math.Pi/4, 2); !near(tw.W, 1, eps) || tw.V != 2 {
		t.Errorf("bicycle: %+v", tw)
	}
}

func TestQuaternion(t *testing.T) {
	x, y, z, w := Pose2D{Yaw: math.Pi / 2}.Quaternion()
	if x != 0 || y != 0 || !near(z, math.Sqrt2/2, eps) || !near(w, math.Sqrt2/2, eps) {
		t.Fatalf("quaternion %v %v %v %v", x, y, z, w)
	}
}

func TestOdometryUpdate(t *testing.T) {
	o, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1000, 0)
	steps := []struct {
		tw  Twist2D
		at  time.Duration
		err error
	}{
		{Twist2D{V: 1}, 0, nil}, // first update only sets the time
		{Twist2D{V: 1}, time.Second, nil},
		{Twist2D{V: math.NaN()}, 2 * time.Second, ErrNotFinite},
		{Twist2D{V: -0.5}, 2 * time.Second, nil},
		{Twist2D{V: 9}, 2 * time.Second, nil}, // zero interval: moves nothing
		{Twist2D{V: 9}, 5 * time.Second, nil}, // gap over MaxGap: held
		{Twist2D{V: 1}, 5500 * time.Millisecond, nil},
	}
	for i, s := range steps {
		if err := o.Update(s.tw, t0.Add(s.at)); !errors.Is(err, s.err) {
			t.Fatalf("step %d: err %v, want %v", i, err, s.err)
		}
	}
	st := o.State()
	// +1 m, -0.5 m, then +0.5 m after the gap.
	poseNear(t, st.Pose, Pose2D{X: 1}, eps)
	if !near(st.Distance, 2, eps) || !st.Stamp.Equal(t0.Add(5500*time.Millisecond)) {
		t.Fatalf("distance %g stamp %v", st.Distance, st.Stamp)
	}
	if st.PoseCovariance[0] != DefaultPoseCovariance[0] || st.PoseCovariance[35] != DefaultPoseCovariance[5] || st.PoseCovariance[1] != 0 {
		t.Fatalf("pose covariance layout %v", st.PoseCovariance)
	}
	o.Reset(Pose2D{X: 5, Yaw: 4 * math.Pi})
	if st := o.State(); st.Pose != (Pose2D{X: 5}) || st.Distance != 0 {
		t.Fatalf("after reset %+v", st)
	}
}

func TestNewRejectsBadCovariance(t *testing.T) {
	bad := [6]float64{1, 1, math.NaN(), 1, 1, 1}
	if _, err := New(Config{PoseCovariance: &bad}); err == nil {
		t.Fatal("NaN covariance accepted")
	}
	neg := [6]float64{-1}
	if _, err := New(Config{TwistCovariance: &neg}); err == nil {
		t.Fatal("negative covariance accepted")
	}
}

func TestUpdateAllocatesNothing(t *testing.T) {
	o, _ := New(Config{})
	now := time.Now()
	if n := testing.AllocsPerRun(100, func() {
		now = now.Add(10 * time.Millisecond)
		_ = o.Update(Twist2D{V: 1, W: 0.1}, now)
		_ = o.State()
	}); n != 0 {
		t.Fatalf("%v allocations per update", n)
	}
}

func BenchmarkUpdate(b *testing.B) {
	o, _ := New(Config{})
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(10 * time.Millisecond)
		_ = o.Update(Twist2D{V: 1, W: 0.1}, now)
	}
}

func Example() {
	o, _ := New(Config{})
	t0 := time.Unix(0, 0)
	// Rear wheels of a vehicle with a 1.2 m track, sampled at 100 Hz.
	for i := range 101 {
		_ = o.Update(FromWheels(0.9, 1.1, 1.2), t0.Add(time.Duration(i)*10*time.Millisecond))
	}
	p := o.State().Pose
	fmt.Printf("x=%.3f m y=%.3f m yaw=%.3f rad\n", p.X, p.Y, p.Yaw)
	// Output: x=0.995 m y=0.083 m yaw=0.167 rad
}
