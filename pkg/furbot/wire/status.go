package wire

// BlockID identifies a subsystem block in a status frame.
type BlockID uint8

// The subsystem blocks of a status frame, in id order.
const (
	BlockComm        BlockID = 0  // communication module
	BlockBMS         BlockID = 1  // battery management system
	BlockMotion      BlockID = 2  // motion control unit
	BlockTraction    BlockID = 3  // traction drive
	BlockSteering    BlockID = 4  // steering actuator
	BlockHydraulics  BlockID = 5  // hydraulic power unit
	BlockSuspRL      BlockID = 6  // suspension, rear left
	BlockSuspRR      BlockID = 7  // suspension, rear right
	BlockSuspFL      BlockID = 8  // suspension, front left
	BlockSuspFR      BlockID = 9  // suspension, front right
	BlockRearFork    BlockID = 10 // rear fork
	BlockFrontFork   BlockID = 11 // front fork
	NumBlocks                = 12 // number of known blocks
	AllBlocks        uint16  = 1<<NumBlocks - 1
	statusHeaderSize         = 12
)

// blockNames are the short names used in JSON, the layout table and the
// documentation.
var blockNames = [NumBlocks]string{
	"comm", "bms", "motion", "traction", "steering", "hydraulics",
	"suspension_rl", "suspension_rr", "suspension_fl", "suspension_fr",
	"rear_fork", "front_fork",
}

// blockLen is the data length of each known block [bytes].
var blockLen = [NumBlocks]uint8{6, 8, 7, 17, 5, 8, 7, 7, 7, 7, 11, 11}

// String returns the block's short name, or "block<N>" for an unknown id.
func (id BlockID) String() string {
	if int(id) < NumBlocks {
		return blockNames[id]
	}
	return "block" + itoa(int(id))
}

// Len returns the data length of a known block [bytes], or 0 for an
// unknown id.
func (id BlockID) Len() int {
	if int(id) < NumBlocks {
		return int(blockLen[id])
	}
	return 0
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [8]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// State values of the common state list, used by the communication, BMS,
// motion control, traction, steering and suspension blocks.
const (
	StateCold    = 0
	StateInit    = 1
	StateRunning = 2
	StateHalted  = 3
)

// State values of the hydraulics block (its own list; assumed).
const (
	HydOff      = 0
	HydPriming  = 1
	HydReady    = 2
	HydFault    = 3
	ForkCold    = 0 // fork state list (its own list; assumed)
	ForkHoming  = 1
	ForkReady   = 2
	ForkMoving  = 3
	ForkFault   = 4
	TractManual = 0 // traction and motion mode: driven from the pedals
	TractRemote = 1 // traction and motion mode: driven by control frames
)

// Flag bits of the communication block (assumed).
const (
	CommLinkUp = 1 << 0 // control frames arrive within the vehicle's watchdog
)

// Flag bits of the motion control block (assumed).
const (
	MotionEnabled  = 1 << 0 // control frames are applied
	MotionEStop    = 1 << 1 // emergency stop latched
	MotionWatchdog = 1 << 2 // control watchdog expired: brake applied
)

// Comm is the communication module block (id 0, 6 bytes; all fields
// assumed).
type Comm struct {
	State    uint8  `json:"state"`     // common state list
	Flags    uint8  `json:"flags"`     // CommLinkUp
	RxFrames uint16 `json:"rx_frames"` // valid control frames received, wraps
	Rejected uint16 `json:"rejected"`  // invalid control frames, wraps
}

// BMS is the battery management block (id 1, 8 bytes; fields known, scales
// assumed).
type BMS struct {
	State   uint8  `json:"state"`     // common state list
	Charge  uint8  `json:"charge"`    // state of charge [%]
	Current uint16 `json:"current"`   // discharge current [0.1 A]
	Voltage uint16 `json:"voltage"`   // pack voltage [0.01 V]
	TempHi  int8   `json:"temp_high"` // hottest cell [degC]
	TempLo  int8   `json:"temp_low"`  // coldest cell [degC]
}

// Motion is the motion control block (id 2, 7 bytes; length known, fields
// assumed).
type Motion struct {
	State   uint8  `json:"state"`    // common state list
	Mode    uint8  `json:"mode"`     // TractManual or TractRemote
	Flags   uint8  `json:"flags"`    // MotionEnabled, MotionEStop, MotionWatchdog
	LastSeq uint32 `json:"last_seq"` // sequence number of the last applied control frame
}

// Traction is the traction drive block (id 3, 17 bytes; fields known,
// scales assumed).
type Traction struct {
	State    uint8 `json:"state"`       // common state list
	Mode     uint8 `json:"mode"`        // TractManual or TractRemote
	Speed    int16 `json:"speed"`       // vehicle speed, negative backwards [mm/s]
	Left     int16 `json:"wheel_left"`  // rear left wheel [0.01 rad/s]
	Right    int16 `json:"wheel_right"` // rear right wheel [0.01 rad/s]
	Throttle int16 `json:"throttle"`    // applied throttle [0.1 %]
	Brake    int16 `json:"brake"`       // applied brake [0.1 %]
	Reverse  uint8 `json:"reverse"`     // 1 when the reverse gear is engaged
	Odometer int32 `json:"odometer"`    // distance travelled, wraps [cm]
}

// Steering is the steering actuator block (id 4, 5 bytes; fields known,
// scale and sign assumed).
type Steering struct {
	State  uint8 `json:"state"`  // common state list
	Angle  int16 `json:"angle"`  // current road-wheel angle, positive left [0.01 deg]
	Target int16 `json:"target"` // angle being steered to [0.01 deg]
}

// Hydraulics is the hydraulic power unit block (id 5, 8 bytes; length
// known, fields assumed).
type Hydraulics struct {
	State    uint8  `json:"state"`     // HydOff, HydPriming, HydReady, HydFault
	Pump     uint8  `json:"pump"`      // 1 when the pump runs
	Pressure uint16 `json:"pressure"`  // supply pressure [0.1 bar]
	OilTemp  int8   `json:"oil_temp"`  // [degC]
	OilLevel uint8  `json:"oil_level"` // [%]
	Valves   uint16 `json:"valves"`    // open valves, one bit each
}

// Suspension is one suspension unit block (ids 6-9, 7 bytes; length known,
// fields assumed).
type Suspension struct {
	State    uint8  `json:"state"`    // common state list
	Height   int16  `json:"height"`   // ride height from nominal, up positive [mm]
	Target   int16  `json:"target"`   // requested ride height [mm]
	Pressure uint16 `json:"pressure"` // strut pressure [0.1 bar]
}

// Fork is a fork block (ids 10 rear, 11 front, 11 bytes; length known,
// fields assumed).
type Fork struct {
	State uint8  `json:"state"` // ForkCold ... ForkFault
	Lift  uint16 `json:"lift"`  // height above the lowest position [mm]
	Tilt  int16  `json:"tilt"`  // tilt, tip up positive [0.01 deg]
	Shift int16  `json:"shift"` // side shift, left positive [mm]
	Load  uint16 `json:"load"`  // load on the forks [kg]
	Flags uint16 `json:"flags"` // bit 0 pallet present, bit 1 locked
}

// Status is one decoded status frame. It is a plain value (no pointers),
// so it can be copied into a mailbox. Only the blocks whose bit is set in
// Present were in the frame; the others are zero.
type Status struct {
	Timestamp  uint32        `json:"timestamp"`  // vehicle clock [ms], wraps
	Present    uint16        `json:"present"`    // bit i set: block i was in the frame
	Unknown    uint8         `json:"unknown"`    // unknown blocks skipped
	Comm       Comm          `json:"comm"`       // block BlockComm
	BMS        BMS           `json:"bms"`        // block BlockBMS
	Motion     Motion        `json:"motion"`     // block BlockMotion
	Traction   Traction      `json:"traction"`   // block BlockTraction
	Steering   Steering      `json:"steering"`   // block BlockSteering
	Hydraulics Hydraulics    `json:"hydraulics"` // block BlockHydraulics
	Suspension [4]Suspension `json:"suspension"` // RL, RR, FL, FR
	Forks      [2]Fork       `json:"forks"`      // rear, front
}

// Has reports whether block id was present in the frame.
func (s *Status) Has(id BlockID) bool {
	return int(id) < NumBlocks && s.Present&(1<<id) != 0
}

// BlockState returns the raw state byte of block id and whether the block
// was present.
func (s *Status) BlockState(id BlockID) (uint8, bool) {
	if !s.Has(id) {
		return 0, false
	}
	switch {
	case id == BlockComm:
		return s.Comm.State, true
	case id == BlockBMS:
		return s.BMS.State, true
	case id == BlockMotion:
		return s.Motion.State, true
	case id == BlockTraction:
		return s.Traction.State, true
	case id == BlockSteering:
		return s.Steering.State, true
	case id == BlockHydraulics:
		return s.Hydraulics.State, true
	case id <= BlockSuspFR:
		return s.Suspension[id-BlockSuspRL].State, true
	default:
		return s.Forks[id-BlockRearFork].State, true
	}
}

// Working reports whether block id is present and in a working state:
// running for the common list, ready for hydraulics, ready or moving for a
// fork.
func (s *Status) Working(id BlockID) bool {
	st, ok := s.BlockState(id)
	if !ok {
		return false
	}
	switch {
	case id == BlockHydraulics:
		return st == HydReady
	case id >= BlockRearFork:
		return st == ForkReady || st == ForkMoving
	default:
		return st == StateRunning
	}
}

// WorkingMask returns a bit per known block that is present and working.
func (s *Status) WorkingMask() uint16 {
	var m uint16
	for id := BlockID(0); id < NumBlocks; id++ {
		if s.Working(id) {
			m |= 1 << id
		}
	}
	return m
}

// AllWorking reports whether every one of the 12 subsystems is present and
// working: the condition for the bridge to start publishing.
func (s *Status) AllWorking() bool { return s.WorkingMask() == AllBlocks }

// SpeedMPS returns the traction speed [m/s], negative backwards.
func (t Traction) SpeedMPS() float64 { return float64(t.Speed) * SpeedScale }

// WheelRates returns the rear left and right wheel angular speeds [rad/s].
func (t Traction) WheelRates() (left, right float64) {
	return float64(t.Left) * WheelScale, float64(t.Right) * WheelScale
}

// AngleRad returns the current road-wheel steering angle [rad], positive
// left.
func (s Steering) AngleRad() float64 { return float64(s.Angle) * AngleScale }

// Merge copies into s the blocks present in n and n's timestamp, keeping
// the blocks n lacks: s becomes the latest known state of every subsystem.
func (s *Status) Merge(n *Status) {
	s.Timestamp = n.Timestamp
	s.Unknown = n.Unknown
	for id := BlockID(0); id < NumBlocks; id++ {
		if !n.Has(id) {
			continue
		}
		s.Present |= 1 << id
		switch {
		case id == BlockComm:
			s.Comm = n.Comm
		case id == BlockBMS:
			s.BMS = n.BMS
		case id == BlockMotion:
			s.Motion = n.Motion
		case id == BlockTraction:
			s.Traction = n.Traction
		case id == BlockSteering:
			s.Steering = n.Steering
		case id == BlockHydraulics:
			s.Hydraulics = n.Hydraulics
		case id <= BlockSuspFR:
			s.Suspension[id-BlockSuspRL] = n.Suspension[id-BlockSuspRL]
		default:
			s.Forks[id-BlockRearFork] = n.Forks[id-BlockRearFork]
		}
	}
}

// VoltageV returns the pack voltage [V].
func (b BMS) VoltageV() float64 { return float64(b.Voltage) * VoltageScale }

// CurrentA returns the discharge current [A] (sensor_msgs/BatteryState
// wants it negative while discharging: use -CurrentA()).
func (b BMS) CurrentA() float64 { return float64(b.Current) * CurrentScale }

// Percentage returns the state of charge as a fraction [0, 1], as
// sensor_msgs/BatteryState wants it.
func (b BMS) Percentage() float64 { return float64(b.Charge) / 100 }
