package graph_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/graph"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/mjpeg"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

const urdf = "../../../launch/urdf/ur5_like.urdf"

// fakePort records what the backend does on the graph.
type fakePort struct {
	mu      sync.Mutex
	log     []string
	fail    map[string]error                                // service -> error
	trigger func(ctx context.Context, service string) error // optional
}

func (p *fakePort) add(format string, a ...any) {
	p.mu.Lock()
	p.log = append(p.log, fmt.Sprintf(format, a...))
	p.mu.Unlock()
}

func (p *fakePort) calls() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.log)
}

func (p *fakePort) PublishTwist(topic string, l, a float64) error {
	p.add("twist %s %g %g", topic, l, a)
	return nil
}

func (p *fakePort) PublishJointState(topic string, names []string, pos, vel []float64) error {
	p.add("joints %s %v pos=%v vel=%v", topic, names, pos, vel)
	return nil
}

func (p *fakePort) Trigger(ctx context.Context, service string) error {
	if p.trigger != nil {
		if err := p.trigger(ctx, service); err != nil {
			return err
		}
	}
	p.add("trigger %s", service)
	return p.fail[service]
}

func (p *fakePort) SetBool(_ context.Context, service string, v bool) error {
	p.add("setbool %s %v", service, v)
	return p.fail[service]
}

func (p *fakePort) StartJointMove(_ context.Context, service string, m console.JogJointMove) error {
	p.add("jointmove %s delta=%v %v speed=%g", service, m.Delta, m.Values, m.Speed)
	return p.fail[service]
}

func (p *fakePort) StartCartesianMove(_ context.Context, service string, m console.JogCartesianMove) error {
	p.add("cartmove %s delta=%v %+v frame=%s", service, m.Delta, m.Pose, m.Frame)
	return p.fail[service]
}

func config() graph.NodeConfig {
	c := graph.DefaultNodeConfig()
	c.Furbot, c.Jog = true, true
	c.FurbotNamespace = "/furbot"
	c.JogURDF = urdf
	c.Cameras = []string{"front", "rear"}
	return c
}

func newBackend(t *testing.T, c graph.NodeConfig, p graph.Port) *graph.Backend {
	t.Helper()
	b, err := graph.New(c, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNames(t *testing.T) {
	n, err := config().Names()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ got, want string }{
		{n.ServosilaCmdVel, "/cmd_vel"},
		{n.ServosilaJointVel, "/servosila_driver/joint_velocities"},
		{n.ServosilaJointTarget, "/servosila_driver/joint_targets"},
		{n.ServosilaTelemetry, "/servosila_driver/telemetry"},
		{n.ServosilaEStop, "/servosila_driver/estop"},
		{n.ServosilaHeadlight, "/servosila_driver/headlight"},
		{n.FurbotCmdVel, "/furbot/cmd_vel"},
		{n.FurbotTraction, "/furbot/furbot/traction"},
		{n.FurbotEStop, "/furbot/furbot_bridge/estop"},
		{n.Diagnostics, "/diagnostics"},
		{n.JogHeartbeat, "/dnb_remote_robot_control/heartbeat"},
		{n.Images["front"], "/front/image_raw"},
	} {
		if c.got != c.want {
			t.Errorf("name %q, want %q", c.got, c.want)
		}
	}
	c := config()
	c.ServosilaNamespace, c.CameraNamespace = "/engineer", "/cams"
	n, err = c.Names()
	if err != nil {
		t.Fatal(err)
	}
	if n.ServosilaCmdVel != "/engineer/cmd_vel" || n.ServosilaEStop != "/engineer/servosila_driver/estop" || n.Images["rear"] != "/cams/rear/image_raw" {
		t.Errorf("namespaced names: %+v", n)
	}
}

func TestNamesRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*graph.NodeConfig)
		want string
	}{
		{"shared cmd_vel", func(c *graph.NodeConfig) { c.FurbotNamespace = "" }, "share /cmd_vel"},
		{"jog without urdf", func(c *graph.NodeConfig) { c.JogURDF = "" }, "jog_urdf"},
		{"bad namespace", func(c *graph.NodeConfig) { c.FurbotNamespace = "/a b" }, "namespace"},
		{"camera with slash", func(c *graph.NodeConfig) { c.Cameras = []string{"a/b"} }, "camera name"},
		{"camera twice", func(c *graph.NodeConfig) { c.Cameras = []string{"a", "a"} }, "twice"},
		{"zero timeout", func(c *graph.NodeConfig) { c.ServiceTimeout = 0 }, "service_timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config()
			tc.mod(&c)
			_, err := graph.New(c, &fakePort{}, nil)
			if !errors.Is(err, graph.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want ErrConfig with %q", err, tc.want)
			}
		})
	}
	c := config()
	c.Furbot = false
	c.FurbotNamespace = "" // no collision with the Furbot off
	if _, err := graph.New(c, &fakePort{}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestCommandsReachTheGraph(t *testing.T) {
	p := &fakePort{}
	b := newBackend(t, config(), p)
	ctx := context.Background()
	steps := []struct {
		do   func() error
		want string
	}{
		{func() error { return b.DriveServosila(ctx, 0.3, -0.5) }, "twist /cmd_vel 0.3 -0.5"},
		{func() error { return b.ServosilaJointVelocities(ctx, [6]float64{0.1, 0, 0, 0, -0.2, 0.3}) },
			"joints /servosila_driver/joint_velocities [waist shoulder elbow neck flippers gripper] pos=[] vel=[0.1 0 0 0 -0.2 0.3]"},
		{func() error { return b.ServosilaTarget(ctx, 2, 0.7) }, "joints /servosila_driver/joint_targets [elbow] pos=[0.7] vel=[]"},
		{func() error { return b.ServosilaHeadlight(ctx, true) }, "setbool /servosila_driver/headlight true"},
		{func() error { return b.DriveFurbot(ctx, 1.5, 0.1) }, "twist /furbot/cmd_vel 1.5 0.1"},
		{func() error {
			return b.JogJoint(ctx, console.JogJointMove{Delta: true, Values: []float64{0, 1, 0, 0, 0, 0}, Speed: 0.5})
		}, "jointmove /remotecontrol_start_move_joints delta=true [0 1 0 0 0 0] speed=0.5"},
		{func() error {
			return b.JogCartesian(ctx, console.JogCartesianMove{Delta: true, Pose: console.JogPose{Z: 1}, Frame: "base_link", Speed: 1})
		}, "cartmove /remotecontrol_start_move_cartesian delta=true {X:0 Y:0 Z:1 RZ:0 RY:0 RX:0} frame=base_link"},
		{func() error { return b.JogHeartbeat(ctx) }, "trigger /dnb_remote_robot_control/heartbeat"},
		{func() error { return b.JogStop(ctx) }, "trigger /remotecontrol_stop_move"},
	}
	for i, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		got := p.calls()
		for deadline := time.Now().Add(10 * time.Second); len(got) < i+1 && time.Now().Before(deadline); got = p.calls() {
			time.Sleep(time.Millisecond) // the heartbeat's call is asynchronous
		}
		if len(got) != i+1 || got[i] != s.want {
			t.Fatalf("step %d: graph saw %q, want %q", i, got, s.want)
		}
	}
	// Refused before anything is published.
	if err := b.ServosilaTarget(ctx, 4, 0.1); err == nil {
		t.Error("a flipper target was accepted")
	}
	if err := b.JogJoint(ctx, console.JogJointMove{Values: []float64{1}, Speed: 1}); err == nil {
		t.Error("a jog move with the wrong number of joints was accepted")
	}
	if n := len(p.calls()); n != len(steps) {
		t.Errorf("refused commands reached the graph: %q", p.calls()[len(steps):])
	}
}

func TestMachineOffRefuses(t *testing.T) {
	c := config()
	c.Servosila, c.Jog = false, false
	p := &fakePort{}
	b := newBackend(t, c, p)
	if err := b.DriveServosila(context.Background(), 0.3, 0); err == nil {
		t.Error("drive of a switched-off Servosila accepted")
	}
	if err := b.JogHeartbeat(context.Background()); err == nil {
		t.Error("heartbeat without a jog arm accepted")
	}
	if len(p.calls()) != 0 {
		t.Errorf("graph saw %q", p.calls())
	}
}

// TestEStopCallsEveryMachineAtOnce: the three stops run in parallel (each
// fake call waits until all three have started), and a failure of one
// does not hold back the others.
func TestEStopCallsEveryMachineAtOnce(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(3)
	p := &fakePort{fail: map[string]error{"/furbot/furbot_bridge/estop": errors.New("service not available")}}
	p.trigger = func(ctx context.Context, _ string) error {
		wg.Done()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	c := config()
	c.ServiceTimeout = 10 * time.Second // a serial implementation would deadlock until this
	b := newBackend(t, c, p)
	err := b.EStop(context.Background())
	if err == nil || !strings.Contains(err.Error(), "/furbot/furbot_bridge/estop") || strings.Contains(err.Error(), "servosila_driver") {
		t.Fatalf("e-stop error %v, want only the Furbot's failure", err)
	}
	got := p.calls()
	slices.Sort(got)
	want := []string{"trigger /furbot/furbot_bridge/estop", "trigger /remotecontrol_stop_move", "trigger /servosila_driver/estop"}
	if !slices.Equal(got, want) {
		t.Fatalf("graph saw %q, want %q", got, want)
	}
	s, _ := b.Snapshot(context.Background())
	if !s.Servosila.EStopped || !s.Furbot.EStopped || s.Jog.Mode != "idle" {
		t.Errorf("after e-stop: servosila %v furbot %v jog %q", s.Servosila.EStopped, s.Furbot.EStopped, s.Jog.Mode)
	}
}

func TestServiceTimeout(t *testing.T) {
	p := &fakePort{trigger: func(ctx context.Context, _ string) error { <-ctx.Done(); return ctx.Err() }}
	c := config()
	c.ServiceTimeout = 5 * time.Millisecond
	b := newBackend(t, c, p)
	if err := b.JogStop(context.Background()); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("stop to a dead service: %v, want a deadline error", err)
	}
	s, _ := b.Snapshot(context.Background())
	if !strings.Contains(s.Jog.Reason, "stop refused") {
		t.Errorf("jog reason %q", s.Jog.Reason)
	}
}

// TestHeartbeatNeverBlocks: a heartbeat to a service that does not answer
// returns at once (the console calls it with its lock held), at most one
// call is in flight, and the failure is reported by a later beat.
func TestHeartbeatNeverBlocks(t *testing.T) {
	release := make(chan struct{})
	var inFlight, most int
	var mu sync.Mutex
	p := &fakePort{trigger: func(ctx context.Context, _ string) error {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		mu.Unlock()
		defer func() { mu.Lock(); inFlight--; mu.Unlock() }()
		<-release
		return errors.New("heartbeat service busy")
	}}
	c := config()
	c.ServiceTimeout = time.Minute
	b := newBackend(t, c, p)
	for range 5 {
		if err := b.JogHeartbeat(context.Background()); err != nil {
			t.Fatalf("first beats: %v", err)
		}
	}
	close(release)
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := b.JogHeartbeat(context.Background())
		if err != nil {
			if !strings.Contains(err.Error(), "busy") {
				t.Fatalf("heartbeat error %v", err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the failed heartbeat was never reported")
		}
		time.Sleep(time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if most != 1 {
		t.Errorf("%d heartbeat calls in flight at once, want 1", most)
	}
}

func TestSnapshotFromMessages(t *testing.T) {
	now := time.Unix(1000, 0)
	clock := func() time.Time { return now }
	p := &fakePort{}
	b, err := graph.New(config(), p, clock)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.ServosilaTarget(ctx, 0, 0.5); err != nil {
		t.Fatal(err)
	}
	b.OnServosilaJointStates([]string{"waist", "shoulder", "bogus", "flippers"}, []float64{0.3, -0.2, 9, 0.25})
	b.OnServosilaTelemetry(graph.Telemetry{Tick: 42, Motors: []console.MotorState{{ID: 1, Position: 16384, Current: 2}}})
	b.OnServosilaOdom(1, 2, geom.FromEulerZYX(0.5, 0, 0), 0.2, 0.1)
	b.OnDiagnostics(diag.Status{Name: "/servosila_driver: robot link", Values: []diag.KeyValue{
		{Key: "emergency stop", Value: "true"}, {Key: "packets sent", Value: "77"}, {Key: "dropped: malformed", Value: "3"}}})
	b.OnDiagnostics(diag.Status{Name: "/camera_publisher: front", Values: []diag.KeyValue{{Key: "packets sent", Value: "1"}}})
	// Another robot's driver, in another namespace, is not this one.
	b.OnDiagnostics(diag.Status{Name: "/s2/servosila_driver: robot link", Values: []diag.KeyValue{{Key: "packets sent", Value: "5"}}})
	now = now.Add(1500 * time.Millisecond)

	s, _ := b.Snapshot(ctx)
	v := s.Servosila
	if v.Targets[0].State != "moving" || v.Joints[0] != 0.3 || v.Joints[1] != -0.2 || v.Joints[4] != 0.25 || !v.JointKnown[4] || v.JointKnown[5] {
		t.Errorf("joints %v known %v targets %v", v.Joints, v.JointKnown, v.Targets)
	}
	if !v.EStopped || v.Link.Sent != 77 || v.Link.Malformed != 3 {
		t.Errorf("diagnostics not applied: estop %v link %+v", v.EStopped, v.Link)
	}
	if v.Tick != 42 || len(v.Motors) != 1 || math.Abs(v.Motors[0].Angle-math.Pi/2) > 1e-3 || v.TelemetryAge != 1.5 {
		t.Errorf("telemetry: tick %d motors %+v age %g", v.Tick, v.Motors, v.TelemetryAge)
	}
	if v.X != 1 || v.Y != 2 || math.Abs(v.Yaw-0.5) > 1e-12 || v.Linear != 0.2 {
		t.Errorf("odom: %g %g %g %g", v.X, v.Y, v.Yaw, v.Linear)
	}
	b.OnServosilaJointStates([]string{"waist"}, []float64{0.4995})
	if s, _ = b.Snapshot(ctx); s.Servosila.Targets[0].State != "reached" {
		t.Errorf("target within tolerance: %q", s.Servosila.Targets[0].State)
	}
	// Cancel holds the joint where it is.
	if err := b.ServosilaCancelTarget(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if c := p.calls(); c[len(c)-1] != "joints /servosila_driver/joint_targets [shoulder] pos=[-0.2] vel=[]" {
		t.Errorf("cancel published %q", c[len(c)-1])
	}
	if err := b.ServosilaCancelTarget(ctx, 3); err == nil {
		t.Error("cancel without a joint state published a target")
	}

	var st graph.Status
	st.States[3], st.Working, st.AllWorking, st.LinkFresh = 2, 1<<3|1<<4, true, true
	b.OnFurbotStatus(st)
	b.OnFurbotTraction(graph.Traction{Speed: 1.2, Throttle: 0.3})
	b.OnFurbotSteering(-0.1)
	b.OnFurbotBattery(0.8, 48.5, -12)
	s, _ = b.Snapshot(ctx)
	f := s.Furbot
	if !f.Ready || f.Speed != 1.2 || f.Steer != -0.1 || f.Charge != 80 || len(f.Subsystems) != 12 {
		t.Fatalf("furbot %+v", f)
	}
	// BatteryState's -12 A is a 12 A discharge, shown positive as the
	// direct backend shows it.
	if f.Current != 12 || f.Voltage != 48.5 {
		t.Errorf("battery %g A, %g V; want 12 A (discharging), 48.5 V", f.Current, f.Voltage)
	}
	if sub := f.Subsystems[3]; sub.Name != "traction" || sub.State != 2 || !sub.Working || f.Subsystems[0].Working {
		t.Errorf("subsystems %+v", f.Subsystems)
	}
}

func TestJogToolPoseIsForwardKinematics(t *testing.T) {
	b := newBackend(t, config(), &fakePort{})
	in := b.Info()
	q := []float64{0.1, -0.5, 0.7, 0.2, -0.3, 0.4}
	if len(in.JogJoints) != len(q) {
		t.Fatalf("jog joints %v", in.JogJoints)
	}
	b.OnJogJointStates(append([]string{"waist"}, in.JogJoints...), append([]float64{5}, q...))
	s, _ := b.Snapshot(context.Background())
	chain, err := kinematics.ParseURDFString(mustRead(t, urdf), "", "")
	if err != nil {
		t.Fatal(err)
	}
	tf, err := chain.FK(q)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(s.Jog.Tool.X-tf.Translation.X) + math.Abs(s.Jog.Tool.Z-tf.Translation.Z); d > 1e-12 || !slices.Equal(s.Jog.Joints, q) {
		t.Errorf("tool %+v joints %v, want %+v", s.Jog.Tool, s.Jog.Joints, tf)
	}
	for i := range in.JogLower {
		if math.IsInf(in.JogLower[i], 0) || math.IsInf(in.JogUpper[i], 0) {
			t.Errorf("joint %d limits not JSON-encodable: %g %g", i, in.JogLower[i], in.JogUpper[i])
		}
	}
}

func TestNodeParameters(t *testing.T) {
	if err := graph.NodeParameterTable().Check(); err != nil {
		t.Fatal(err)
	}
	var ov rosparam.Overrides
	yaml := "operator_console:\n  ros__parameters:\n    jog: true\n    jog_urdf: " + urdf + "\n    servosila_namespace: /engineer\n    cameras: [front, left]\n    service_timeout: 0.25\n"
	if err := ov.AddYAML([]byte(yaml)); err != nil {
		t.Fatal(err)
	}
	s, err := rosparam.New(rosparam.Config{Node: "/operator_console", Table: graph.NodeParameterTable(), Overrides: &ov})
	if err != nil {
		t.Fatal(err)
	}
	c, err := graph.LoadNodeConfig(s)
	if err != nil {
		t.Fatal(err)
	}
	if c.ServosilaNamespace != "/engineer" || !slices.Equal(c.Cameras, []string{"front", "left"}) || c.ServiceTimeout != 250*time.Millisecond {
		t.Errorf("config %+v", c)
	}
	// Every parameter changes the configuration (none is accepted and ignored).
	def := graph.DefaultNodeConfig()
	if fmt.Sprint(def) == fmt.Sprint(c) {
		t.Error("overrides changed nothing")
	}
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCameraStateFromStream(t *testing.T) {
	now := time.Unix(1000, 0)
	b, err := graph.New(config(), &fakePort{}, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	s, err := mjpeg.NewStream("front", mjpeg.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b.SetCameras(map[string]*mjpeg.Stream{"front": s})
	if _, err := b.Snapshot(context.Background()); err != nil { // starts the rate window
		t.Fatal(err)
	}
	f := camera.Frame{Width: 4, Height: 2, Step: 8, Encoding: "yuv422_yuy2", Data: make([]byte, 16)}
	for range 10 {
		s.Feed(&f)
	}
	now = now.Add(2 * time.Second)
	snap, _ := b.Snapshot(context.Background())
	if len(snap.Cameras) != 2 || snap.Cameras[0].Name != "front" || snap.Cameras[0].InFPS != 5 || snap.Cameras[1].Name != "rear" {
		t.Fatalf("cameras %+v, want front at 5 Hz in and rear without a stream", snap.Cameras)
	}
	rec := httptest.NewRecorder()
	b.ServeCamera("nope", rec, httptest.NewRequest("GET", "/camera/nope", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("unknown camera: HTTP %d", rec.Code)
	}
}

// TestJogRangesFromParamsFile: the panel's limits and steps are
// jog_server's, from the same parameters file (jog.JointRanges); a file
// jog_server would refuse is refused here too.
func TestJogRangesFromParamsFile(t *testing.T) {
	c := config()
	if in := newBackend(t, c, &fakePort{}).Info(); in.JogStep[0] != 0 || in.JogUpper[0] != 2*math.Pi {
		t.Fatalf("without a file: upper %g step %g, want the URDF's 2π and no step", in.JogUpper[0], in.JogStep[0])
	}
	c.JogParamsFile = "../../jog/testdata/joint_steps.yaml"
	in := newBackend(t, c, &fakePort{}).Info()
	deg := math.Pi / 180
	if math.Abs(in.JogUpper[0]-90*deg) > 1e-12 || math.Abs(in.JogLower[1]+math.Pi) > 1e-12 || in.JogUpper[1] != 0 {
		t.Errorf("limits %v .. %v, want joint_limits' [-90°, 90°] and [-180°, 0°] first", in.JogLower, in.JogUpper)
	}
	if want := []float64{5 * deg, 1 * deg, 0, 10 * deg, 10 * deg, 15 * deg}; !slices.Equal(in.JogStep, want) {
		t.Errorf("steps %v, want %v", in.JogStep, want)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("/jog_server:\n  ros__parameters:\n    joint_limits:\n      min: [0.0]\n      max: [1.0]\n      step: [-1.0]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.JogParamsFile = bad
	if _, err := graph.New(c, &fakePort{}, nil); err == nil || !strings.Contains(err.Error(), "jog_params_file") {
		t.Fatalf("a negative step: %v, want a jog_params_file error", err)
	}
}

// TestServosilaLimitsAssumed: on the graph the console assumes the
// driver's defaults for what it executes faster than asked: the 0.2 start
// speed and the gripper's one speed.
func TestServosilaLimitsAssumed(t *testing.T) {
	in := newBackend(t, config(), &fakePort{}).Info()
	if in.ServosilaStartSpeed != 0.2 || math.Abs(in.ServosilaGripperSpeed-0.5) > 1e-4 || math.Abs(in.EStopInterval-0.02) > 1e-9 {
		t.Fatalf("start %g, gripper %g, e-stop interval %g", in.ServosilaStartSpeed, in.ServosilaGripperSpeed, in.EStopInterval)
	}
}

func TestDiagnoseConsole(t *testing.T) {
	now := time.Unix(1000, 0)
	clock := func() time.Time { return now }
	b, err := graph.New(config(), &fakePort{}, clock)
	if err != nil {
		t.Fatal(err)
	}
	if s := b.Diagnose(now); s.Name != "console" || s.Level != diag.Warn || s.Message != "no servosila telemetry received" {
		t.Errorf("before telemetry: %q %v %q", s.Name, s.Level, s.Message)
	}
	b.OnServosilaTelemetry(graph.Telemetry{Tick: 1})
	b.OnFurbotStatus(graph.Status{})
	if s := b.Diagnose(now.Add(time.Second)); s.Level != diag.OK {
		t.Errorf("fresh telemetry: %v %q %+v", s.Level, s.Message, s.Values)
	}
	if s := b.Diagnose(now.Add(graph.InputTimeout + time.Second)); s.Level != diag.Warn || s.Message != "servosila telemetry is 4.000 s old" {
		t.Errorf("stale telemetry: %v %q", s.Level, s.Message)
	}
}
