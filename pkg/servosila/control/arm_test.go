package control

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// plant is a joint that moves at scale times the commanded velocity and
// reports its position every telemetry period, all on an injected clock.
type plant struct {
	pos, scale float64
	stuck      bool
}

// drive runs the controller for joint j at 50 Hz with 1 Hz telemetry
// until its target is done or limit passes; it returns the final time.
func drive(t *testing.T, a *ArmController, j wire.Joint, p *plant, start time.Time, limit time.Duration, telemetry bool) time.Time {
	t.Helper()
	const dt = 20 * time.Millisecond
	now := start
	nextTel := start
	for now.Sub(start) <= limit {
		if telemetry && !now.Before(nextTel) {
			a.Measure(j, p.pos, now)
			nextTel = nextTel.Add(time.Second)
		}
		var vel [wire.NumJoints]float64
		a.Step(now, 3*time.Second, &vel)
		if a.Status(j).State.Done() {
			return now
		}
		if !p.stuck {
			p.pos += vel[j] * p.scale * dt.Seconds()
		}
		now = now.Add(dt)
	}
	return now
}

func newArm(t *testing.T, cfg ArmConfig) *ArmController {
	t.Helper()
	a, err := NewArmController(cfg, [wire.NumJoints]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestArmReachesTarget(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, c := range []struct {
		name     string
		from, to float64
		scale    float64 // real speed / commanded speed
		maxTime  time.Duration
	}{
		{"exact plant, forward", 0, 1.0, 1, 6 * time.Second},
		{"exact plant, backward", 0.5, -0.7, 1, 6 * time.Second},
		{"small step", 0.2, 0.23, 1, 3 * time.Second},
		{"plant 30% slower than calibrated", 0, 1.0, 0.7, 10 * time.Second},
		{"plant 30% faster than calibrated", 0, 1.0, 1.3, 10 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := newArm(t, ArmConfig{})
			p := &plant{pos: c.from, scale: c.scale}
			if err := a.SetTarget(wire.Shoulder, c.to, t0); err != nil {
				t.Fatal(err)
			}
			end := drive(t, a, wire.Shoulder, p, t0, 15*time.Second, true)
			s := a.Status(wire.Shoulder)
			if s.State != Reached {
				t.Fatalf("state %v after %v, position %.4f", s.State, end.Sub(t0), p.pos)
			}
			if e := math.Abs(p.pos - c.to); e > 0.01 {
				t.Errorf("stopped %.4f rad from the target (tolerance 0.01)", e)
			}
			if took := end.Sub(t0); took > c.maxTime {
				t.Errorf("took %v, want at most %v", took, c.maxTime)
			}
			if s.Velocity != 0 {
				t.Errorf("still commanding %g rad/s", s.Velocity)
			}
			t.Logf("reached %.4f (target %.4f) in %v", p.pos, c.to, end.Sub(t0))
		})
	}
}

func TestArmTimeoutAndStaleTelemetry(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a := newArm(t, ArmConfig{Timeout: 2 * time.Second})
	p := &plant{stuck: true}
	if err := a.SetTarget(wire.Elbow, 1, t0); err != nil {
		t.Fatal(err)
	}
	end := drive(t, a, wire.Elbow, p, t0, 5*time.Second, true)
	if s := a.Status(wire.Elbow); s.State != TimedOut || s.Velocity != 0 {
		t.Errorf("stuck joint: %+v", s)
	}
	if took := end.Sub(t0); took < 2*time.Second || took > 2*time.Second+40*time.Millisecond {
		t.Errorf("timed out after %v, want 2 s", took)
	}

	b := newArm(t, ArmConfig{})
	if err := b.SetTarget(wire.Neck, 1, t0); err != nil {
		t.Fatal(err)
	}
	end = drive(t, b, wire.Neck, &plant{scale: 1}, t0, 5*time.Second, false)
	if s := b.Status(wire.Neck); s.State != NoTelemetry {
		t.Errorf("without telemetry: %+v", s)
	}
	if took := end.Sub(t0); took < 3*time.Second || took > 3*time.Second+40*time.Millisecond {
		t.Errorf("gave up after %v, want the 3 s telemetry timeout", took)
	}
}

func TestArmLimitsAndCancel(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a := newArm(t, ArmConfig{Lower: [wire.NumJoints]float64{wire.Waist: -1}, Upper: [wire.NumJoints]float64{wire.Waist: 1}})
	for _, c := range []struct {
		j     wire.Joint
		angle float64
		want  error
	}{
		{wire.Waist, 1.01, ErrJointLimit}, {wire.Waist, -1.5, ErrJointLimit}, {wire.Waist, math.NaN(), ErrJointLimit},
		{wire.Flippers, 0, ErrNotArm}, {wire.Gripper, 0, ErrNotArm}, {wire.Waist, 0.99, nil}, {wire.Shoulder, 3, nil},
	} {
		if err := a.SetTarget(c.j, c.angle, t0); !errors.Is(err, c.want) {
			t.Errorf("%s to %g: %v, want %v", c.j, c.angle, err, c.want)
		}
	}
	a.Measure(wire.Waist, 1.0, t0)
	if v := a.Limit(wire.Waist, 0.3); v != 0 {
		t.Errorf("velocity past the upper limit passed: %g", v)
	}
	if v := a.Limit(wire.Waist, -0.3); v != -0.3 {
		t.Errorf("velocity back from the limit blocked: %g", v)
	}
	a.Cancel(wire.Waist)
	if s := a.Status(wire.Waist); s.State != Cancelled {
		t.Errorf("after cancel: %v", s.State)
	}
	var vel [wire.NumJoints]float64
	a.Step(t0.Add(time.Second), time.Hour, &vel)
	if vel[wire.Waist] != 0 {
		t.Errorf("cancelled joint still driven: %g", vel[wire.Waist])
	}
}

func TestArmStepAllocs(t *testing.T) {
	t0 := time.Unix(1000, 0)
	for _, c := range []struct {
		name  string
		start func(a *ArmController) error
	}{
		{"position target", func(a *ArmController) error { return a.SetTarget(wire.Waist, 1, t0) }},
		{"following", func(a *ArmController) error {
			return a.Follow(wire.Waist, TrajectoryPoint{Position: 0.5, Velocity: 0.3, Due: t0.Add(time.Second)}, TrajectoryPoint{}, t0)
		}},
	} {
		a := newArm(t, ArmConfig{})
		a.Measure(wire.Waist, 0, t0)
		if err := c.start(a); err != nil {
			t.Fatal(err)
		}
		now := t0
		var vel [wire.NumJoints]float64
		if n := testing.AllocsPerRun(100, func() {
			now = now.Add(time.Millisecond)
			a.Step(now, time.Hour, &vel)
		}); n != 0 {
			t.Errorf("%s: %v allocs per step", c.name, n)
		}
	}
}
