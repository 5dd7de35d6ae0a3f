package sim

import (
	"errors"
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

func newVeh(t *testing.T, p Params) *Vehicle {
	t.Helper()
	v, err := NewVehicle(p)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func run(v *Vehicle, seconds float64, in Inputs) {
	for i := 0; i < int(math.Round(seconds/0.01)); i++ {
		v.Step(0.01, in)
	}
}

func TestVehicleAccelerationAndThrottleLag(t *testing.T) {
	v := newVeh(t, Params{})
	run(v, 0.1, Inputs{Throttle: 1})
	// After 0.1 s the throttle actuator (tau 0.15 s) is below 50 %.
	if v.throttle > 0.5 || v.throttle < 0.4 {
		t.Errorf("throttle after 0.1 s = %v, want 1-exp(-0.1/0.15) ≈ 0.49", v.throttle)
	}
	run(v, 1.9, Inputs{Throttle: 1})
	// Full force 3000 N on 1500 kg minus rolling 0.147 m/s²: about 1.85 m/s².
	if s := v.Truth().V; s < 3.0 || s > 3.7 {
		t.Errorf("speed after 2 s full throttle %v, want about 3.4", s)
	}
}

func TestVehicleBrakeStopsWithoutReversing(t *testing.T) {
	v := newVeh(t, Params{})
	run(v, 3, Inputs{Throttle: 1})
	run(v, 3, Inputs{Brake: 1})
	if s := v.Truth().V; s != 0 {
		t.Errorf("speed after 3 s full brake %v, want 0", s)
	}
	x := v.Truth().X
	run(v, 1, Inputs{Brake: 1})
	if v.Truth().X != x {
		t.Error("vehicle moved while braked at standstill")
	}
	// Coasting also ends at rest, never backwards.
	v = newVeh(t, Params{})
	run(v, 1, Inputs{Throttle: 0.5})
	run(v, 20, Inputs{})
	if s := v.Truth().V; s != 0 {
		t.Errorf("coasting speed after 20 s %v, want 0", s)
	}
}

func TestVehicleSteeringRateAndArc(t *testing.T) {
	v := newVeh(t, Params{})
	v.Step(0.1, Inputs{Steer: 0.5})
	if s := v.Truth().Steer; math.Abs(s-0.08) > 1e-9 {
		t.Errorf("steer after 0.1 s %v, want 0.8 rad/s * 0.1 s", s)
	}
	run(v, 1, Inputs{Steer: 2}) // clamped to MaxSteer 0.6
	if s := v.Truth().Steer; s != 0.6 {
		t.Errorf("steer %v, want the 0.6 rad limit", s)
	}
	// At constant speed the yaw rate is v·tan(steer)/L.
	run(v, 3, Inputs{Steer: 0.3, Throttle: 0.3})
	tr := v.Truth()
	if want := tr.V * math.Tan(tr.Steer) / 2.0; math.Abs(tr.YawRate-want) > 1e-3 {
		t.Errorf("yaw rate %v, want %v", tr.YawRate, want)
	}
}

func TestVehicleReverseOnlyAtStandstill(t *testing.T) {
	v := newVeh(t, Params{})
	run(v, 2, Inputs{Throttle: 0.5})
	run(v, 0.5, Inputs{Throttle: 0.5, Reverse: true})
	if v.reverse || v.Truth().V <= 0 {
		t.Fatal("gear changed while moving forwards")
	}
	run(v, 5, Inputs{Brake: 1, Reverse: true})
	run(v, 2, Inputs{Throttle: 0.5, Reverse: true})
	if !v.reverse || v.Truth().V >= 0 {
		t.Errorf("reverse %v speed %v, want driving backwards", v.reverse, v.Truth().V)
	}
	var s wire.Status
	v.Status(&s, 0, Link{})
	if s.Traction.Reverse != 1 || s.Traction.Speed >= 0 {
		t.Errorf("status reverse %d speed %d", s.Traction.Reverse, s.Traction.Speed)
	}
}

func TestVehicleBatteryDischarges(t *testing.T) {
	v := newVeh(t, Params{BatteryAh: 1}) // tiny battery to see it move
	c0 := v.Charge()
	run(v, 10, Inputs{Throttle: 0.6})
	var s wire.Status
	v.Status(&s, 0, Link{})
	if v.Charge() >= c0 {
		t.Errorf("charge %v, want below %v", v.Charge(), c0)
	}
	if s.BMS.Current == 0 || s.BMS.Voltage == 0 || s.BMS.Charge >= uint8(c0*100) {
		t.Errorf("BMS block %+v", s.BMS)
	}
}

func TestVehicleStartupSequence(t *testing.T) {
	v := newVeh(t, Params{StartupTime: 1})
	var s wire.Status
	v.Status(&s, 0, Link{})
	if s.BMS.State != wire.StateCold || s.AllWorking() {
		t.Errorf("at t=0: BMS state %d, all working %v", s.BMS.State, s.AllWorking())
	}
	run(v, 0.3, Inputs{})
	v.Status(&s, 0, Link{})
	if s.Comm.State != wire.StateInit || s.AllWorking() {
		t.Errorf("at t=0.3: comm state %d", s.Comm.State)
	}
	run(v, 0.71, Inputs{})
	v.Status(&s, 0, Link{})
	if !s.AllWorking() {
		t.Errorf("at t=1.01: working mask %012b", s.WorkingMask())
	}
	v.SetFault(wire.BlockRearFork, true)
	v.Status(&s, 0, Link{})
	if s.Forks[0].State != wire.ForkFault || s.AllWorking() {
		t.Errorf("rear fork fault: state %d", s.Forks[0].State)
	}
}

func TestVehicleRejectsBadInputsAndParams(t *testing.T) {
	v := newVeh(t, Params{})
	run(v, 2, Inputs{Throttle: 1})
	run(v, 3, Inputs{Throttle: math.NaN(), Steer: math.Inf(1)})
	if tr := v.Truth(); tr.V != 0 || math.IsNaN(tr.Steer) {
		t.Errorf("after NaN inputs: %+v, want braked to rest", tr)
	}
	if _, err := NewVehicle(Params{Mass: -1}); !errors.Is(err, ErrParams) {
		t.Errorf("negative mass: %v", err)
	}
	if _, err := NewVehicle(Params{MaxSteer: 2}); !errors.Is(err, ErrParams) {
		t.Errorf("steer limit 2 rad: %v", err)
	}
}
