package furbot_test

import (
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

func TestClosedLoopReverse(t *testing.T) {
	l := newLockRig(t, furbot.BridgeConfig{})
	l.startLock(t)
	fwd := control.Twist{V: 1}
	l.drive(t, 300, &fwd, nil)
	back := control.Twist{V: -1}
	xTurn := 0.0
	l.drive(t, 800, &back, func(int) {
		s, _ := l.bridge.Latest()
		tr := l.sim.Truth()
		if tr.V > 0.05 && s.Output.Throttle > 0 {
			t.Fatalf("throttle %v while still rolling forwards at %v m/s with a reverse target", s.Output.Throttle, tr.V)
		}
		if tr.V > 0 {
			xTurn = tr.X
		}
	})
	tr := l.sim.Truth()
	s, _ := l.bridge.Latest()
	t.Logf("forward 1 m/s then -1 m/s: turned around at x %.3f m, now v %.3f m/s at x %.3f m; odometry x %.3f m; reverse flag %d",
		xTurn, tr.V, tr.X, s.Odom.Pose.X, s.Status.Traction.Reverse)
	if tr.V > -0.98 || tr.V < -1.02 || s.Status.Traction.Reverse != 1 {
		t.Errorf("speed %v reverse %d, want -1 m/s in reverse gear", tr.V, s.Status.Traction.Reverse)
	}
	if tr.X >= xTurn || s.Odom.Pose.X >= xTurn {
		t.Errorf("did not move back: truth x %v, odometry x %v, turn at %v", tr.X, s.Odom.Pose.X, xTurn)
	}
}

func TestClosedLoopEmergencyStop(t *testing.T) {
	l := newLockRig(t, furbot.BridgeConfig{})
	l.startLock(t)
	cmd := control.Twist{V: 2}
	l.drive(t, 400, &cmd, nil)
	v0 := l.sim.Truth().V
	l.bridge.SetEStop(true)
	var stopAfter time.Duration
	start := l.now()
	l.drive(t, 300, &cmd, func(int) { // the command keeps coming: e-stop wins
		if stopAfter == 0 && l.sim.Truth().V == 0 {
			stopAfter = l.now().Sub(start)
		}
	})
	c, _, _ := l.sim.LastControl()
	t.Logf("e-stop at %.2f m/s: standstill after %v; frame flags %#x brake %d", v0, stopAfter, c.Flags, c.Brake)
	if stopAfter == 0 || c.Flags&wire.FlagEStop == 0 || c.Brake != wire.PedalMax || c.Throttle != 0 {
		t.Errorf("e-stop: stopped after %v, last frame %+v", stopAfter, c)
	}
	l.bridge.SetEStop(false)
	l.drive(t, 300, &cmd, nil)
	if v := l.sim.Truth().V; v < 1 {
		t.Errorf("speed %v after releasing the e-stop with a fresh command, want driving again", v)
	}
}

func TestClosedLoopLinkLossDisables(t *testing.T) {
	l := newLockRig(t, furbot.BridgeConfig{})
	l.startLock(t)
	cmd := control.Twist{V: 1.5}
	l.drive(t, 300, &cmd, nil)
	// The vehicle falls silent: only the bridge runs.
	timeout := l.bridge.Config().LinkTimeout
	var disabledAfter time.Duration
	start := l.now()
	for i := 0; i < 50; i++ {
		_ = l.bridge.SetCommand(cmd)
		if err := l.bridge.Step(l.ctx); err != nil {
			t.Fatal(err)
		}
		s, _ := l.bridge.Latest()
		if disabledAfter == 0 && !s.Ready {
			disabledAfter = l.now().Sub(start)
			if s.Output.Mode != control.ModeDisabled || s.Control.Flags&wire.FlagEnable != 0 || s.Control.Brake != wire.PedalMax {
				t.Errorf("link lost: output %+v frame %+v, want disabled with full brake", s.Output, s.Control)
			}
		}
		l.ns.Add(int64(10 * time.Millisecond))
	}
	t.Logf("vehicle silent: bridge disabled the vehicle after %v (link timeout %v)", disabledAfter, timeout)
	if disabledAfter <= timeout-10*time.Millisecond || disabledAfter > timeout+20*time.Millisecond {
		t.Errorf("disabled after %v, want at the %v link timeout", disabledAfter, timeout)
	}
}
