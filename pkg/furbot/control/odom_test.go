package control

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// tractionFrame returns a status with traction and steering for the given
// rear wheel speeds [rad/s], speed [m/s] and steering angle [rad].
func tractionFrame(left, right, speed, steer float64) *wire.Status {
	return &wire.Status{
		Present:  1<<wire.BlockTraction | 1<<wire.BlockSteering,
		Traction: wire.Traction{State: wire.StateRunning, Speed: int16(math.Round(speed / wire.SpeedScale)), Left: int16(math.Round(left / wire.WheelScale)), Right: int16(math.Round(right / wire.WheelScale))},
		Steering: wire.Steering{State: wire.StateRunning, Angle: int16(math.Round(steer / wire.AngleScale))},
	}
}

func newOdo(t *testing.T, cfg OdometryConfig) *Odometer {
	t.Helper()
	o, err := NewOdometer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOdometerWheels(t *testing.T) {
	const r, track = 0.3, 1.2
	cases := []struct {
		name        string
		left, right float64 // [rad/s]
		x, y, yaw   float64 // after 2 s
	}{
		{"straight 1.5 m/s", 5, 5, 3, 0, 0},
		{"backwards", -2, -2, -1.2, 0, 0},
		{"spin on the spot", -1, 1, 0, 0, 2 * 0.6 / track},
		// v = 1.5 m/s, w = 0.3/1.2 = 0.25 rad/s: arc of radius 6 m.
		{"left arc", 4.5, 5.5, 6 * math.Sin(0.5), 6 * (1 - math.Cos(0.5)), 0.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := newOdo(t, OdometryConfig{})
			s := tractionFrame(tc.left, tc.right, 0, 0)
			var got = o.Update(s, 0, tc0)
			for ms := uint64(10); ms <= 2000; ms += 10 {
				got = o.Update(s, ms, tc0.Add(time.Duration(ms)*time.Millisecond))
			}
			p := got.Pose
			if math.Abs(p.X-tc.x) > 1e-9 || math.Abs(p.Y-tc.y) > 1e-9 || math.Abs(p.Yaw-tc.yaw) > 1e-9 {
				t.Errorf("pose (%.6f, %.6f, %.6f), want (%.6f, %.6f, %.6f)", p.X, p.Y, p.Yaw, tc.x, tc.y, tc.yaw)
			}
			if !got.Stamp.Equal(tc0.Add(2 * time.Second)) {
				t.Errorf("stamp %v, want the arrival time of the last frame", got.Stamp)
			}
			wantV := (tc.left + tc.right) / 2 * r
			if math.Abs(got.Twist.V-wantV) > 1e-12 {
				t.Errorf("twist v %v, want %v", got.Twist.V, wantV)
			}
		})
	}
}

func TestOdometerRateIndependent(t *testing.T) {
	// The same arc integrated at 100 Hz and in one 2 s step ends at the same pose.
	s := tractionFrame(4.5, 5.5, 0, 0)
	a, b := newOdo(t, OdometryConfig{MaxGap: 5 * time.Second}), newOdo(t, OdometryConfig{})
	a.Update(s, 0, tc0)
	b.Update(s, 0, tc0)
	var pa = a.Update(s, 2000, tc0).Pose
	var pb = b.Update(s, 0, tc0).Pose
	for ms := uint64(10); ms <= 2000; ms += 10 {
		pb = b.Update(s, ms, tc0).Pose
	}
	if math.Hypot(pa.X-pb.X, pa.Y-pb.Y) > 1e-9 || math.Abs(pa.Yaw-pb.Yaw) > 1e-12 {
		t.Errorf("one step %+v vs 200 steps %+v", pa, pb)
	}
}

func TestOdometerBicycle(t *testing.T) {
	o := newOdo(t, OdometryConfig{Source: OdomBicycle, Wheelbase: 2, MaxGap: 2 * time.Second})
	steer := math.Atan(2.0 / 8) // radius 8 m
	s := tractionFrame(0, 0, 2, steer)
	o.Update(s, 0, tc0)
	got := o.Update(s, 1000, tc0)
	wantW := 2 * math.Tan(float64(s.Steering.Angle)*wire.AngleScale) / 2
	if math.Abs(got.Twist.W-wantW) > 1e-12 || math.Abs(got.Twist.V-2) > 1e-12 {
		t.Errorf("twist %+v, want v 2, w %v", got.Twist, wantW)
	}
	if math.Abs(got.Distance-2) > 1e-12 {
		t.Errorf("distance %v, want 2", got.Distance)
	}
}

func TestOdometerSkipsFramesWithoutTraction(t *testing.T) {
	o := newOdo(t, OdometryConfig{MaxGap: 1500 * time.Millisecond})
	s := tractionFrame(5, 5, 0, 0)
	o.Update(s, 0, tc0)
	o.Update(&wire.Status{Present: 1 << wire.BlockBMS}, 500, tc0) // no traction: skipped
	got := o.Update(s, 1000, tc0)
	if math.Abs(got.Pose.X-1.5) > 1e-9 {
		t.Errorf("x %v after 1 s at 1.5 m/s with a BMS-only frame in between, want 1.5", got.Pose.X)
	}
	// A gap longer than MaxGap (1.5 s) holds the pose.
	got = o.Update(s, 3000, tc0)
	if math.Abs(got.Pose.X-1.5) > 1e-9 {
		t.Errorf("x %v after a 2 s gap, want held at 1.5", got.Pose.X)
	}
}

func TestOdometerCovarianceParameters(t *testing.T) {
	o := newOdo(t, OdometryConfig{PoseCovXY: 0.04, PoseCovYaw: 0.09, TwistCovV: 0.01, TwistCovW: 0.02})
	st := o.Update(tractionFrame(1, 1, 0, 0), 0, tc0)
	for i, want := range map[int]float64{0: 0.04, 7: 0.04, 35: 0.09} {
		if st.PoseCovariance[i] != want {
			t.Errorf("pose covariance[%d] = %v, want %v", i, st.PoseCovariance[i], want)
		}
	}
	if st.TwistCovariance[0] != 0.01 || st.TwistCovariance[35] != 0.02 {
		t.Errorf("twist covariance %v", st.TwistCovariance)
	}
	if _, err := NewOdometer(OdometryConfig{Track: -1}); !errors.Is(err, ErrConfig) {
		t.Errorf("negative track: %v, want ErrConfig", err)
	}
	if _, err := NewOdometer(OdometryConfig{Source: 3}); !errors.Is(err, ErrConfig) {
		t.Errorf("source 3: %v, want ErrConfig", err)
	}
}

func TestOdometerTrapezoidExactUnderAcceleration(t *testing.T) {
	// 1 m/s² from rest, frames every 100 ms for 2 s: distance 2 m exactly,
	// whatever the frame interval (wheel speeds in 0.01 rad/s counts).
	o := newOdo(t, OdometryConfig{})
	var st = o.Update(tractionFrame(0, 0, 0, 0), 0, tc0)
	for ms := uint64(100); ms <= 2000; ms += 100 {
		w := float64(ms) / 1000 / 0.3 // v = t·1 m/s², wheel radius 0.3 m
		st = o.Update(tractionFrame(w, w, 0, 0), ms, tc0)
	}
	if math.Abs(st.Distance-2) > 1e-3 || math.Abs(st.Pose.X-2) > 1e-3 {
		t.Errorf("distance %v x %v, want 2 m", st.Distance, st.Pose.X)
	}
	if math.Abs(st.Twist.V-2) > 2e-3 {
		t.Errorf("reported twist %v, want the latest measurement 2 m/s", st.Twist.V)
	}
}
