package graph

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/jog"
	jognode "github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/mjpeg"
	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"
	"github.com/telebridge/telebridge/pkg/video"
)

// Port is what the ROS layer does for the Backend: publish on topics and
// call services, by absolute name (from Names). Every method may be called
// concurrently; service calls must honour ctx.
type Port interface {
	// PublishTwist publishes a geometry_msgs/Twist with linear.x [m/s] and
	// angular.z [rad/s].
	PublishTwist(topic string, linear, angular float64) error
	// PublishJointState publishes a sensor_msgs/JointState with the given
	// names and either positions or velocities (the other is nil).
	PublishJointState(topic string, names []string, position, velocity []float64) error
	// Trigger calls a std_srvs/Trigger service; a response with success
	// false is an error carrying its message.
	Trigger(ctx context.Context, service string) error
	// SetBool calls a std_srvs/SetBool service, likewise.
	SetBool(ctx context.Context, service string, v bool) error
	// StartJointMove and StartCartesianMove call the jog server's
	// services (telebridge_interfaces/srv/StartJointMove and
	// StartCartesianMove), likewise.
	StartJointMove(ctx context.Context, service string, m console.JogJointMove) error
	StartCartesianMove(ctx context.Context, service string, m console.JogCartesianMove) error
	// PublishBool publishes a std_msgs/Bool (twist_mux's lock).
	PublishBool(topic string, v bool) error
	// PublishJoy publishes a sensor_msgs/Joy stamped now, frame "".
	PublishJoy(topic string, j console.Joy) error
}

// Backend implements console.Backend on a ROS 2 graph through a Port.
// Create it with New; feed it the messages the node receives through the
// On* methods (they only copy and never block for long).
type Backend struct {
	cfg   NodeConfig
	names Names
	port  Port
	chain *kinematics.Chain // the jog arm, nil without
	// jogJoints and jogSteps: the arm's joints with jog_server's limits
	// and steps (jog.JointRanges).
	jogJoints []kinematics.Joint
	jogSteps  []float64
	info      console.Info
	// tol is the Servosila driver's position tolerance [rad]: a target
	// within it counts as reached.
	tol float64
	now func() time.Time

	// cameras serve the image topics; set by SetCameras before serving.
	cameras map[string]*mjpeg.Stream
	// video: the cameras' H.264 streams, or noVideo says why there are
	// none; set by SetVideo before serving.
	video   map[string]*video.Family
	noVideo string

	beating atomic.Bool // a heartbeat call is in flight

	mu    sync.Mutex
	srv   servosilaView
	fur   furbotView
	jog   jogView
	camIn map[string]*inRate
	// srvDescription and furDescription are the machines' URDFs from
	// their robot_description.
	srvDescription, furDescription string
	// locked is the console's e-stop as twist_mux's lock (TwistMux).
	locked bool
}

// New checks cfg, loads the jog arm's URDF and returns a Backend that acts
// through port. now is the clock of the state's ages (nil: the wall clock).
func New(cfg NodeConfig, port Port, now func() time.Time) (*Backend, error) {
	names, err := cfg.Names()
	if err != nil {
		return nil, err
	}
	if port == nil {
		return nil, fmt.Errorf("%w: no port", ErrConfig)
	}
	if now == nil {
		now = time.Now
	}
	b := &Backend{cfg: cfg, names: names, port: port, now: now, tol: servosilanode.DefaultConfig().Driver.Arm.Tolerance}
	if cfg.Jog {
		f, err := os.Open(cfg.JogURDF)
		if err != nil {
			return nil, fmt.Errorf("graph: jog_urdf: %w", err)
		}
		defer f.Close()
		if b.chain, err = kinematics.ParseURDF(f, cfg.JogBase, cfg.JogTip); err != nil {
			return nil, fmt.Errorf("graph: jog_urdf %s: %w", cfg.JogURDF, err)
		}
		b.jog.pos = make([]float64, b.chain.DOF())
		b.jog.have = make([]bool, b.chain.DOF())
		p := jog.DefaultParams()
		if cfg.JogParamsFile != "" {
			if p, err = jognode.ParamsFromFile(cfg.JogParamsFile, "/"+jognode.Name); err != nil {
				return nil, fmt.Errorf("graph: jog_params_file: %w", err)
			}
		}
		if b.jogJoints, b.jogSteps, err = jog.JointRanges(b.chain, p); err != nil {
			return nil, fmt.Errorf("graph: jog_params_file %s: %w", cfg.JogParamsFile, err)
		}
	}
	b.info = b.makeInfo()
	return b, nil
}

// Names returns the topic and service names the backend uses.
func (b *Backend) Names() Names { return b.names }

// SetCameras installs the MJPEG stream of each camera (by name, from
// NodeConfig.Cameras), which the node feeds from the image topics. Call it
// before the console serves.
func (b *Backend) SetCameras(s map[string]*mjpeg.Stream) { b.cameras = s }

func (b *Backend) makeInfo() console.Info {
	def := servosilanode.DefaultConfig().Driver
	in := console.Info{Servosila: b.cfg.Servosila, Furbot: b.cfg.Furbot, Cameras: append([]string(nil), b.cfg.Cameras...)}
	if b.cfg.Servosila {
		in.ServosilaMaxLinear, in.ServosilaMaxAngular = def.MaxLinear, def.MaxAngular
		for j := range in.ServosilaMaxJoint {
			in.ServosilaMaxJoint[j] = def.MaxJoint[j]
		}
		for i := range in.ServosilaLower {
			in.ServosilaLower[i], in.ServosilaUpper[i] = def.Arm.Lower[i], def.Arm.Upper[i]
		}
		// Assumed: the driver node runs with its default start speed,
		// calibration and mapping (the console cannot read its parameters).
		console.SetServosilaLimits(&in, def)
	}
	if b.cfg.Furbot {
		in.FurbotMaxSpeed, in.FurbotMaxYawRate = b.cfg.FurbotMaxSpeed, b.cfg.FurbotMaxYawRate
	}
	in.Joy = b.cfg.Joy && (b.cfg.Servosila || b.cfg.Furbot)
	if b.chain != nil {
		in.JogJoints = b.chain.JointNames()
		in.JogStep = b.jogSteps
		for _, j := range b.jogJoints {
			lo, hi := j.Lower, j.Upper
			if math.IsInf(lo, 0) || math.IsInf(hi, 0) { // continuous: JSON has no infinity
				lo, hi = -2*math.Pi, 2*math.Pi
			}
			in.JogLower = append(in.JogLower, lo)
			in.JogUpper = append(in.JogUpper, hi)
		}
		in.JogFrames = b.cfg.JogFrames
		if len(in.JogFrames) == 0 {
			in.JogFrames = []string{b.chain.Base, b.chain.TipName}
		}
	}
	return in
}

// Info describes the machines.
func (b *Backend) Info() console.Info { return b.info }

// ServeCamera serves camera name's MJPEG stream (404 for unknown names).
func (b *Backend) ServeCamera(name string, w http.ResponseWriter, r *http.Request) {
	h, ok := b.cameras[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h.ServeHTTP(w, r)
}

var _ console.Backend = (*Backend)(nil)
