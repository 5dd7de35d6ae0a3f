package wire_test

import (
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/furbot/wire/wiretest"
)

func TestBatteryAndSI(t *testing.T) {
	s := wiretest.Full
	b := s.BMS.Battery(true)
	if b.Voltage != 48 || b.Current != -30 || b.Percentage != 0.87 || b.Temperature != 31 ||
		b.Status != wire.BatteryStatusDischarging || b.Health != wire.BatteryHealthGood || !b.Present || !math.IsNaN(b.Charge) {
		t.Errorf("battery %+v", b)
	}
	hot := s.BMS
	hot.TempHi, hot.Current = 70, 0
	if b := hot.Battery(true); b.Health != wire.BatteryHealthOverheat || b.Status != wire.BatteryStatusNotCharging {
		t.Errorf("hot idle battery %+v", b)
	}
	hot.State = wire.StateHalted
	if b := hot.Battery(true); b.Health != wire.BatteryHealthFailure {
		t.Errorf("halted BMS %+v", b)
	}
	if b := (wire.BMS{}).Battery(false); b.Present || !math.IsNaN(b.Voltage) || b.Status != wire.BatteryStatusUnknown {
		t.Errorf("absent battery %+v", b)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	near("throttle", s.Traction.ThrottleRatio(), 0.15)
	near("odometer", s.Traction.OdometerM(), 123.45)
	near("steering target", s.Steering.TargetRad(), -5*math.Pi/180)
	near("hydraulic pressure", s.Hydraulics.PressurePa(), 150e5)
	near("suspension RL height", s.Suspension[0].HeightM(), -0.010)
	near("suspension RR pressure", s.Suspension[1].PressurePa(), 40.2e5)
	near("rear fork lift", s.Forks[0].LiftM(), 0.1)
	near("rear fork tilt", s.Forks[0].TiltRad(), -2*math.Pi/180)
	near("front fork shift", s.Forks[1].ShiftM(), -0.005)
}
