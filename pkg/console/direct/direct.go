package direct

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/telebridge/telebridge/launch/urdf"
	"github.com/telebridge/telebridge/pkg/armsim"
	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/furbot"
	furbotsim "github.com/telebridge/telebridge/pkg/furbot/sim"
	"github.com/telebridge/telebridge/pkg/jog"
	jognode "github.com/telebridge/telebridge/pkg/jog/node"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/mjpeg"
	"github.com/telebridge/telebridge/pkg/render"
	"github.com/telebridge/telebridge/pkg/servosila"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	"github.com/telebridge/telebridge/pkg/trainworld"
	"github.com/telebridge/telebridge/pkg/video"
)

// armURDF is the jog arm of the demo: the UR5-sized six-joint arm of
// launch/urdf/ur5_like.urdf.
var armURDF = urdf.UR5Like

// Config configures a Backend. Zero fields take the stated defaults.
type Config struct {
	// Servosila is the robot's UDP address ("10.42.0.1:10000"); empty
	// runs the embedded simulator; "off" connects none.
	Servosila string
	// Furbot is the vehicle's control address; empty runs the embedded
	// simulator; "off" connects none.
	Furbot string
	// FurbotListen is the local UDP address status frames arrive on with
	// a real vehicle. Default ":18003".
	FurbotListen string
	// NoJog leaves out the jog arm (always simulated: a jog controller
	// driving pkg/armsim).
	NoJog bool
	// JogParamsFile is a jog_server parameters file (ROS 2 YAML, node
	// /jog_server) for the jog arm's controller: drag&bot's parameters,
	// joint_limits with their steps included, except the frames (the
	// embedded arm's) and heartbeat_timeout (the console's). Empty: the
	// defaults.
	JogParamsFile string
	// Cameras are camera devices: V4L2 device paths or "pattern:NAME"
	// test sources. Default four pattern cameras (front, rear, arm,
	// gripper). "off" as the only entry: none.
	Cameras []string
	// CameraWidth, CameraHeight [px] and CameraRate [Hz] are requested
	// from every camera (and are the most its H.264 is sent at). Defaults
	// DefaultCameraWidth x DefaultCameraHeight at DefaultCameraRate;
	// sizes even within video.MinSize..video.MaxSize, rates within
	// camera.MinFrameRate..camera.MaxFrameRate.
	CameraWidth, CameraHeight int
	CameraRate                float64
	// Stream configures the JPEG encoding of the camera streams (rate,
	// quality, downscaling); zero fields take pkg/mjpeg's defaults (10 Hz,
	// quality 75, native size).
	Stream mjpeg.Config
	// PatternGrain is the amplitude of random noise added to the luma of
	// pattern cameras' pictures, new in every picture [levels of 255],
	// 0 (the default, none) to 127. The pattern alone costs the encoder a few
	// hundred kbit/s; with grain it needs bits as a real scene does, so
	// the video fills whatever the link's estimate allows (the
	// impaired-link run).
	PatternGrain int
	// ServosilaTelemetry is the embedded simulator's telemetry rate [Hz]
	// (the robot sends 1 Hz). Default 10.
	ServosilaTelemetry float64
	// World is a training world (a shipped world's name, e.g. "course",
	// or an SDF path): the embedded Servosila simulator drives the
	// physics crawler in it, and the default cameras are rendered from
	// it ("world:NAME", see WorldCameras). Where it cannot run, one line
	// is logged and the kinematic simulator and pattern cameras run
	// (WorldStatus). Empty: no world.
	World string
	// Logf logs the few lines the backend says (a world falling back).
	// Default log.Printf.
	Logf func(format string, args ...any)
}

// The cameras' defaults: what `telebridge console` ships with.
const (
	DefaultCameraWidth  = 640  // [px]
	DefaultCameraHeight = 480  // [px]
	DefaultCameraRate   = 15.0 // [Hz]
)

// Backend drives the core packages in-process: the Servosila driver, the
// Furbot bridge, a jog controller with its simulated arm, and cameras,
// with the embedded simulators where no real machine is given. Create it
// with Start; Close stops the machines (zeros out), then the simulators.
type Backend struct {
	cfg     Config
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	errMu   sync.Mutex
	errs    []error
	simStop context.CancelFunc // simulators outlive the drivers: they see the zeros
	simWG   sync.WaitGroup
	drv     *servosila.Driver
	sSim    *servosilasim.Sim
	bridge  *furbot.Bridge
	fSim    *furbotsim.Sim
	fEStop  bool
	fMu     sync.Mutex
	ctrl    *jog.Controller
	runner  *jog.Runner
	arm     *armsim.Arm
	chain   *kinematics.Chain
	cams    []*cam
	noVideo string // why the cameras have no H.264 stream ("" when they have)
	info    console.Info
	// the training world (world.go)
	world     *trainworld.World
	renderer  *render.Renderer
	worldCams []*trainworld.Camera
	worldNote string
	mu        sync.Mutex
	headOn    bool
	q         []float64
}

var _ console.Backend = (*Backend)(nil)

// Start starts every configured machine (and simulator) and returns once
// they run. Ctx bounds the start-up only; Close ends everything.
func Start(ctx context.Context, cfg Config) (*Backend, error) {
	if cfg.ServosilaTelemetry == 0 {
		cfg.ServosilaTelemetry = 10
	}
	if cfg.Logf == nil {
		cfg.Logf = defaultLogf
	}
	if len(cfg.Cameras) == 1 && cfg.Cameras[0] == "off" {
		cfg.Cameras = []string{}
	}
	if cfg.CameraWidth == 0 && cfg.CameraHeight == 0 {
		cfg.CameraWidth, cfg.CameraHeight = DefaultCameraWidth, DefaultCameraHeight
	}
	if cfg.CameraRate == 0 {
		cfg.CameraRate = DefaultCameraRate
	}
	if err := CheckCameraMode(cfg.CameraWidth, cfg.CameraHeight, cfg.CameraRate); err != nil {
		return nil, err
	}
	if cfg.PatternGrain < 0 || cfg.PatternGrain > maxGrain {
		return nil, fmt.Errorf("direct: PatternGrain %d outside [0, %d]", cfg.PatternGrain, maxGrain)
	}
	runCtx, cancel := context.WithCancel(context.Background())
	simCtx, simStop := context.WithCancel(context.Background())
	b := &Backend{cfg: cfg, cancel: cancel, simStop: simStop}
	fail := func(err error) (*Backend, error) {
		return nil, errors.Join(err, b.Close())
	}
	if cfg.World != "" && cfg.Servosila == "" {
		b.startWorld(simCtx)
	}
	if b.cfg.Cameras == nil {
		b.cfg.Cameras = []string{"pattern:front", "pattern:rear", "pattern:arm", "pattern:gripper"}
	}
	if cfg.Servosila != "off" {
		if err := b.startServosila(runCtx, simCtx); err != nil {
			return fail(err)
		}
	}
	if cfg.Furbot != "off" {
		if err := b.startFurbot(ctx, runCtx, simCtx); err != nil {
			return fail(err)
		}
	}
	if !cfg.NoJog {
		if err := b.startJog(runCtx); err != nil {
			return fail(err)
		}
	}
	for i, dev := range b.cfg.Cameras {
		if err := b.startCamera(runCtx, i, dev); err != nil {
			return fail(err)
		}
	}
	b.fillInfo()
	return b, nil
}

func (b *Backend) goRun(name string, wg *sync.WaitGroup, f func() error) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := f(); err != nil && !errors.Is(err, context.Canceled) {
			b.errMu.Lock()
			b.errs = append(b.errs, fmt.Errorf("%s: %w", name, err))
			b.errMu.Unlock()
		}
	}()
}

func (b *Backend) startServosila(runCtx, simCtx context.Context) error {
	cfg := servosila.Config{Robot: b.cfg.Servosila}
	if cfg.Robot == "" {
		sc := servosilasim.Config{TelemetryRate: b.cfg.ServosilaTelemetry}
		if b.world != nil {
			sc.Plant = &trainworld.Plant{W: b.world}
		}
		sim, err := servosilasim.New(sc)
		if err != nil {
			return fmt.Errorf("servosila simulator: %w", err)
		}
		b.sSim = sim
		b.goRun("servosila simulator", &b.simWG, func() error { return sim.Run(simCtx) })
		cfg.Robot, cfg.Local = sim.Addr().String(), "127.0.0.1:0"
	}
	drv, err := servosila.New(cfg)
	if err != nil {
		return fmt.Errorf("servosila: %w", err)
	}
	b.drv = drv
	b.goRun("servosila driver", &b.wg, func() error { return drv.Run(runCtx) })
	return nil
}

func (b *Backend) startFurbot(ctx, runCtx, simCtx context.Context) error {
	cfg := furbot.BridgeConfig{Listen: b.cfg.FurbotListen}
	if b.cfg.Furbot == "" {
		sim, err := furbotsim.New(furbotsim.Config{Params: furbotsim.Params{StartupTime: 0.5}})
		if err != nil {
			return fmt.Errorf("furbot simulator: %w", err)
		}
		b.fSim = sim
		b.goRun("furbot simulator", &b.simWG, func() error { return sim.Run(simCtx) })
		cfg.Vehicle = sim.Addr()
		if cfg.Listen == "" {
			cfg.Listen = "127.0.0.1:0"
		}
	} else {
		ap, err := netip.ParseAddrPort(b.cfg.Furbot)
		if err != nil {
			return fmt.Errorf("furbot address: %w", err)
		}
		cfg.Vehicle = ap
	}
	br, err := furbot.NewBridge(cfg)
	if err != nil {
		return fmt.Errorf("furbot: %w", err)
	}
	b.bridge = br
	b.goRun("furbot bridge", &b.wg, func() error { return br.Run(runCtx) })
	if b.fSim == nil {
		return nil // a real vehicle reports when it is ready
	}
	// The simulator is ready within its start-up time.
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := br.WaitStarted(wctx); err != nil {
		return fmt.Errorf("furbot simulator: %w", err)
	}
	return nil
}

func (b *Backend) startJog(runCtx context.Context) error {
	chain, err := kinematics.ParseURDFString(armURDF, "", "")
	if err != nil {
		return fmt.Errorf("jog arm: %w", err)
	}
	p := jog.DefaultParams()
	if b.cfg.JogParamsFile != "" {
		if p, err = jognode.ParamsFromFile(b.cfg.JogParamsFile, "/"+jognode.Name); err != nil {
			return fmt.Errorf("jog arm: %w", err)
		}
	}
	// The embedded arm's frames and the console's deadman win over a file.
	p.RobotData.FixedFrame, p.RobotData.FlangeFrame = chain.Base, chain.TipName
	// The console is the deadman (300 ms); the controller's own heartbeat
	// timeout is the backstop for a console that died, a little longer so
	// that a page's late re-send is judged by the console alone.
	p.HeartbeatTimeout = JogHeartbeatTimeout.Seconds()
	ctrl, err := jog.New(jog.Config{Chain: chain, Params: &p, Relative: true}) // the simulated arm takes relative commands too
	if err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	acfg := armsim.FromChain(chain, 0.5)
	acfg.Initial = make([]float64, chain.DOF())
	lo, hi := ctrl.Limits() // joint_limits included
	for i, j := range ctrl.Chain().Joints {
		if j.Type != kinematics.Continuous {
			acfg.Initial[i] = (lo[i] + hi[i]) / 2
		}
	}
	// A bent arm, away from the straight-arm singularity, so that
	// Cartesian jogs work from the start (within the limits).
	if len(acfg.Initial) >= 3 {
		acfg.Initial[1], acfg.Initial[2] = -1.0, 1.2
	}
	for i := range acfg.Initial {
		acfg.Initial[i] = min(max(acfg.Initial[i], lo[i]), hi[i])
	}
	arm, err := armsim.New(acfg)
	if err != nil {
		return fmt.Errorf("jog arm: %w", err)
	}
	run, err := jog.NewRunner(ctrl, arm, arm)
	if err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	b.chain, b.ctrl, b.arm, b.runner = chain, ctrl, arm, run
	b.q = make([]float64, chain.DOF())
	b.goRun("jog arm", &b.wg, func() error { return arm.Run(runCtx, 10*time.Millisecond) })
	b.goRun("jog", &b.wg, func() error { return run.Run(runCtx) })
	return nil
}

func (b *Backend) fillInfo() {
	in := console.Info{Servosila: b.drv != nil, Furbot: b.bridge != nil}
	if b.drv != nil {
		c := b.drv.Config()
		in.ServosilaMaxLinear, in.ServosilaMaxAngular, in.ServosilaMaxJoint = c.MaxLinear, c.MaxAngular, c.MaxJoint
		for j := range console.NumArmJoints {
			in.ServosilaLower[j], in.ServosilaUpper[j] = c.Arm.Lower[j], c.Arm.Upper[j]
		}
		console.SetServosilaLimits(&in, c)
	}
	if b.bridge != nil {
		c := b.bridge.Config()
		in.FurbotMaxSpeed = c.Controller.MaxSpeed
		if in.FurbotMaxSpeed == 0 {
			in.FurbotMaxSpeed = 5
		}
		in.FurbotMaxYawRate = console.DefaultFurbotMaxYawRate
	}
	if b.chain != nil {
		in.JogJoints = b.chain.JointNames()
		in.JogStep = b.ctrl.Steps()
		lo, hi := b.ctrl.Limits()
		for i := range lo {
			// Continuous joints: one turn either way on the page.
			in.JogLower = append(in.JogLower, math.Max(lo[i], -2*math.Pi))
			in.JogUpper = append(in.JogUpper, math.Min(hi[i], 2*math.Pi))
		}
		in.JogFrames = []string{b.chain.Base, b.chain.TipName}
	}
	for _, c := range b.cams {
		in.Cameras = append(in.Cameras, c.name)
	}
	b.info = in
}

// Info implements console.Backend.
func (b *Backend) Info() console.Info { return b.info }

// ServosilaSim returns the embedded Servosila simulator (nil with a real
// robot): its State is the ground truth for tests.
func (b *Backend) ServosilaSim() *servosilasim.Sim { return b.sSim }

// ServosilaDriver returns the Servosila driver (nil without one).
func (b *Backend) ServosilaDriver() *servosila.Driver { return b.drv }

// FurbotSim returns the embedded Furbot simulator (nil with a real one).
func (b *Backend) FurbotSim() *furbotsim.Sim { return b.fSim }

// Arm returns the simulated jog arm (nil without one).
func (b *Backend) Arm() *armsim.Arm { return b.arm }

// ArmChain returns the jog arm's kinematic chain (nil without an arm): with
// Arm's positions, the true tool pose by forward kinematics.
func (b *Backend) ArmChain() *kinematics.Chain { return b.chain }

// Close stops the drivers (each sends its stop: zero packets, full-brake
// frames, a hold), then the cameras and the simulators, and returns the
// first errors that ended any of them.
func (b *Backend) Close() error {
	if b.ctrl != nil {
		_ = b.JogStop(context.Background())
	}
	b.cancel()
	b.wg.Wait()
	b.simStop()
	b.simWG.Wait()
	werr := b.closeWorld()
	b.errMu.Lock()
	defer b.errMu.Unlock()
	return errors.Join(append(b.errs, werr)...)
}

// Err returns the errors that ended a machine early (nil while all run).
func (b *Backend) Err() error {
	b.errMu.Lock()
	defer b.errMu.Unlock()
	return errors.Join(b.errs...)
}

var errNone = errors.New("not connected")

// JogHeartbeatTimeout is the jog controller's own heartbeat timeout behind
// the console (drag&bot's default is 0.2 s).
const JogHeartbeatTimeout = 500 * time.Millisecond

func cameraName(i int, dev string) string {
	if len(dev) > len(camera.PatternPrefix) && dev[:len(camera.PatternPrefix)] == camera.PatternPrefix {
		return dev[len(camera.PatternPrefix):]
	}
	if n, ok := strings.CutPrefix(dev, WorldPrefix); ok && n != "" {
		return n
	}
	return fmt.Sprintf("cam%d", i)
}

// CheckCameraMode checks a camera size [px] and rate [Hz]: even sizes
// within video.MinSize..video.MaxSize (H.264's 4:2:0 pictures), a rate
// within camera.MinFrameRate..camera.MaxFrameRate.
func CheckCameraMode(width, height int, rate float64) error {
	if width < video.MinSize || height < video.MinSize || width > video.MaxSize || height > video.MaxSize || width%2 != 0 || height%2 != 0 {
		return fmt.Errorf("direct: camera size %dx%d: want even sizes within %d..%d px", width, height, video.MinSize, video.MaxSize)
	}
	if !(rate >= camera.MinFrameRate && rate <= camera.MaxFrameRate) {
		return fmt.Errorf("direct: camera rate %v Hz: want %v..%v Hz", rate, camera.MinFrameRate, camera.MaxFrameRate)
	}
	return nil
}
