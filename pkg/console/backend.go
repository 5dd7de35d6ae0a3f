package console

import (
	"context"
	"net/http"
	"time"
)

// ServosilaJoints are the joint names of a Servosila Engineer in the order
// of every per-joint array of this package: waist, shoulder and elbow and
// neck (the arm, with position telemetry and position control), then
// flippers and gripper (velocity only).
var ServosilaJoints = [NumServosilaJoints]string{"waist", "shoulder", "elbow", "neck", "flippers", "gripper"}

// NumServosilaJoints is the length of ServosilaJoints; the first NumArmJoints
// of them have position control.
const (
	NumServosilaJoints = 6
	NumArmJoints       = 4
)

// Backend is what the console drives. The direct implementation
// (pkg/console/direct) calls the core drivers and simulators in-process;
// a ROS node can implement it over topics and services. Every method may
// be called from several goroutines at once and must return promptly (the
// console calls them from its WebSocket readers and from its deadman
// tick). Values are SI: [m/s], [rad/s], [rad], [m].
//
// The console is the deadman: it calls the Drive* methods again at least
// every few hundred milliseconds while a page holds a command, and with
// zero when the command expires. A backend should still apply its own
// command timeout so that a dead console stops the machines.
type Backend interface {
	// Info describes the machines once, at page load.
	Info() Info
	// Snapshot returns the current state of every machine.
	Snapshot(ctx context.Context) (Snapshot, error)

	// DriveServosila sets the chassis velocity: linear [m/s] forward in
	// base_link, angular [rad/s] counter-clockwise.
	DriveServosila(ctx context.Context, linear, angular float64) error
	// ServosilaJointVelocities sets every joint velocity [rad/s], indexed
	// as ServosilaJoints. A non-zero velocity cancels that joint's target.
	ServosilaJointVelocities(ctx context.Context, v [NumServosilaJoints]float64) error
	// ServosilaTarget starts position control of arm joint j (index in
	// ServosilaJoints, below NumArmJoints) towards angle [rad].
	ServosilaTarget(ctx context.Context, j int, angle float64) error
	// ServosilaCancelTarget ends position control of joint j.
	ServosilaCancelTarget(ctx context.Context, j int) error
	// ServosilaHeadlight switches the headlight.
	ServosilaHeadlight(ctx context.Context, on bool) error

	// DriveFurbot sets the Furbot's Twist: v [m/s] forward, w [rad/s]
	// counter-clockwise.
	DriveFurbot(ctx context.Context, v, w float64) error

	// JogJoint starts a jog joint move (incremental direction or absolute
	// goal, one value per arm joint [rad or m]) at speed override (0, 1].
	JogJoint(ctx context.Context, m JogJointMove) error
	// JogCartesian starts a Cartesian jog move.
	JogCartesian(ctx context.Context, m JogCartesianMove) error
	// JogHeartbeat keeps the running jog move alive.
	JogHeartbeat(ctx context.Context) error
	// JogStop stops the jog move at once.
	JogStop(ctx context.Context) error

	// EStop latches the emergency stop of every machine: every axis to
	// zero at once. ReleaseEStop clears it; nothing moves until a new
	// command arrives.
	EStop(ctx context.Context) error
	ReleaseEStop(ctx context.Context) error

	// ServeCamera streams camera name as MJPEG (multipart/x-mixed-replace)
	// for the request's lifetime; an unknown name gets 404.
	ServeCamera(name string, w http.ResponseWriter, r *http.Request)
}

// Info describes the machines behind a Backend.
type Info struct {
	Servosila bool `json:"servosila"` // a Servosila Engineer is connected
	Furbot    bool `json:"furbot"`    // a Furbot is connected
	// Jog names the jog arm's joints, base to tip; empty without an arm.
	JogJoints []string `json:"jog_joints"`
	// JogLower and JogUpper are the jog arm's joint limits [rad or m].
	JogLower []float64 `json:"jog_lower"`
	JogUpper []float64 `json:"jog_upper"`
	// JogStep is each jog joint's step [rad or m] (drag&bot's
	// joint_limits.step, jog.JointRanges), 0 where none is given: the
	// page's joint targets move by it.
	JogStep []float64 `json:"jog_step"`
	// JogFrames are the frames a Cartesian jog may be relative to.
	JogFrames []string `json:"jog_frames"`
	// Cameras are the camera names, in display order.
	Cameras []string `json:"cameras"`
	// ServosilaMaxLinear [m/s], ServosilaMaxAngular [rad/s] and
	// ServosilaMaxJoint [rad/s] are the driver's hard limits: the
	// console's per-joint maximum velocities may not exceed them.
	ServosilaMaxLinear  float64                     `json:"servosila_max_linear"`
	ServosilaMaxAngular float64                     `json:"servosila_max_angular"`
	ServosilaMaxJoint   [NumServosilaJoints]float64 `json:"servosila_max_joint"`
	// ServosilaLower and ServosilaUpper are the arm joints' position
	// limits [rad] (position targets must lie within them).
	ServosilaLower [NumArmJoints]float64 `json:"servosila_lower"`
	ServosilaUpper [NumArmJoints]float64 `json:"servosila_upper"`
	// ServosilaStartSpeed is the start speed of the robot's tracks [m/s
	// for the linear, rad/s for the angular velocity]: the driver raises
	// or stops a track asked to move below it
	// (servosila.Config.MinStartVelocity, control.ChassisLimits.Apply);
	// the console refuses a twist whose parts are both below it, and
	// scales down one the robot would execute over the operator's maxima.
	// 0: none.
	ServosilaStartSpeed float64 `json:"servosila_start_speed"`
	// ServosilaHalfTrack is the speed of a track per yaw rate [m/s per
	// rad/s] (control.ChassisLimits.HalfTrack): with the start speed, what
	// the console predicts the robot executes per track.
	ServosilaHalfTrack float64 `json:"servosila_half_track"`
	// ServosilaGripperSpeed is the gripper's one speed [rad/s]: the
	// driver opens or closes it by a button, whatever the magnitude
	// asked; the console refuses a smaller non-zero gripper velocity.
	// 0: the gripper executes the velocity asked.
	ServosilaGripperSpeed float64 `json:"servosila_gripper_speed"`
	// EStopInterval is the shortest interval [s] between two e-stops the
	// console passes on while the latch is set (the driver's packet
	// interval at its maximum send rate); 0: 20 ms.
	EStopInterval float64 `json:"estop_interval"`
	// FurbotMaxSpeed [m/s] and FurbotMaxYawRate [rad/s] bound Twist
	// commands to the Furbot.
	FurbotMaxSpeed   float64 `json:"furbot_max_speed"`
	FurbotMaxYawRate float64 `json:"furbot_max_yaw_rate"`
	// Joy: the backend publishes the page's gamepad (JoyBackend); the
	// page sends it (MsgJoy) while a pad drives a machine.
	Joy bool `json:"joy"`
}

// DefaultFurbotMaxYawRate is the page's Furbot yaw-rate bound [rad/s]
// unless configured: the bridge bounds the steering angle, not the yaw
// rate, so the console sets one.
const DefaultFurbotMaxYawRate = 0.8

// JogJointMove is a jog joint move request.
type JogJointMove struct {
	Delta  bool      `json:"delta"`  // incremental: Values is a direction
	Values []float64 `json:"values"` // one per joint [rad or m]
	Speed  float64   `json:"speed"`  // override in (0, 1]
}

// JogPose is a pose: x, y, z [m] and intrinsic ZYX Euler angles rz, ry,
// rx [rad].
type JogPose struct {
	X  float64 `json:"x"`  // [m]
	Y  float64 `json:"y"`  // [m]
	Z  float64 `json:"z"`  // [m]
	RZ float64 `json:"rz"` // about z, applied first [rad]
	RY float64 `json:"ry"` // about the new y [rad]
	RX float64 `json:"rx"` // about the newest x, applied last [rad]
}

// JogCartesianMove is a Cartesian jog move request.
type JogCartesianMove struct {
	Delta bool    `json:"delta"` // incremental: Pose is a direction
	Pose  JogPose `json:"pose"`  // goal or direction in Frame
	Frame string  `json:"frame"` // reference frame; empty: the arm's base
	Speed float64 `json:"speed"` // override in (0, 1]
}

// Snapshot is the state of every machine at one instant. Absent machines
// have nil pointers.
type Snapshot struct {
	Servosila *ServosilaState `json:"servosila,omitempty"` // nil without a Servosila
	Furbot    *FurbotState    `json:"furbot,omitempty"`    // nil without a Furbot
	Jog       *JogState       `json:"jog,omitempty"`       // nil without a jog arm
	Cameras   []CameraState   `json:"cameras,omitempty"`   // one per configured camera, in order
}

// ServosilaState is the driver's view of a Servosila Engineer.
type ServosilaState struct {
	EStopped  bool    `json:"estopped"`  // e-stop latched: asked by the console or reported by the driver
	Headlight bool    `json:"headlight"` // as commanded: the robot reports no headlight state
	Linear    float64 `json:"linear"`    // last chassis velocity sent [m/s]
	Angular   float64 `json:"angular"`   // [rad/s]
	// JointVel are the joint velocities last sent [rad/s].
	JointVel [NumServosilaJoints]float64 `json:"joint_vel"`
	// Joints are the joint positions from telemetry [rad], indexed as
	// ServosilaJoints; JointKnown is false for a joint without a telemetry
	// record (its Joints entry is then 0).
	Joints     [NumServosilaJoints]float64 `json:"joints"`
	JointKnown [NumServosilaJoints]bool    `json:"joint_known"`
	// Targets are the arm joints' position-control states.
	Targets [NumArmJoints]TargetState `json:"targets"`
	// Dropped names channels the gamepad emulation had to drop in the
	// last packet (the protocol's "waist cannot turn while driving").
	Dropped string `json:"dropped"`
	// Pose is the dead-reckoning pose: x, y [m], yaw [rad] in odom.
	X   float64 `json:"x"`
	Y   float64 `json:"y"`   // [m] in odom
	Yaw float64 `json:"yaw"` // [rad] in odom
	// HaveTelemetry is false until the first telemetry packet.
	HaveTelemetry bool          `json:"have_telemetry"`
	TelemetryAge  float64       `json:"telemetry_age"` // [s]
	Tick          uint64        `json:"tick"`          // the robot's packet counter of the latest telemetry
	Motors        []MotorState  `json:"motors"`        // records of the latest telemetry, in packet order
	Link          ServosilaLink `json:"link"`          // counters of the UDP link
}

// TargetState is one arm joint's position control.
type TargetState struct {
	State  string  `json:"state"`  // idle, moving, settling, reached, timed out, no telemetry, cancelled
	Target float64 `json:"target"` // [rad]
}

// MotorState is one motor record of the latest telemetry, raw.
type MotorState struct {
	ID         uint8   `json:"id"`          // vendor device id
	State      uint8   `json:"state"`       // vendor state code
	Mode       uint8   `json:"mode"`        // vendor operation mode code
	Position   uint32  `json:"position"`    // [counts, 65535 per turn]
	Speed      int16   `json:"speed"`       // raw protocol units (scale not documented)
	Current    int16   `json:"current"`     // [A]
	Status     uint16  `json:"status"`      // status bits
	Fault      bool    `json:"fault"`       // a fault is detected now
	FaultCount uint16  `json:"fault_count"` // faults counted by the motor
	Angle      float64 `json:"angle"`       // position as an angle [rad]
}

// ServosilaLink are the link counters.
type ServosilaLink struct {
	Sent      uint64 `json:"sent"`      // remote-control packets sent
	SendErrs  uint64 `json:"send_errs"` // failed writes
	Received  uint64 `json:"received"`  // datagrams received
	Accepted  uint64 `json:"accepted"`  // telemetry packets used
	Foreign   uint64 `json:"foreign"`   // from another address
	Malformed uint64 `json:"malformed"` // wrong length, frame type or motor count
}

// FurbotState is the bridge's view of a Furbot.
type FurbotState struct {
	Ready    bool    `json:"ready"`    // link fresh, every subsystem working
	EStopped bool    `json:"estopped"` // e-stop flag sent
	Speed    float64 `json:"speed"`    // [m/s]
	Steer    float64 `json:"steer"`    // road-wheel angle, positive left [rad]
	Throttle float64 `json:"throttle"` // applied [0, 1]
	Brake    float64 `json:"brake"`    // applied [0, 1]
	Reverse  bool    `json:"reverse"`  // reverse gear engaged
	// Battery: charge [%], voltage [V], current [A], cell temperatures
	// [degC].
	Charge  float64 `json:"charge"`  // [%]
	Voltage float64 `json:"voltage"` // [V]
	// Current [A]: the discharge current, positive while discharging
	// (the graph backend turns sensor_msgs/BatteryState's sign).
	Current float64 `json:"current"`
	TempHi  int     `json:"temp_hi"` // hottest cell [°C]
	TempLo  int     `json:"temp_lo"` // coldest cell [°C]
	// Subsystems are the 12 blocks' names, states and whether they work.
	Subsystems []Subsystem `json:"subsystems"`
	X          float64     `json:"x"`       // odometry [m]
	Y          float64     `json:"y"`       // [m]
	Yaw        float64     `json:"yaw"`     // [rad]
	Age        float64     `json:"age"`     // of the latest status frame [s]
	Frames     uint64      `json:"frames"`  // status frames accepted (graph backend: traction messages received)
	Invalid    uint64      `json:"invalid"` // status frames dropped as invalid (graph backend: always 0)
}

// Subsystem is one Furbot block.
type Subsystem struct {
	Name    string `json:"name"`    // block name (furbot/wire BlockID)
	State   int    `json:"state"`   // raw state byte of the block; 0 when absent
	Present bool   `json:"present"` // in the latest status frame (graph backend: any status received)
	Working bool   `json:"working"` // present and in a working state
}

// JogState is the jog arm.
type JogState struct {
	Mode    string    `json:"mode"`    // idle, joint, cartesian...
	Reason  string    `json:"reason"`  // why the last motion ended
	Joints  []float64 `json:"joints"`  // measured [rad or m]
	Tool    JogPose   `json:"tool"`    // tool pose in the base frame
	Targets uint64    `json:"targets"` // count: targets sent to the arm (graph backend: moves started)
}

// CameraState is one camera's stream.
type CameraState struct {
	Name     string  `json:"name"`      // camera name from the configuration
	Width    int     `json:"width"`     // [px]
	Height   int     `json:"height"`    // [px]
	Format   string  `json:"format"`    // encoding of the frames fed in (a V4L2 format or a ROS image encoding)
	InFPS    float64 `json:"in_fps"`    // frames captured [Hz]
	OutFPS   float64 `json:"out_fps"`   // frames encoded/sent [Hz]
	Viewers  int     `json:"viewers"`   // open MJPEG responses and waiting snapshots now
	BytesSec float64 `json:"bytes_sec"` // [B/s]
	// VideoViewers are the WebRTC pages showing the camera's H.264
	// stream, VideoBitrate its encoder's target [bit/s] and VideoEncoded
	// the access units it made since start (0 without H.264).
	VideoViewers int    `json:"video_viewers"`
	VideoBitrate int    `json:"video_bitrate"`
	VideoEncoded uint64 `json:"video_encoded"`
}

// Clock is the time source of the console's deadman, lease and rate
// limits; tests inject one so that they run in lock step.
type Clock interface {
	Now() time.Time
}

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }
