package control

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// ramp is a joint trajectory at a constant velocity [rad/s] from 0,
// delivered as jog does: a point one period ahead and the next one two
// periods ahead, every period.
type ramp struct {
	vel    float64
	period time.Duration
	until  time.Duration // the last point is due then
}

func (r ramp) point(t0 time.Time, due time.Duration) TrajectoryPoint {
	if due > r.until {
		due = r.until
	}
	v := r.vel
	if due == r.until {
		v = 0
	}
	return TrajectoryPoint{Position: r.vel * due.Seconds(), Velocity: v, Due: t0.Add(due)}
}

// trackRamp runs the controller on an exact plant at 100 Hz with telemetry
// every telPeriod; every period a new point comes (by Follow, or by
// SetTarget when !follow) until stopAfter or the ramp's end. It returns the largest distance
// between the plant and the ramp while the ramp runs [rad], and the state
// and position at the end of limit.
func trackRamp(t *testing.T, r ramp, follow bool, telPeriod, stopAfter, limit time.Duration) (lag float64, s JointStatus, pos float64) {
	t.Helper()
	a := newArm(t, ArmConfig{})
	const dt = 10 * time.Millisecond
	t0 := time.Unix(1000, 0)
	var p float64
	nextTel, nextPoint := t0, t0
	for now := t0; now.Sub(t0) <= limit; now = now.Add(dt) {
		if !now.Before(nextTel) {
			a.Measure(wire.Waist, p, now)
			nextTel = nextTel.Add(telPeriod)
		}
		// Points come until stopAfter or until the last one was sent.
		if el := now.Sub(t0); !now.Before(nextPoint) && el <= stopAfter && el+r.period <= r.until {
			first, next := r.point(t0, el+r.period), r.point(t0, el+2*r.period)
			if first.Due.Equal(next.Due) {
				next = TrajectoryPoint{}
			}
			var err error
			if follow {
				err = a.Follow(wire.Waist, first, next, now)
			} else {
				err = a.SetTarget(wire.Waist, first.Position, now)
			}
			if err != nil {
				t.Fatal(err)
			}
			nextPoint = nextPoint.Add(r.period)
		}
		var vel [wire.NumJoints]float64
		a.Step(now, 3*time.Second, &vel)
		p += vel[wire.Waist] * dt.Seconds()
		// The ramp's velocity steps at both ends; judge between them.
		if el := now.Sub(t0); el >= 2*r.period && el <= r.until-2*r.period && el <= stopAfter {
			lag = math.Max(lag, math.Abs(r.vel*el.Seconds()-p))
		}
	}
	return lag, a.Status(wire.Waist), p
}

// TestFollowKeepsUpWithTheTrajectory: with the trajectory's velocity fed
// forward the joint stays on a 0.3 rad/s ramp (at 1 Hz telemetry, as on
// the robot, and at 10 Hz); on position targets alone it trails by
// velocity / gain (0.2 rad at the default gain 1.5). Both settle on the
// last point.
func TestFollowKeepsUpWithTheTrajectory(t *testing.T) {
	r := ramp{vel: 0.3, period: 50 * time.Millisecond, until: 3 * time.Second}
	for _, c := range []struct {
		name   string
		follow bool
		tel    time.Duration
		min    float64 // lag bounds [rad]
		max    float64
	}{
		{"follow, 1 Hz telemetry", true, time.Second, 0, 0.01},
		{"follow, 10 Hz telemetry", true, 100 * time.Millisecond, 0, 0.01},
		{"position targets only", false, 100 * time.Millisecond, 0.15, 0.25},
	} {
		t.Run(c.name, func(t *testing.T) {
			lag, s, pos := trackRamp(t, r, c.follow, c.tel, time.Hour, 8*time.Second)
			t.Logf("largest lag %.5f rad; end: %v at %.4f rad", lag, s.State, pos)
			if lag < c.min || lag > c.max {
				t.Errorf("largest lag %.4f rad, want [%g, %g]", lag, c.min, c.max)
			}
			if end := 0.3 * r.until.Seconds(); s.State != Reached || math.Abs(pos-end) > 0.01 {
				t.Errorf("end: %v at %.4f rad, want reached at %.4f", s.State, pos, end)
			}
		})
	}
}

// TestFollowHoldsWhenPointsStop: when no more points come mid-ramp the
// reference stops at the last point given and the joint settles there;
// it does not run on at the last velocity.
func TestFollowHoldsWhenPointsStop(t *testing.T) {
	r := ramp{vel: 0.3, period: 50 * time.Millisecond, until: time.Hour}
	_, s, pos := trackRamp(t, r, true, 100*time.Millisecond, time.Second, 6*time.Second)
	// The last point was given at 1.0 s: its next point is due at 1.1 s.
	want := 0.3 * 1.1
	if s.State != Reached || math.Abs(pos-want) > 0.01 {
		t.Fatalf("after the points stopped: %v at %.4f rad, want reached at %.4f", s.State, pos, want)
	}
}

func TestFollowRefuses(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a := newArm(t, ArmConfig{Lower: [wire.NumJoints]float64{wire.Waist: -1}, Upper: [wire.NumJoints]float64{wire.Waist: 1}})
	pt := func(pos, vel float64, due time.Duration) TrajectoryPoint {
		return TrajectoryPoint{Position: pos, Velocity: vel, Due: t0.Add(due)}
	}
	ms := time.Millisecond
	for _, c := range []struct {
		name    string
		j       wire.Joint
		p, next TrajectoryPoint
		want    error
	}{
		{"ok", wire.Waist, pt(0.1, 0.2, 50*ms), pt(0.11, 0.2, 100*ms), nil},
		{"ok without next", wire.Waist, pt(0.1, 0, 50*ms), TrajectoryPoint{}, nil},
		{"not an arm joint", wire.Flippers, pt(0.1, 0.2, 50*ms), TrajectoryPoint{}, ErrNotArm},
		{"point past the limit", wire.Waist, pt(1.2, 0.2, 50*ms), TrajectoryPoint{}, ErrJointLimit},
		{"next past the limit", wire.Waist, pt(0.9, 0.2, 50*ms), pt(-1.1, 0.2, 100*ms), ErrJointLimit},
		{"NaN position", wire.Waist, pt(math.NaN(), 0.2, 50*ms), TrajectoryPoint{}, ErrJointLimit},
		{"infinite velocity", wire.Waist, pt(0.1, math.Inf(1), 50*ms), TrajectoryPoint{}, wire.ErrInvalidCommand},
		{"NaN next velocity", wire.Waist, pt(0.1, 0.2, 50*ms), pt(0.11, math.NaN(), 100*ms), wire.ErrInvalidCommand},
		{"no due time", wire.Waist, TrajectoryPoint{Position: 0.1}, TrajectoryPoint{}, wire.ErrInvalidCommand},
		{"due too far ahead", wire.Waist, pt(0.1, 0.2, 2*time.Second), TrajectoryPoint{}, wire.ErrInvalidCommand},
		{"next before the point", wire.Waist, pt(0.1, 0.2, 50*ms), pt(0.11, 0.2, 40*ms), wire.ErrInvalidCommand},
		{"next too far ahead", wire.Waist, pt(0.1, 0.2, 50*ms), pt(0.11, 0.2, 3*time.Second), wire.ErrInvalidCommand},
	} {
		if err := a.Follow(c.j, c.p, c.next, t0); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}
