//go:build ros2

package rosnode

import (
	"time"

	builtin_interfaces_msg "github.com/telebridge/telebridge/internal/rosmsg/builtin_interfaces/msg"
	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	tbi "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/msg"
	furbotcontrol "github.com/telebridge/telebridge/pkg/furbot/control"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	furbotwire "github.com/telebridge/telebridge/pkg/furbot/wire"
)

// Conversions between pkg/furbot's blocks and the Furbot messages of
// telebridge_interfaces, shared by the three Furbot nodes. The fill
// functions overwrite every field of a reused message.

// Time converts a builtin_interfaces/Time to a time.Time.
func Time(t builtin_interfaces_msg.Time) time.Time { return time.Unix(int64(t.Sec), int64(t.Nanosec)) }

// FurbotTraction fills msg from a traction block taken at vehicleMs.
func FurbotTraction(msg *tbi.TractionData, tr furbotwire.Traction, vehicleMs uint32, stamp time.Time, frame string) {
	l, r := tr.WheelRates()
	*msg = tbi.TractionData{
		Header: Header(stamp, frame), VehicleTime: vehicleMs,
		State: int8(tr.State), Mode: int8(tr.Mode), Speed: tr.Speed, VelL: tr.Left, VelR: tr.Right,
		Throttle: tr.Throttle, Brake: tr.Brake, Reverse: tr.Reverse, OdoTravel: tr.Odometer,
		SpeedMps: tr.SpeedMPS(), VelLRadps: l, VelRRadps: r,
		ThrottleRatio: tr.ThrottleRatio(), BrakeRatio: tr.BrakeRatio(), OdoTravelM: tr.OdometerM(),
	}
}

// FurbotTractionOf returns the raw traction block of msg and its vehicle
// time [ms].
func FurbotTractionOf(msg *tbi.TractionData) (furbotwire.Traction, uint32) {
	return furbotwire.Traction{
		State: uint8(msg.State), Mode: uint8(msg.Mode), Speed: msg.Speed, Left: msg.VelL, Right: msg.VelR,
		Throttle: msg.Throttle, Brake: msg.Brake, Reverse: msg.Reverse, Odometer: msg.OdoTravel,
	}, msg.VehicleTime
}

// FurbotSteering fills msg from a steering block taken at vehicleMs.
func FurbotSteering(msg *tbi.SteeringData, s furbotwire.Steering, vehicleMs uint32, stamp time.Time, frame string) {
	*msg = tbi.SteeringData{
		Header: Header(stamp, frame), VehicleTime: vehicleMs,
		State: int8(s.State), CurrentAngle: s.Angle, TargetAngle: s.Target,
		CurrentAngleRad: s.AngleRad(), TargetAngleRad: s.TargetRad(),
	}
}

// FurbotSteeringOf returns the raw steering block of msg.
func FurbotSteeringOf(msg *tbi.SteeringData) furbotwire.Steering {
	return furbotwire.Steering{State: uint8(msg.State), Angle: msg.CurrentAngle, Target: msg.TargetAngle}
}

// FurbotControl fills msg from a controller decision: the raw signals of
// the control frame it makes, and the decision in SI units.
func FurbotControl(msg *tbi.ControlSignals, out furbotcontrol.Output, stamp time.Time) {
	c := out.Control()
	*msg = tbi.ControlSignals{
		Header: Header(stamp, ""), Steer: c.Steer, Throttle: c.Throttle, Brake: c.Brake, Flags: c.Flags,
		SteerRad: out.Steer, ThrottleRatio: out.Throttle, BrakeRatio: out.Brake, SpeedRef: out.Ref,
		Mode: out.Mode.String(), Stale: out.Stale,
	}
}

// FurbotControlOf returns the control frame values of msg (unvalidated).
func FurbotControlOf(msg *tbi.ControlSignals) furbotwire.Control {
	return furbotnode.ControlSignals(msg.Steer, msg.Throttle, msg.Brake, msg.Flags)
}

// FurbotStatus fills msg from the merged status of every subsystem.
func FurbotStatus(msg *tbi.VehicleStatus, s *furbotwire.Status, linkFresh bool, stamp time.Time, frame string) {
	*msg = tbi.VehicleStatus{
		Header: Header(stamp, frame), VehicleTime: s.Timestamp,
		Working: s.WorkingMask(), AllWorking: s.AllWorking(), LinkFresh: linkFresh,
		CommFlags: s.Comm.Flags, CommRxFrames: s.Comm.RxFrames, CommRejected: s.Comm.Rejected,
		MotionMode: s.Motion.Mode, MotionFlags: s.Motion.Flags, MotionLastSeq: s.Motion.LastSeq,
	}
	for id := furbotwire.BlockID(0); id < furbotwire.NumBlocks; id++ {
		msg.States[id], _ = s.BlockState(id)
	}
}

// FurbotMotionOf returns the motion control block of msg.
func FurbotMotionOf(msg *tbi.VehicleStatus) furbotwire.Motion {
	return furbotwire.Motion{State: msg.States[furbotwire.BlockMotion], Mode: msg.MotionMode, Flags: msg.MotionFlags, LastSeq: msg.MotionLastSeq}
}

// FurbotBMS fills msg with what BatteryState lacks of the BMS block.
func FurbotBMS(msg *tbi.BmsData, s *furbotwire.Status, stamp time.Time, frame string) {
	*msg = tbi.BmsData{Header: Header(stamp, frame), VehicleTime: s.Timestamp, State: s.BMS.State, TempHigh: s.BMS.TempHi, TempLow: s.BMS.TempLo}
}

// FurbotBattery fills a sensor_msgs/BatteryState from the BMS block.
func FurbotBattery(msg *sensor_msgs_msg.BatteryState, s *furbotwire.Status, stamp time.Time, frame string) {
	b := s.BMS.Battery(s.Has(furbotwire.BlockBMS))
	*msg = sensor_msgs_msg.BatteryState{
		Header: Header(stamp, frame), Voltage: float32(b.Voltage), Temperature: float32(b.Temperature),
		Current: float32(b.Current), Charge: float32(b.Charge), Capacity: float32(b.Capacity),
		DesignCapacity: float32(b.Capacity), Percentage: float32(b.Percentage),
		PowerSupplyStatus: b.Status, PowerSupplyHealth: b.Health,
		PowerSupplyTechnology: sensor_msgs_msg.BatteryState_POWER_SUPPLY_TECHNOLOGY_UNKNOWN, Present: b.Present,
	}
}

// FurbotHydraulics fills msg from the hydraulics block.
func FurbotHydraulics(msg *tbi.HydraulicsData, s *furbotwire.Status, stamp time.Time, frame string) {
	h := s.Hydraulics
	*msg = tbi.HydraulicsData{
		Header: Header(stamp, frame), VehicleTime: s.Timestamp,
		State: h.State, Pump: h.Pump, Pressure: h.Pressure, OilTemp: h.OilTemp, OilLevel: h.OilLevel, Valves: h.Valves,
		PressurePa: h.PressurePa(),
	}
}

// FurbotSuspension fills msg from the four suspension blocks.
func FurbotSuspension(msg *tbi.SuspensionData, s *furbotwire.Status, stamp time.Time, frame string) {
	*msg = tbi.SuspensionData{Header: Header(stamp, frame), VehicleTime: s.Timestamp}
	for i, u := range s.Suspension {
		msg.State[i], msg.Height[i], msg.Target[i], msg.Pressure[i] = u.State, u.Height, u.Target, u.Pressure
		msg.HeightM[i], msg.TargetM[i], msg.PressurePa[i] = u.HeightM(), u.TargetM(), u.PressurePa()
	}
}

// FurbotForks fills msg from the two fork blocks.
func FurbotForks(msg *tbi.ForkData, s *furbotwire.Status, stamp time.Time, frame string) {
	*msg = tbi.ForkData{Header: Header(stamp, frame), VehicleTime: s.Timestamp}
	for i, f := range s.Forks {
		msg.State[i], msg.Lift[i], msg.Tilt[i], msg.Shift[i], msg.Load[i], msg.Flags[i] = f.State, f.Lift, f.Tilt, f.Shift, f.Load, f.Flags
		msg.LiftM[i], msg.TiltRad[i], msg.ShiftM[i] = f.LiftM(), f.TiltRad(), f.ShiftM()
	}
}
