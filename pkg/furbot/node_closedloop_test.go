package furbot_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/internal/steptest"
	"github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/odometry"
)

// nodeRig composes the three ROS nodes' cores as the ROS graph does, in
// lock-step over loopback UDP against the simulator: the bridge in External
// mode, TwistControl fed with the bridge's traction telemetry (what
// furbot_twist_control subscribes) and OdomTracker fed with it too (what
// furbot_odometry subscribes). Each period: telemetry -> twist control ->
// control signals -> bridge -> control frame -> simulator -> status frame.
type nodeRig struct {
	*lockRig
	twist *node.TwistControl
	odom  *node.OdomTracker
	last  odometry.State
	sent  bool // control signals are handed to the bridge (false: the twist node is gone)
}

func newNodeRig(t *testing.T) *nodeRig {
	t.Helper()
	n := &nodeRig{lockRig: newLockRig(t, furbot.BridgeConfig{External: true}), sent: true}
	var err error
	if n.twist, err = node.NewTwistControl(node.DefaultTwistNodeConfig()); err != nil {
		t.Fatal(err)
	}
	if n.odom, err = node.NewOdomTracker(control.OdometryConfig{}); err != nil {
		t.Fatal(err)
	}
	return n
}

// step runs one period of the composed graph; cmd (if not nil) is the
// cmd_vel received in this period.
func (n *nodeRig) step(t *testing.T, cmd *control.Twist) furbot.Snapshot {
	t.Helper()
	now := n.now()
	if cmd != nil {
		if err := n.twist.SetCommand(*cmd, now); err != nil {
			t.Fatal(err)
		}
	}
	snap, ok := n.bridge.Latest()
	if ok {
		n.twist.SetFeedback(snap.Status.Traction, now)
		n.twist.SetMotion(snap.Status.Motion, now)
		if st, fresh := n.odom.Traction(snap.Status.Traction, snap.Status.Timestamp, now); fresh {
			n.last = st
		}
	}
	out := n.twist.Step(now)
	if out.Throttle > 0 && out.Brake > 0 {
		t.Fatalf("throttle %v and brake %v together", out.Throttle, out.Brake)
	}
	if n.sent {
		if err := n.bridge.SetControl(out.Control(), now); err != nil {
			t.Fatal(err)
		}
	}
	n.period(t)
	s, _ := n.bridge.Latest()
	return s
}

func (n *nodeRig) start(t *testing.T) {
	t.Helper()
	for i := 0; !n.bridge.Started(); i++ {
		if i > 500 {
			t.Fatal("not started after 5 s of vehicle time")
		}
		n.step(t, nil)
	}
}

// TestNodesClosedLoopSpeedStep: the speed step through the
// three-node split (one period more of delay than the single-process
// bridge) meets the same specification.
func TestNodesClosedLoopSpeedStep(t *testing.T) {
	n := newNodeRig(t)
	n.start(t)
	cmd := control.Twist{V: 1.5}
	var ts, v []float64
	begin := n.now()
	for i := 0; i < 600; i++ {
		var c *control.Twist
		if i%5 == 0 {
			c = &cmd
		}
		s := n.step(t, c)
		if s.Output.Stale || !s.Output.Enable {
			t.Fatalf("period %d: bridge sent stale or disabled control %+v", i, s.Output)
		}
		ts = append(ts, n.now().Sub(begin).Seconds())
		v = append(v, s.Status.Traction.SpeedMPS())
	}
	os, settle, sse := steptest.StepMetrics(ts, v, 1.5, 0.02)
	t.Logf("three-node split over UDP (lock-step), step 0 -> 1.5 m/s: overshoot %.2f %% (limit 5), settling into ±2 %% %.2f s (limit 3), steady-state error %.4f m/s (limit 0.02)",
		os*100, settle, sse)
	if os >= 0.05 || settle > 3 || sse >= 0.02 {
		t.Error("step response out of specification")
	}
	// The odometry has seen the status up to the previous period: give
	// it the latest, which is the simulator's state now.
	s, _ := n.bridge.Latest()
	if st, ok := n.odom.Traction(s.Status.Traction, s.Status.Timestamp, n.now()); ok {
		n.last = st
	}
	truth := n.sim.Truth()
	if d := n.last.Distance; math.Abs(d-truth.Distance) > 0.01*truth.Distance {
		t.Errorf("odometry distance %.3f m, simulator %.3f m: off by more than 1 %%", d, truth.Distance)
	}
	t.Logf("odometry from the published traction: %.3f m, simulator %.3f m", n.last.Distance, truth.Distance)
}

// TestNodesStaleCommandAndSignals: a silent cmd_vel brakes the vehicle to
// a stop (twist control), and silent control signals (twist control gone)
// make the bridge send disabled full-brake frames after ControlTimeout.
func TestNodesStaleCommandAndSignals(t *testing.T) {
	n := newNodeRig(t)
	n.start(t)
	cmd := control.Twist{V: 2}
	for i := 0; i < 400; i++ {
		var c *control.Twist
		if i%5 == 0 || i == 399 {
			c = &cmd
		}
		n.step(t, c)
	}
	if v := n.sim.Truth().V; v < 1.9 {
		t.Fatalf("speed %v before the command stops, want about 2", v)
	}
	// cmd_vel goes silent: 0.5 s timeout, then braking.
	stopped := -1
	for i := 0; i < 500 && stopped < 0; i++ {
		s := n.step(t, nil)
		if i < 49 && s.Output.Brake > 0 {
			t.Fatalf("period %d: braking before the command timeout", i)
		}
		if math.Abs(n.sim.Truth().V) < 0.01 {
			stopped = i
		}
	}
	if stopped < 0 {
		t.Fatal("vehicle not stopped 5 s after cmd_vel went silent")
	}
	t.Logf("stale cmd_vel: stopped %d ms after the last command", stopped*10)

	// Drive again, then the twist control node disappears.
	for i := 0; i < 200; i++ {
		var c *control.Twist
		if i%5 == 0 {
			c = &cmd
		}
		n.step(t, c)
	}
	n.sent = false
	timeout := furbot.DefaultBridgeConfig().ControlTimeout
	for i := 0; ; i++ {
		s := n.step(t, &cmd)
		late := time.Duration(i+1) * 10 * time.Millisecond
		if late <= timeout && !s.Control.Enabled() {
			t.Fatalf("disabled %v after the last signals, before the %v timeout", late, timeout)
		}
		if late > timeout+10*time.Millisecond {
			if s.Control.Enabled() || s.Control.Brake != wire.PedalMax || s.Control.Throttle != 0 || !s.Output.Stale {
				t.Fatalf("%v after the last signals the bridge sent %+v, want disabled full brake", late, s.Control)
			}
			break
		}
	}
}

// TestNodesEStopAndRelease: the bridge's e-stop stops the vehicle against a
// live cmd_vel; the twist control holds (no wind-up) while the vehicle
// reports it, and on release the vehicle drives again, smoothly.
func TestNodesEStopAndRelease(t *testing.T) {
	n := newNodeRig(t)
	n.start(t)
	cmd := control.Twist{V: 1.5}
	drive := func(periods int, each func(furbot.Snapshot)) {
		for i := 0; i < periods; i++ {
			var c *control.Twist
			if i%5 == 0 {
				c = &cmd
			}
			s := n.step(t, c)
			if each != nil {
				each(s)
			}
		}
	}
	drive(400, nil)
	n.bridge.SetEStop(true)
	drive(300, func(s furbot.Snapshot) {
		if s.Control.Flags&wire.FlagEStop == 0 || s.Control.Brake != wire.PedalMax {
			t.Fatalf("e-stop latched, bridge sent %+v", s.Control)
		}
	})
	if v := n.sim.Truth().V; math.Abs(v) > 0.01 {
		t.Fatalf("speed %v 3 s after the e-stop, want 0", v)
	}
	n.bridge.SetEStop(false)
	peak := 0.0
	drive(600, func(s furbot.Snapshot) { peak = math.Max(peak, s.Status.Traction.SpeedMPS()) })
	v := n.sim.Truth().V
	t.Logf("after release: %.3f m/s (peak %.3f) for a 1.5 m/s command", v, peak)
	if math.Abs(v-1.5) > 0.02 || peak > 1.5*1.05 {
		t.Errorf("after release: speed %v, peak %v; want 1.5 within 0.02, overshoot under 5 %%", v, peak)
	}
}

// The joint states from the bridge's telemetry, through the three-node
// split in lock-step over UDP, against the simulator's truth: a left arc.
func TestJointStatesMatchSimulator(t *testing.T) {
	n := newNodeRig(t)
	n.start(t)
	odo := node.DefaultOdomNodeConfig().Odometry
	js, err := node.NewJointStates(odo)
	if err != nil {
		t.Fatal(err)
	}
	R, L, T := odo.WheelRadius, odo.Wheelbase, odo.Track
	// Expected front wheel angles from the truth (speed, steering) alone.
	var expFL, expFR float64
	cmd := control.Twist{V: 1.0, W: 0.25}
	start := n.sim.Truth()
	prev := start
	for i := 0; i < 800; i++ {
		var c *control.Twist
		if i%5 == 0 {
			c = &cmd
		}
		s := n.step(t, c)
		js.Steering(s.Status.Steering)
		js.Traction(s.Status.Traction, s.Status.Timestamp)
		tr := n.sim.Truth()
		dt := tr.T - prev.T
		for _, w := range []struct {
			exp *float64
			y   float64
		}{{&expFL, T / 2}, {&expFR, -T / 2}} {
			st := math.Tan(prev.Steer)
			*w.exp += prev.V * math.Hypot(L*st, L-w.y*st) / L * dt / R
		}
		prev = tr
	}
	// The latest status the bridge received is the simulator's state one
	// period ago: compare with that.
	truth := prev
	yaw := truth.Yaw - start.Yaw
	dist := truth.Distance - start.Distance
	if yaw < 0.5 || dist < 4 {
		t.Fatalf("the vehicle did not drive the arc: %.2f m, %.2f rad", dist, yaw)
	}
	angle := func(name string) float64 {
		i := slices.Index(js.Name, name)
		return js.Position[i]
	}
	diff := func(a, b float64) float64 { return math.Abs(math.Remainder(a-b, 2*math.Pi)) }
	sl, sr := control.AckermannAngles(truth.Steer, L, T)
	for _, c := range []struct {
		name      string
		want, tol float64
	}{
		// Rear wheels: the path of each wheel (the axle middle's path
		// -+ half the track times the yaw) over the radius. 1 % of the
		// distance in wheel radians, for the quantisation of the speeds
		// (0.01 rad/s) and the period the bridge lags.
		{node.JointRearLeftWheel, (dist - yaw*T/2) / R, 0.01 * dist / R},
		{node.JointRearRightWheel, (dist + yaw*T/2) / R, 0.01 * dist / R},
		{node.JointFrontLeftWheel, expFL, 0.01 * dist / R},
		{node.JointFrontRightWheel, expFR, 0.01 * dist / R},
		// Steering: the telemetry's 0.01 degree and one period of the
		// steering rate.
		{node.JointFrontLeftSteer, sl, 0.01},
		{node.JointFrontRightSteer, sr, 0.01},
	} {
		if d := diff(angle(c.name), c.want); d > c.tol {
			t.Errorf("%s = %.4f, simulator says %.4f (off by %.4f, tolerance %.4f)", c.name, angle(c.name), math.Remainder(c.want, 2*math.Pi), d, c.tol)
		}
	}
	if !(sl > sr && sr > 0) {
		t.Errorf("left arc: steering joints %.3f (left) and %.3f (right)", sl, sr)
	}
	t.Logf("arc of %.2f m, %.2f rad: rear wheels %.4f / %.4f rad (mod 2pi), steering %.4f / %.4f rad",
		dist, yaw, angle(node.JointRearLeftWheel), angle(node.JointRearRightWheel), angle(node.JointFrontLeftSteer), angle(node.JointFrontRightSteer))
}
