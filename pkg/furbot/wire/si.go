package wire

import "math"

// SI views of the raw blocks, for the SI fields of the ROS messages. Each
// multiplies the raw count by its scale (scales.go).

// ThrottleRatio returns the applied throttle as a fraction [0, 1].
func (t Traction) ThrottleRatio() float64 { return float64(t.Throttle) * PedalScale }

// BrakeRatio returns the applied brake as a fraction [0, 1].
func (t Traction) BrakeRatio() float64 { return float64(t.Brake) * PedalScale }

// OdometerM returns the vehicle's odometer [m] (wraps with the raw field).
func (t Traction) OdometerM() float64 { return float64(t.Odometer) * OdometerScale }

// TargetRad returns the road-wheel angle being steered to [rad], positive
// left.
func (s Steering) TargetRad() float64 { return float64(s.Target) * AngleScale }

// barToPa converts bar to pascal.
const barToPa = 1e5

// PressurePa returns the hydraulic supply pressure [Pa].
func (h Hydraulics) PressurePa() float64 { return float64(h.Pressure) * PressureScale * barToPa }

// HeightM returns the ride height from nominal [m], up positive.
func (s Suspension) HeightM() float64 { return float64(s.Height) * LengthScale }

// TargetM returns the requested ride height [m].
func (s Suspension) TargetM() float64 { return float64(s.Target) * LengthScale }

// PressurePa returns the strut pressure [Pa].
func (s Suspension) PressurePa() float64 { return float64(s.Pressure) * PressureScale * barToPa }

// LiftM returns the fork height above its lowest position [m].
func (f Fork) LiftM() float64 { return float64(f.Lift) * LengthScale }

// TiltRad returns the fork tilt [rad], tip up positive.
func (f Fork) TiltRad() float64 { return float64(f.Tilt) * AngleScale }

// ShiftM returns the fork side shift [m], left positive.
func (f Fork) ShiftM() float64 { return float64(f.Shift) * LengthScale }

// Values of sensor_msgs/BatteryState's power_supply_status and
// power_supply_health used by Battery.
const (
	BatteryStatusUnknown     = 0 // POWER_SUPPLY_STATUS_UNKNOWN
	BatteryStatusDischarging = 2 // POWER_SUPPLY_STATUS_DISCHARGING
	BatteryStatusNotCharging = 3 // POWER_SUPPLY_STATUS_NOT_CHARGING
	BatteryHealthUnknown     = 0 // POWER_SUPPLY_HEALTH_UNKNOWN
	BatteryHealthGood        = 1 // POWER_SUPPLY_HEALTH_GOOD
	BatteryHealthOverheat    = 2 // POWER_SUPPLY_HEALTH_OVERHEAT
	BatteryHealthFailure     = 5 // POWER_SUPPLY_HEALTH_UNSPEC_FAILURE
)

// BatteryOverheat is the hottest-cell temperature above which the battery
// reports POWER_SUPPLY_HEALTH_OVERHEAT [degC] (assumed; typical limit of
// lithium cells in discharge).
const BatteryOverheat = 60

// Battery is the BMS block in the units and conventions of
// sensor_msgs/BatteryState. Fields the protocol lacks (charge, capacity,
// cell voltages) are NaN there as the message specifies.
type Battery struct {
	Voltage     float64 // pack voltage [V]
	Current     float64 // [A], negative while discharging (BatteryState's sign)
	Percentage  float64 // state of charge [0, 1]
	Temperature float64 // hottest cell [degC]
	Status      uint8   // BatteryStatus*
	Health      uint8   // BatteryHealth*
	Present     bool    // a BMS block has been received
	Charge      float64 // NaN: not reported
	Capacity    float64 // NaN: not reported
}

// Battery converts the BMS block. present is whether the block was ever
// received (Status.Has(BlockBMS)).
func (b BMS) Battery(present bool) Battery {
	nan := math.NaN()
	out := Battery{
		Voltage: b.VoltageV(), Current: -b.CurrentA(), Percentage: b.Percentage(), Temperature: float64(b.TempHi),
		Present: present, Charge: nan, Capacity: nan,
	}
	switch {
	case !present:
		out.Status, out.Health = BatteryStatusUnknown, BatteryHealthUnknown
		out.Voltage, out.Current, out.Percentage, out.Temperature = nan, nan, nan, nan
		return out
	case b.Current > 0:
		out.Status = BatteryStatusDischarging
	default:
		out.Status = BatteryStatusNotCharging // the protocol does not report charging
	}
	switch {
	case b.State == StateHalted:
		out.Health = BatteryHealthFailure
	case b.TempHi > BatteryOverheat:
		out.Health = BatteryHealthOverheat
	default:
		out.Health = BatteryHealthGood
	}
	return out
}
