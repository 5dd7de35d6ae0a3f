package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// Params are the physical parameters of the simulated vehicle. Zero fields
// take the defaults of DefaultParams.
type Params struct {
	Wheelbase     float64 // front to rear axle [m], default 2.0
	Track         float64 // rear wheel track [m], default 1.2
	WheelRadius   float64 // rear wheel radius [m], default 0.3
	Mass          float64 // with load [kg], default 1500
	MaxDrive      float64 // traction force at full throttle [N], default 3000
	MaxPower      float64 // traction power limit [W], default 15000
	MaxBrake      float64 // brake force at full brake [N], default 9000
	Rolling       float64 // rolling resistance coefficient [-], default 0.015
	DragArea      float64 // drag coefficient times frontal area [m²], default 1.5
	ThrottleTau   float64 // throttle actuator time constant [s], default 0.15
	BrakeTau      float64 // brake actuator time constant [s], default 0.1
	MaxSteer      float64 // road-wheel angle limit [rad], default 0.6
	SteerRate     float64 // steering actuator rate [rad/s], default 0.8
	BatteryAh     float64 // battery capacity [Ah], default 200
	BatteryV      float64 // nominal pack voltage [V], default 48
	BatteryR      float64 // pack internal resistance [ohm], default 0.02
	AuxPower      float64 // constant auxiliary load [W], default 300
	Efficiency    float64 // battery to wheel efficiency (0, 1], default 0.85
	InitialCharge float64 // state of charge at start (0, 1], default 0.9
	// StartupTime is how long after start every subsystem is running [s],
	// default 1. Subsystem i goes cold -> init at 0.2*StartupTime*i/11 and
	// init -> running at StartupTime*(0.5 + 0.5*i/11).
	StartupTime float64
}

// DefaultParams returns the default parameters (a plausible small electric
// freight vehicle; not measured on a real Furbot).
func DefaultParams() Params {
	return Params{
		Wheelbase: 2.0, Track: 1.2, WheelRadius: 0.3, Mass: 1500,
		MaxDrive: 3000, MaxPower: 15000, MaxBrake: 9000, Rolling: 0.015, DragArea: 1.5,
		ThrottleTau: 0.15, BrakeTau: 0.1, MaxSteer: 0.6, SteerRate: 0.8,
		BatteryAh: 200, BatteryV: 48, BatteryR: 0.02, AuxPower: 300, Efficiency: 0.85,
		InitialCharge: 0.9, StartupTime: 1,
	}
}

// ErrParams is wrapped by the error of a parameter out of range.
var ErrParams = errors.New("furbotsim: invalid parameter")

// withDefaults fills zero fields and validates.
func (p Params) withDefaults() (Params, error) {
	d := DefaultParams()
	fill := func(v *float64, def float64) {
		if *v == 0 {
			*v = def
		}
	}
	fill(&p.Wheelbase, d.Wheelbase)
	fill(&p.Track, d.Track)
	fill(&p.WheelRadius, d.WheelRadius)
	fill(&p.Mass, d.Mass)
	fill(&p.MaxDrive, d.MaxDrive)
	fill(&p.MaxPower, d.MaxPower)
	fill(&p.MaxBrake, d.MaxBrake)
	fill(&p.Rolling, d.Rolling)
	fill(&p.DragArea, d.DragArea)
	fill(&p.ThrottleTau, d.ThrottleTau)
	fill(&p.BrakeTau, d.BrakeTau)
	fill(&p.MaxSteer, d.MaxSteer)
	fill(&p.SteerRate, d.SteerRate)
	fill(&p.BatteryAh, d.BatteryAh)
	fill(&p.BatteryV, d.BatteryV)
	fill(&p.BatteryR, d.BatteryR)
	fill(&p.AuxPower, d.AuxPower)
	fill(&p.Efficiency, d.Efficiency)
	fill(&p.InitialCharge, d.InitialCharge)
	fill(&p.StartupTime, d.StartupTime)
	for name, v := range map[string]float64{
		"Wheelbase": p.Wheelbase, "Track": p.Track, "WheelRadius": p.WheelRadius, "Mass": p.Mass,
		"MaxDrive": p.MaxDrive, "MaxPower": p.MaxPower, "MaxBrake": p.MaxBrake, "ThrottleTau": p.ThrottleTau,
		"BrakeTau": p.BrakeTau, "MaxSteer": p.MaxSteer, "SteerRate": p.SteerRate, "BatteryAh": p.BatteryAh,
		"BatteryV": p.BatteryV, "StartupTime": p.StartupTime,
	} {
		if !(v > 0) || math.IsInf(v, 0) {
			return p, fmt.Errorf("%w: %s = %g, must be positive", ErrParams, name, v)
		}
	}
	if p.Rolling < 0 || p.DragArea < 0 || p.BatteryR < 0 || p.AuxPower < 0 {
		return p, fmt.Errorf("%w: negative resistance or load", ErrParams)
	}
	if p.Efficiency > 1 || p.InitialCharge > 1 || p.MaxSteer >= math.Pi/2 {
		return p, fmt.Errorf("%w: Efficiency and InitialCharge must be <= 1, MaxSteer < pi/2", ErrParams)
	}
	return p, nil
}

// Inputs are what the vehicle is told to do, in SI units.
type Inputs struct {
	Steer    float64 // road-wheel angle to steer to, positive left [rad]
	Throttle float64 // [0, 1]
	Brake    float64 // [0, 1]; wins over throttle
	Reverse  bool    // reverse gear wanted (changes only at standstill)
}

// Truth is the true state of the vehicle, in the odom-like world frame the
// vehicle started in (x forward, y left at start, yaw counter-clockwise).
type Truth struct {
	T        float64 // simulated time since start [s]
	X, Y     float64 // middle of the rear axle [m]
	Yaw      float64 // heading, wrapped to (-pi, pi] [rad]
	V        float64 // speed along x of the vehicle, negative backwards [m/s]
	YawRate  float64 // [rad/s]
	Steer    float64 // road-wheel angle [rad]
	Distance float64 // path length travelled by the rear axle middle [m]
}

// Vehicle is the simulated vehicle. It is not safe for concurrent use; Sim
// owns one in its loop goroutine.
type Vehicle struct {
	p        Params
	truth    Truth
	throttle float64 // actual, after the actuator lag [0, 1]
	brake    float64 // actual [0, 1]
	reverse  bool
	charge   float64 // state of charge [0, 1]
	current  float64 // discharge current [A]
	voltage  float64 // terminal voltage [V]
	odometer float64 // [m]
	fault    [wire.NumBlocks]bool
}

// NewVehicle returns a vehicle at rest at the origin, every subsystem cold.
func NewVehicle(p Params) (*Vehicle, error) {
	p, err := p.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Vehicle{p: p, charge: p.InitialCharge, voltage: p.BatteryV}, nil
}

// Params returns the parameters in use, defaults filled.
func (v *Vehicle) Params() Params { return v.p }

// Truth returns the true state.
func (v *Vehicle) Truth() Truth { return v.truth }

// SetFault forces subsystem id into its fault or halted state (on) or
// lets it follow the start-up sequence again (off).
func (v *Vehicle) SetFault(id wire.BlockID, on bool) {
	if int(id) < wire.NumBlocks {
		v.fault[id] = on
	}
}

const (
	gravity    = 9.81
	airDensity = 1.2  // [kg/m³]
	standstill = 0.05 // below this speed the gear may change [m/s]
	substep    = 0.001
)

// Step advances the vehicle by dt [s] with inputs in. Non-finite inputs
// are treated as zero throttle and full brake.
func (v *Vehicle) Step(dt float64, in Inputs) {
	if !(dt > 0) {
		return
	}
	if !finite(in.Steer) || !finite(in.Throttle) || !finite(in.Brake) {
		in = Inputs{Steer: v.truth.Steer, Brake: 1}
	}
	in.Throttle = clamp(in.Throttle, 0, 1)
	in.Brake = clamp(in.Brake, 0, 1)
	if in.Brake > 0 {
		in.Throttle = 0
	}
	target := clamp(in.Steer, -v.p.MaxSteer, v.p.MaxSteer)
	for left := dt; left > 1e-12; left -= substep {
		h := math.Min(substep, left)
		v.substep(h, in, target)
	}
	v.battery(dt)
}

func (v *Vehicle) substep(h float64, in Inputs, steerTarget float64) {
	p := &v.p
	t := &v.truth
	v.throttle += (in.Throttle - v.throttle) * (1 - math.Exp(-h/p.ThrottleTau))
	v.brake += (in.Brake - v.brake) * (1 - math.Exp(-h/p.BrakeTau))
	t.Steer += clamp(steerTarget-t.Steer, -p.SteerRate*h, p.SteerRate*h)
	if math.Abs(t.V) < standstill && v.reverse != in.Reverse && v.throttle < 0.01 {
		v.reverse = in.Reverse
	}
	dir := 1.0
	if v.reverse {
		dir = -1
	}
	drive := v.throttle * math.Min(p.MaxDrive, p.MaxPower/math.Max(math.Abs(t.V), 0.1)) * dir
	resist := p.Rolling*p.Mass*gravity + 0.5*airDensity*p.DragArea*t.V*t.V + v.brake*p.MaxBrake
	v0 := t.V
	switch {
	case v0 == 0 && math.Abs(drive) <= resist:
		// Static: resistance holds the vehicle.
	case v0 == 0:
		t.V = (drive - math.Copysign(resist, drive)) / p.Mass * h
	default:
		t.V += (drive - math.Copysign(resist, v0)) / p.Mass * h
		if t.V*v0 <= 0 && math.Abs(drive) <= resist {
			t.V = 0 // resistance stops the vehicle, it does not push it back
		}
	}
	// Midpoint integration of the bicycle model on the rear axle.
	vm := 0.5 * (v0 + t.V)
	t.YawRate = vm * math.Tan(t.Steer) / p.Wheelbase
	yawMid := t.Yaw + 0.5*t.YawRate*h
	t.X += vm * math.Cos(yawMid) * h
	t.Y += vm * math.Sin(yawMid) * h
	t.Yaw = wrap(t.Yaw + t.YawRate*h)
	t.Distance += math.Abs(vm) * h
	v.odometer += math.Abs(vm) * h
	t.T += h
}

func (v *Vehicle) battery(dt float64) {
	p := &v.p
	power := v.throttle*math.Min(p.MaxDrive, p.MaxPower/math.Max(math.Abs(v.truth.V), 0.1))*math.Abs(v.truth.V)/p.Efficiency + p.AuxPower
	ocv := p.BatteryV * (0.92 + 0.16*v.charge)
	v.current = power / ocv
	v.voltage = ocv - v.current*p.BatteryR
	v.charge = math.Max(0, v.charge-v.current*dt/(p.BatteryAh*3600))
}

// SubsystemState returns the raw state byte of subsystem id at the current
// simulated time, following the start-up sequence, the fault overrides
// and the block's own state list.
func (v *Vehicle) SubsystemState(id wire.BlockID) uint8 {
	t := v.truth.T
	frac := float64(id) / float64(wire.NumBlocks-1)
	initAt := 0.2 * v.p.StartupTime * frac
	runAt := v.p.StartupTime * (0.5 + 0.5*frac)
	hyd := id == wire.BlockHydraulics
	fork := id >= wire.BlockRearFork
	switch {
	case v.fault[id] && hyd:
		return wire.HydFault
	case v.fault[id] && fork:
		return wire.ForkFault
	case v.fault[id]:
		return wire.StateHalted
	case t >= runAt && hyd:
		return wire.HydReady
	case t >= runAt && fork:
		return wire.ForkReady
	case t >= runAt:
		return wire.StateRunning
	case t >= initAt:
		return wire.StateInit // same value as HydPriming and ForkHoming
	default:
		return wire.StateCold
	}
}

// Link is what the vehicle reports about its control link in a status
// frame: the communication block's counters and flags, the motion control
// flags, the last applied control sequence number and the steering target.
type Link struct {
	Comm        wire.Comm // State is filled by Status
	MotionFlags uint8     // wire.MotionEnabled, MotionEStop, MotionWatchdog
	LastSeq     uint32    // seq of the last control frame applied
	SteerTarget float64   // steering target being applied [rad]
}

// Status fills s with a status frame of the vehicle (every block present)
// stamped ts [ms].
func (v *Vehicle) Status(s *wire.Status, ts uint32, link Link) {
	p := &v.p
	t := &v.truth
	*s = wire.Status{Timestamp: ts, Present: wire.AllBlocks}
	st := v.SubsystemState
	s.Comm = link.Comm
	s.Comm.State = st(wire.BlockComm)
	s.BMS = wire.BMS{
		State:   st(wire.BlockBMS),
		Charge:  uint8(math.Round(v.charge * 100)),
		Current: sat16u(v.current / wire.CurrentScale),
		Voltage: sat16u(v.voltage / wire.VoltageScale),
		TempHi:  int8(28 + math.Min(v.current/50, 20)),
		TempLo:  24,
	}
	s.Motion = wire.Motion{State: st(wire.BlockMotion), Mode: wire.TractRemote, Flags: link.MotionFlags, LastSeq: link.LastSeq}
	half := t.YawRate * p.Track / 2
	var rev uint8
	if v.reverse {
		rev = 1
	}
	s.Traction = wire.Traction{
		State:    st(wire.BlockTraction),
		Mode:     wire.TractRemote,
		Speed:    sat16(t.V / wire.SpeedScale),
		Left:     sat16((t.V - half) / p.WheelRadius / wire.WheelScale),
		Right:    sat16((t.V + half) / p.WheelRadius / wire.WheelScale),
		Throttle: int16(math.Round(v.throttle / wire.PedalScale)),
		Brake:    int16(math.Round(v.brake / wire.PedalScale)),
		Reverse:  rev,
		Odometer: int32(int64(math.Floor(v.odometer/wire.OdometerScale)) & 0x7fffffff),
	}
	s.Steering = wire.Steering{
		State:  st(wire.BlockSteering),
		Angle:  sat16(t.Steer / wire.AngleScale),
		Target: sat16(clamp(link.SteerTarget, -p.MaxSteer, p.MaxSteer) / wire.AngleScale),
	}
	s.Hydraulics = wire.Hydraulics{State: st(wire.BlockHydraulics), Pump: 1, Pressure: 1500, OilTemp: 40, OilLevel: 88}
	for i := range s.Suspension {
		s.Suspension[i] = wire.Suspension{State: st(wire.BlockSuspRL + wire.BlockID(i)), Pressure: 400}
	}
	for i := range s.Forks {
		s.Forks[i] = wire.Fork{State: st(wire.BlockRearFork + wire.BlockID(i))}
	}
}

// Charge returns the battery state of charge [0, 1].
func (v *Vehicle) Charge() float64 { return v.charge }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

func wrap(a float64) float64 {
	a = math.Mod(a+math.Pi, 2*math.Pi)
	if a <= 0 {
		a += 2 * math.Pi
	}
	return a - math.Pi
}

func sat16(x float64) int16 { return int16(clamp(math.Round(x), math.MinInt16, math.MaxInt16)) }

func sat16u(x float64) uint16 { return uint16(clamp(math.Round(x), 0, math.MaxUint16)) }
