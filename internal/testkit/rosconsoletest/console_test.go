package rosconsoletest

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	furbotsim "github.com/telebridge/telebridge/pkg/furbot/sim"
	furbotwire "github.com/telebridge/telebridge/pkg/furbot/wire"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Env set to 1 runs the test (scripts/ros2-test.d/console.sh sets it,
// with a sourced colcon install of telebridge).
const Env = "TELEBRIDGE_ROS_CONSOLE_TEST"

// jogSteps is jog_server's parameters file in this test: joint_limits
// with a 5° step on the first joint, given to the jog stack and the
// console alike.
const jogSteps = "../../../pkg/console/direct/testdata/jog_steps.yaml"

// deadman is the console's command timeout (pkg/console's default).
const deadman = 300 * time.Millisecond

// rig is the ROS graph under test: the simulators in this process, the
// stacks and the operator_console node launched with ros2 launch, and a
// headless Chromium on the console's page.
type rig struct {
	t       *testing.T
	sv      *servosilasim.Sim
	fb      *furbotsim.Sim
	url     string
	logs    string
	browser context.Context
	art     string
}

func newRig(t *testing.T) *rig {
	if os.Getenv(Env) != "1" {
		t.Skipf("ROS console test skipped: %s is not 1 (scripts/ros2-test.d/console.sh runs it against a colcon install)", Env)
	}
	if _, err := exec.LookPath("ros2"); err != nil {
		t.Fatalf("%s=1 but no ros2 on PATH: source /opt/ros/humble and the install's setup.bash", Env)
	}
	browsertest.Chromium(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sv, err := servosilasim.New(servosilasim.Config{Listen: "127.0.0.1:0", TelemetryRate: 5})
	if err != nil {
		t.Fatal(err)
	}
	fb, err := furbotsim.New(furbotsim.Config{Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range []func(context.Context) error{sv.Run, fb.Run} {
		done := make(chan error, 1)
		go func() { done <- run(ctx) }()
		t.Cleanup(func() {
			cancel()
			if err := <-done; err != nil && ctx.Err() == nil {
				t.Errorf("simulator: %v", err)
			}
		})
	}
	logs := os.Getenv("ROS_CONSOLE_LOGS")
	if logs == "" {
		logs = t.TempDir()
	}
	port := freePort(t, "tcp")
	r := &rig{t: t, sv: sv, fb: fb, url: fmt.Sprintf("http://127.0.0.1:%d/", port), logs: logs}
	r.launch("servosila", "servosila.launch.py", "robot_address:="+sv.Addr().String())
	r.launch("furbot", "furbot.launch.py", "namespace:=furbot", "vehicle_address:="+fb.Addr().String(),
		fmt.Sprintf("listen:=127.0.0.1:%d", freePort(t, "udp")))
	steps, err := filepath.Abs(jogSteps)
	if err != nil {
		t.Fatal(err)
	}
	// description:=false: the Servosila's robot_state_publisher owns
	// /robot_description here.
	r.launch("jog", "jog.launch.py", "sim:=true", "params_file:="+steps, "description:=false")
	r.launch("cameras", "cameras.launch.py", "sim:=true")
	r.launch("console", "console.launch.py", fmt.Sprintf("listen:=127.0.0.1:%d", port), "furbot:=true",
		"furbot_namespace:=/furbot", "jog:=true", "jog_params_file:="+steps, "cameras:=[front_left, front_right, rear, zoom]",
		"webrtc_loopback:=true")
	browsertest.WaitFor(t, 60*time.Second, "the console node to serve "+r.url, func() bool {
		res, err := http.Get(r.url)
		if err != nil {
			time.Sleep(200 * time.Millisecond) // retry spacing, not a synchronisation
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	r.browser = browsertest.Start(t, ctx, browsertest.AllowLoopbackWebRTC)
	r.art = browsertest.Artifacts(t)
	return r
}

// freePort returns a port that was free on 127.0.0.1 a moment ago.
func freePort(t *testing.T, network string) int {
	t.Helper()
	if network == "udp" {
		c, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return c.LocalAddr().(*net.UDPAddr).Port
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// launch starts `ros2 launch telebridge FILE ARGS...` in a process group
// of its own, its output in logs/NAME.log; the test's cleanup stops the
// group (SIGINT, then SIGKILL after 15 s) and prints the log's tail if
// the test failed.
func (r *rig) launch(name, file string, args ...string) {
	r.t.Helper()
	path := filepath.Join(r.logs, name+".log")
	f, err := os.Create(path)
	if err != nil {
		r.t.Fatal(err)
	}
	cmd := exec.Command("ros2", append([]string{"launch", "telebridge", file}, args...)...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		f.Close()
		r.t.Fatalf("launch %s: %v", file, err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	r.t.Cleanup(func() {
		pgid := cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGINT)
		select {
		case <-waited:
		case <-time.After(15 * time.Second):
			r.t.Errorf("launch %s ignored SIGINT for 15 s: killed", name)
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-waited
		}
		f.Close()
		if r.t.Failed() {
			b, _ := os.ReadFile(path)
			lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
			r.t.Logf("last lines of %s:\n%s", path, strings.Join(lines[max(0, len(lines)-25):], "\n"))
		}
	})
}

func (r *rig) page() (context.Context, context.CancelFunc) {
	return browsertest.Page(r.t, r.browser, r.url)
}

func (r *rig) do(ctx context.Context, a ...chromedp.Action[chromedp.Void]) {
	r.t.Helper()
	browsertest.Do(r.t, ctx, a...)
}

func (r *rig) text(ctx context.Context, id string) string {
	r.t.Helper()
	return browsertest.Eval[string](r.t, ctx, fmt.Sprintf(`document.getElementById(%q).textContent`, id))
}

func (r *rig) truth() servosilasim.State { return r.sv.State() }

// stoppedAt waits until the simulated robot executes no chassis motion
// and returns when the packet that stopped it arrived.
func (r *rig) stoppedAt(limit time.Duration) time.Time {
	r.t.Helper()
	return browsertest.StoppedAt(r.t, limit, r.truth)
}

// chassis moves meanwhile.
func (r *rig) standsFor(n uint64, while string) {
	r.t.Helper()
	browsertest.StandsFor(r.t, n, while, 10*time.Second, r.truth)
}

// TestROSConsole drives operator_console, launched against the ROS
// stacks, in a real headless Chromium and judges by the simulators' truth
// (the Servosila and Furbot simulators run in this process; the jog arm's
// truth is arm_sim's joint_states). The same checks as the direct
// backend's TestBrowser, through the ROS graph.
func TestROSConsole(t *testing.T) {
	r := newRig(t)
	p1, close1 := r.page()
	defer close1()
	browsertest.WaitFor(t, 30*time.Second, "page 1 in control", func() bool { return browsertest.Role(t, p1) == "IN CONTROL" })
	// The page opens on the drive screen; these subtests use the Servosila panel.
	browsertest.Tab(t, p1, "servosila")

	t.Run("hold W drives forward, key-up stops within the deadman", func(t *testing.T) {
		r.t = t
		a := r.truth()
		r.do(p1, browsertest.Key("w", true))
		browsertest.WaitFor(t, 10*time.Second, "forward motion", func() bool { return r.truth().Linear > 0 })
		browsertest.WaitFor(t, 10*time.Second, "0.1 m forward", func() bool { return r.truth().Distance-a.Distance >= 0.1 })
		browsertest.Shot(t, p1, r.art, "ros-servosila")
		r.do(p1, browsertest.Key("w", false))
		stop := r.stoppedAt(5 * time.Second)
		d := stop.Sub(browsertest.KeyAt(t, p1, "keyup"))
		t.Logf("key-up to the stopping packet at the simulator (through the ROS graph): %v", d)
		if d > deadman {
			t.Fatalf("stopped %v after key-up, want <= %v", d, deadman)
		}
	})

	t.Run("waist target and Accept reach the target", func(t *testing.T) {
		r.t = t
		goal := r.truth().Joints[servosilawire.Waist] - 0.3
		r.do(p1, chromedp.SetValue(chromedp.CSS("#tg-waist"), fmt.Sprintf("%.3f", goal)))
		browsertest.Click(t, p1, "#ta-waist")
		browsertest.WaitFor(t, 30*time.Second, "waist at the target", func() bool {
			st := r.truth()
			return math.Abs(st.Joints[servosilawire.Waist]-goal) <= 0.011 && st.JointVel[servosilawire.Waist] == 0
		})
	})

	t.Run("the 3-D view draws the robot from /robot_description and follows the waist", func(t *testing.T) {
		r.t = t
		p3, close3 := browsertest.Page(t, r.browser, r.url+"robot3d.html")
		defer close3()
		browsertest.WaitFor(t, 30*time.Second, "the 3-D view drawn with the Servosila's joints", func() bool {
			return browsertest.Eval[bool](t, p3, `!!(window.robot3d && window.robot3d.frames > 0 && window.robot3d.robot && window.robot3d.robot.joints.waist)`)
		})
		if e := browsertest.Eval[string](t, p3, `document.getElementById('msg').textContent`); e != "" {
			t.Errorf("3-D view message: %q", e)
		}
		want := r.truth().Joints[servosilawire.Waist] // moved by the subtest before
		browsertest.WaitFor(t, 10*time.Second, fmt.Sprintf("the view's waist at the simulator's %.3f rad", want), func() bool {
			return browsertest.Eval[bool](t, p3, fmt.Sprintf(`Math.abs(window.robot3d.robot.joints.waist.angle - (%g)) < 0.05`, want))
		})
		browsertest.Shot(t, p3, r.art, "ros-robot3d")
	})

	t.Run("Space latches the e-stop through a held key, release works", func(t *testing.T) {
		r.t = t
		r.do(p1, browsertest.Key("w", true))
		browsertest.WaitFor(t, 10*time.Second, "forward motion", func() bool { return r.truth().Linear > 0 })
		r.do(p1, browsertest.Key(" ", true), browsertest.Key(" ", false))
		r.stoppedAt(2 * time.Second)
		r.standsFor(5, "during the e-stop with W held")
		browsertest.WaitFor(t, 10*time.Second, "the page shows the driver's latch", func() bool { return r.text(p1, "estate") == "E-STOP LATCHED" })
		browsertest.Shot(t, p1, r.art, "ros-estop")
		r.do(p1, browsertest.Key("w", false))
		browsertest.ReleaseEStop(t, p1)
		browsertest.WaitFor(t, 10*time.Second, "the page shows the release", func() bool { return r.text(p1, "estate") != "E-STOP LATCHED" })
		r.do(p1, browsertest.Key("w", true))
		browsertest.WaitFor(t, 10*time.Second, "motion after release", func() bool { return r.truth().Linear > 0 })
		r.do(p1, browsertest.Key("w", false))
		r.stoppedAt(5 * time.Second)
	})

	t.Run("key-down to the first UDP packet with the command", func(t *testing.T) {
		r.t = t
		const n = 20
		var lat []time.Duration
		for i := range n {
			// Presses spread over the driver's 5 Hz keep-alive period.
			time.Sleep(200 * time.Millisecond * time.Duration(i) / n) // phase offset, not a synchronisation
			r.do(p1, browsertest.Key("w", true))
			var st servosilasim.State
			browsertest.WaitFor(t, 5*time.Second, "a packet with the command", func() bool {
				st = r.truth()
				return st.Last.Axes != [servosilawire.NumAxes]int16{}
			})
			lat = append(lat, st.LastAt.Sub(browsertest.KeyAt(t, p1, "keydown")))
			r.do(p1, browsertest.Key("w", false))
			r.stoppedAt(5 * time.Second)
			browsertest.WaitFor(t, 5*time.Second, "a zero packet", func() bool { return r.truth().Last.Axes == [servosilawire.NumAxes]int16{} })
		}
		slices.Sort(lat)
		p50, p99 := lat[n/2], lat[n-1]
		t.Logf("ROS backend: key-down to first UDP packet with the command, %d presses: p50 %v, p99 (worst) %v, min %v", n, p50, p99, lat[0])
		_ = os.WriteFile(filepath.Join(r.art, "ros-latency.txt"), fmt.Appendf(nil, "n %d p50 %v p99 %v min %v max %v\n", n, p50, p99, lat[0], lat[n-1]), 0o644)
	})

	t.Run("cameras play over WebRTC, H.264 encoded from the image topics", func(t *testing.T) {
		r.t = t
		browsertest.Tab(t, p1, "cameras")
		cams := []string{"front_left", "front_right", "rear", "zoom"}
		browsertest.WaitFor(t, 30*time.Second, "four cameras decoded over WebRTC", func() bool {
			for _, c := range cams {
				if !browsertest.Eval[bool](t, p1, fmt.Sprintf(`(() => { const f = document.getElementById('cam-%s'); const v = f && f.querySelector('video');
					const s = window.__video.state().figures[%q];
					return !!(f && f.dataset.transport === 'webrtc' && v && v.videoWidth > 0 && s && s.fps > 0); })()`, c, c)) {
					return false
				}
			}
			return true
		})
		browsertest.Shot(t, p1, r.art, "ros-cameras-webrtc")
		browsertest.Tab(t, p1, "servosila")
	})

	t.Run("cameras show four non-blank MJPEG images on a console without WebRTC", func(t *testing.T) {
		r.t = t
		port := freePort(t, "tcp")
		url := fmt.Sprintf("http://127.0.0.1:%d/", port)
		r.launch("console_mjpeg", "console.launch.py", fmt.Sprintf("listen:=127.0.0.1:%d", port), "servosila:=false",
			"cameras:=[front_left, front_right, rear, zoom]", "webrtc:=false")
		browsertest.WaitFor(t, 60*time.Second, "the second console node to serve "+url, func() bool {
			res, err := http.Get(url)
			if err != nil {
				time.Sleep(200 * time.Millisecond) // retry spacing, not a synchronisation
				return false
			}
			res.Body.Close()
			return res.StatusCode == http.StatusOK
		})
		pm, closeM := browsertest.Page(t, r.browser, url)
		defer closeM()
		browsertest.Tab(t, pm, "cameras")
		browsertest.WaitFor(t, 30*time.Second, "four camera images with content", func() bool {
			return browsertest.Eval[bool](t, pm, browsertest.CamerasShowImages(4))
		})
		browsertest.Shot(t, pm, r.art, "ros-cameras")
	})

	t.Run("jog moves the arm only while held", func(t *testing.T) {
		r.t = t
		js := r.recordJointStates()
		browsertest.Tab(t, p1, "jog")
		// Later subtests drive the Servosila with keys: leave its tab even if this fails.
		defer browsertest.Tab(t, p1, "servosila")
		q0 := js.first(t)
		browsertest.Mouse(t, p1, "jj-0-plus", true)
		browsertest.WaitFor(t, 15*time.Second, "joint 1 moving (arm_sim's joint_states)", func() bool { return js.first(t) > q0+0.05 })
		browsertest.Shot(t, p1, r.art, "ros-jog")
		browsertest.Mouse(t, p1, "jj-0-plus", false)
		rel := js.first(t)
		prev := browsertest.Settled(t, 10*time.Second, 50*time.Millisecond, 10, "the arm to stop", func() float64 { return js.first(t) })
		if d := prev - rel; d > 0.1 {
			t.Fatalf("arm ran on %.3f rad after the release", d)
		}
		t.Logf("joint 1: %.3f -> %.3f rad while held, %.4f rad after the release", q0, rel, prev-rel)
	})

	t.Run("a step button moves joint 1 to the next multiple of jog_server's joint_limits.step", func(t *testing.T) {
		r.t = t
		js := r.recordJointStates()
		browsertest.Tab(t, p1, "jog")
		defer browsertest.Tab(t, p1, "servosila")
		const step = 5 * math.Pi / 180 // jogSteps
		q0 := js.first(t)
		want := (math.Floor(q0/step+0.05) + 1) * step
		browsertest.Mouse(t, p1, "js-0-plus", true)
		q := browsertest.Settled(t, 15*time.Second, 50*time.Millisecond, 10, "joint 1 at the step", func() float64 { return js.first(t) })
		browsertest.Mouse(t, p1, "js-0-plus", false)
		t.Logf("joint 1: %.4f -> %.4f rad, want %.4f (multiple of %.4f)", q0, q, want, step)
		if math.Abs(q-want) > 2e-3 {
			t.Fatalf("joint 1 at %.4f rad, want %.4f", q, want)
		}
	})

	t.Run("a second page is view-only and cannot move the robot", func(t *testing.T) {
		r.t = t
		p2, close2 := r.page()
		defer close2()
		browsertest.WaitFor(t, 10*time.Second, "page 2 view-only", func() bool { return strings.HasPrefix(browsertest.Role(t, p2), "VIEW ONLY") })
		r.do(p2, browsertest.Key("w", true))
		r.standsFor(5, "with W held on the view-only page")
		r.do(p2, browsertest.Key("w", false))
		// Its e-stop works while page 1 drives.
		r.do(p1, browsertest.Key("w", true))
		browsertest.WaitFor(t, 10*time.Second, "page 1 driving", func() bool { return r.truth().Linear > 0 })
		r.do(p2, browsertest.Key(" ", true), browsertest.Key(" ", false))
		r.stoppedAt(2 * time.Second)
		r.standsFor(3, "after the view-only page's e-stop")
		r.do(p1, browsertest.Key("w", false))
		browsertest.ReleaseEStop(t, p1)
		browsertest.WaitFor(t, 10*time.Second, "release from page 1", func() bool { return r.text(p1, "estate") != "E-STOP LATCHED" })
	})

	t.Run("closing the tab while W is held stops the robot", func(t *testing.T) {
		r.t = t
		r.do(p1, browsertest.Key("w", true))
		browsertest.WaitFor(t, 10*time.Second, "forward motion", func() bool { return r.truth().Linear > 0 })
		close1()
		closed := time.Now()
		d := r.stoppedAt(5 * time.Second).Sub(closed)
		t.Logf("tab closed to the stopping packet (through the ROS graph): %v", d)
		if d > deadman {
			t.Fatalf("stopped %v after the tab closed, want <= %v", d, deadman)
		}
	})

	t.Run("furbot drive", func(t *testing.T) {
		r.t = t
		p3, close3 := r.page()
		defer close3()
		browsertest.WaitFor(t, 10*time.Second, "page 3 connected", func() bool {
			role := browsertest.Role(t, p3)
			return role == "IN CONTROL" || strings.HasPrefix(role, "VIEW ONLY")
		})
		if browsertest.Role(t, p3) != "IN CONTROL" {
			browsertest.Click(t, p3, "#take")
		}
		browsertest.WaitFor(t, 5*time.Second, "page 3 in control", func() bool { return browsertest.Role(t, p3) == "IN CONTROL" })
		browsertest.Tab(t, p3, "furbot")
		x0 := r.fb.Truth().X
		r.do(p3, browsertest.Key("w", true))
		browsertest.WaitFor(t, 20*time.Second, "the Furbot driving forward", func() bool { tr := r.fb.Truth(); return tr.V > 0.3 && tr.X > x0+0.1 })
		browsertest.Shot(t, p3, r.art, "ros-furbot")
		r.do(p3, browsertest.Key("w", false))
		browsertest.WaitFor(t, 20*time.Second, "the Furbot stopped", func() bool { return math.Abs(r.fb.Truth().V) < 0.01 })
		r.do(p3, browsertest.Key(" ", true), browsertest.Key(" ", false), browsertest.Key("w", true))
		browsertest.WaitFor(t, 10*time.Second, "control frames with the e-stop flag", func() bool {
			c, _, ok := r.fb.LastControl()
			return ok && c.Flags&furbotwire.FlagEStop != 0
		})
		t1 := r.fb.Truth()
		browsertest.WaitFor(t, 10*time.Second, "1 s of simulated time with W held", func() bool {
			tr := r.fb.Truth()
			if d := tr.X - t1.X; d > 0.01 {
				t.Fatalf("the Furbot moved %.3f m with the e-stop latched", d)
			}
			return tr.T-t1.T >= 1
		})
		r.do(p3, browsertest.Key("w", false))
		browsertest.ReleaseEStop(t, p3)
		browsertest.WaitFor(t, 10*time.Second, "control frames without the e-stop flag", func() bool {
			c, _, ok := r.fb.LastControl()
			return ok && c.Flags&furbotwire.FlagEStop == 0
		})
	})

	t.Run("the Furbot's 3-D view draws it from /furbot/robot_description at its odometry pose", func(t *testing.T) {
		r.t = t
		p4, close4 := browsertest.Page(t, r.browser, r.url+"robot3d.html?machine=furbot")
		defer close4()
		browsertest.WaitFor(t, 30*time.Second, "the Furbot's 3-D view drawn with its state", func() bool {
			return browsertest.Eval[bool](t, p4, `!!(window.robot3d && window.robot3d.frames > 0 && window.robot3d.robot && window.robot3d.robot.joints.front_left_steering_joint && window.robot3dFurbot)`)
		})
		if e := browsertest.Eval[string](t, p4, `document.getElementById('msg').textContent`); e != "" {
			t.Errorf("3-D view message: %q", e)
		}
		// The vehicle stands where the subtest before left it.
		tr := r.fb.Truth()
		var x, y float64
		browsertest.WaitFor(t, 10*time.Second, fmt.Sprintf("the view at the simulator's (%.2f, %.2f) m", tr.X, tr.Y), func() bool {
			xy := browsertest.Eval[[]float64](t, p4, `(() => { const o = window.robot3d.robot.parent.parent; return [o.position.x, o.position.y]; })()`)
			x, y = xy[0], xy[1]
			return math.Hypot(x-tr.X, y-tr.Y) < 0.3
		})
		t.Logf("view at (%.2f, %.2f) m, simulator at (%.2f, %.2f) m", x, y, tr.X, tr.Y)
		browsertest.Shot(t, p4, r.art, "ros-robot3d-furbot")
	})

	t.Run("the gamepad drives and is published as sensor_msgs/Joy on /joy", func(t *testing.T) {
		r.t = t
		gamepadJoy(t, r)
	})
}

// jointStates is a `ros2 topic echo --csv /joint_states` recording.
// Other publishers share the topic (servosila_driver publishes its arm and
// flippers there too), so a line counts only when it names joint.
type jointStates struct{ path, joint string }

// armJoint is the first joint of the jog stack's default arm
// (launch/urdf/ur5_like.urdf).
const armJoint = "shoulder_pan_joint"

// recordJointStates records /joint_states until the test ends and waits
// for arm_sim's first message.
func (r *rig) recordJointStates() *jointStates {
	r.t.Helper()
	f, err := os.CreateTemp(r.logs, "joint_states-*.csv")
	if err != nil {
		r.t.Fatal(err)
	}
	path := f.Name()
	cmd := exec.Command("ros2", "topic", "echo", "--csv", "/joint_states", "sensor_msgs/msg/JointState")
	cmd.Env = append(os.Environ(), "PYTHONUNBUFFERED=1")
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		_ = cmd.Wait()
		f.Close()
	})
	js := &jointStates{path: path, joint: armJoint}
	browsertest.WaitFor(r.t, 20*time.Second, "joint_states from arm_sim", func() bool {
		_, ok := js.last()
		if !ok {
			time.Sleep(100 * time.Millisecond) // poll spacing
		}
		return ok
	})
	return js
}

// last returns the latest recorded position of j.joint.
func (j *jointStates) last() (float64, bool) {
	f, err := os.Open(j.path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var v float64
	ok := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if x, found := csvJointPosition(sc.Text(), j.joint); found {
			v, ok = x, true
		}
	}
	return v, ok
}

// csvJointPosition finds joint's position in one JointState line of
// `ros2 topic echo --csv`: stamp sec, nanosec, frame_id, then n names,
// n positions, n velocities, n efforts (the arrays flattened, so n is the
// number of fields after frame_id that are not numbers).
func csvJointPosition(line, joint string) (float64, bool) {
	fields := strings.Split(line, ",")
	if len(fields) < 4 {
		return 0, false
	}
	names := fields[3:]
	n := 0
	for n < len(names) {
		if _, err := strconv.ParseFloat(strings.TrimSpace(names[n]), 64); err == nil {
			break
		}
		n++
	}
	i := slices.Index(names[:n], joint)
	if i < 0 || 3+n+i >= len(fields) {
		return 0, false
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(fields[3+n+i]), 64)
	return x, err == nil
}

func (j *jointStates) first(t *testing.T) float64 {
	t.Helper()
	v, ok := j.last()
	if !ok {
		t.Fatalf("no %s in the joint_states recorded in %s", j.joint, j.path)
	}
	return v
}
