package node

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/qos"
)

// DescriptionFile is the file name of the vehicle's URDF description, in
// the repository's launch/urdf/ and installed to share/telebridge/urdf/.
// Its moving joints are JointNames.
const DescriptionFile = "furbot.urdf"

// TopicJointStates is where furbot_odometry publishes the wheel and
// steering joints (sensor_msgs/JointState), with every odom.
const TopicJointStates = "joint_states"

// QoSJointStates is reliable, as robot_state_publisher subscribes.
var QoSJointStates = qos.Default

// The moving joints of the Furbot description, in the order of
// JointStates.Position.
const (
	JointRearLeftWheel   = "rear_left_wheel_joint"      // continuous, from TractionData's left wheel speed [rad]
	JointRearRightWheel  = "rear_right_wheel_joint"     // continuous, from the right wheel speed [rad]
	JointFrontLeftSteer  = "front_left_steering_joint"  // revolute about z, positive left [rad]
	JointFrontRightSteer = "front_right_steering_joint" // revolute about z, positive left [rad]
	JointFrontLeftWheel  = "front_left_wheel_joint"     // continuous, rolling with the vehicle [rad]
	JointFrontRightWheel = "front_right_wheel_joint"    // continuous, rolling with the vehicle [rad]
)

// JointNames lists the moving joints of the description in the order of
// JointStates.Position.
var JointNames = [...]string{
	JointRearLeftWheel, JointRearRightWheel,
	JointFrontLeftSteer, JointFrontRightSteer,
	JointFrontLeftWheel, JointFrontRightWheel,
}

// JointStates is the core of furbot_odometry's joint_states: the rear
// wheel angles integrated from TractionData's wheel speeds, the front
// steering joints from SteeringData's angle (AckermannAngles, the measured
// angle taken as the bicycle angle), and the front wheel angles integrated
// from the vehicle speed (the mean rear wheel speed times the wheel
// radius) scaled by each front wheel's distance from the turning centre.
// Like OdomTracker it runs on the vehicle's clock: samples the bridge
// repeats are integrated once, and across a gap longer than MaxGap the
// wheels hold their angles. The front track and front wheel radius are
// taken equal to the rear ones (the description assumes the same).
//
// Name and Position are the message content, reused for every sample
// (Position in the order of JointNames; wheel angles wrapped to
// [-pi, pi]). It is not safe for concurrent use: the node serialises its
// callbacks.
type JointStates struct {
	Name     []string
	Position []float64

	cfg       control.OdometryConfig
	clock     furbot.VehicleClock
	ms        uint64     // vehicle time of the previous sample [ms]
	rates     [4]float64 // wheel rates of the previous sample: RL, RR, FL, FR [rad/s]
	angles    [4]float64 // integrated wheel angles, wrapped to [-pi, pi] [rad]
	steer     float64    // latest steering angle [rad]
	haveSteer bool
	have      bool
}

// NewJointStates validates cfg (the odometry node's geometry: Track,
// WheelRadius, Wheelbase; defaults filled as for control.NewOdometer) and starts
// with every angle at zero.
func NewJointStates(cfg control.OdometryConfig) (*JointStates, error) {
	if err := control.ApplyParams(control.OdometryBindings, &cfg); err != nil {
		return nil, fmt.Errorf("furbot: joint states: %w", err)
	}
	js := &JointStates{cfg: cfg, clock: furbot.NewVehicleClock(cfg.MaxGap)}
	js.Name = append(make([]string, 0, len(JointNames)), JointNames[:]...)
	js.Position = make([]float64, len(JointNames))
	return js, nil
}

// Steering stores the latest steering block (SteeringData); the steering
// joints follow it from the next traction sample on.
func (js *JointStates) Steering(s wire.Steering) {
	js.steer, js.haveSteer = s.AngleRad(), true
}

// Traction integrates one traction sample taken at vehicleMs (the status
// frame's timestamp [ms]) and updates Position. It reports whether there is
// something new to publish: false for a sample that is not newer than the
// latest, and before the first steering sample (the steering joints would
// be a guess). It does not allocate.
func (js *JointStates) Traction(tr wire.Traction, vehicleMs uint32) bool {
	ms, v := js.clock.Next(vehicleMs)
	if v.Old {
		return false
	}
	l, r := tr.WheelRates()
	speed := (l + r) / 2 * js.cfg.WheelRadius
	half := js.cfg.Track / 2
	fl := speed * control.FrontSpeedRatio(js.steer, js.cfg.Wheelbase, half) / js.cfg.WheelRadius
	fr := speed * control.FrontSpeedRatio(js.steer, js.cfg.Wheelbase, -half) / js.cfg.WheelRadius
	now := [4]float64{l, r, fl, fr}
	if js.have && !v.Gap && !v.Resync {
		// Trapezoidal rule on the vehicle clock, as the odometry.
		dt := float64(ms-js.ms) / 1000
		for i := range js.angles {
			js.angles[i] = math.Remainder(js.angles[i]+(js.rates[i]+now[i])/2*dt, 2*math.Pi)
		}
	}
	js.ms, js.rates, js.have = ms, now, true
	if !js.haveSteer {
		return false
	}
	sl, sr := control.AckermannAngles(js.steer, js.cfg.Wheelbase, js.cfg.Track)
	js.Position[0], js.Position[1] = js.angles[0], js.angles[1]
	js.Position[2], js.Position[3] = sl, sr
	js.Position[4], js.Position[5] = js.angles[2], js.angles[3]
	return true
}
