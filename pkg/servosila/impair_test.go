package servosila_test

import (
	"context"
	"math"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
	"github.com/telebridge/telebridge/internal/testkit/simrig"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/impair"
	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/node"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
)

// The tests in this file run the driver against the simulator in real
// time through the impairment proxy (pkg/impair) and judge the outcome
// from the simulator's truth, waiting for the asserted conditions with
// deadlines far beyond what an idle machine needs.

// impRig is the shared rig (internal/testkit/simrig: a simulator with
// telemetry at 10 Hz, a proxy and a driver) and an operator that re-sends
// its command at 20 Hz.
type impRig struct {
	*simrig.Rig[*servosilasim.Sim, *servosila.Driver]
	proxy *impair.Proxy
	drv   *servosila.Driver

	cmdMu sync.Mutex
	lin   float64 // operator command, re-sent at 20 Hz while sending
	ang   float64
	send  bool
}

func newImpRig(t *testing.T, seed uint64, up, down impair.Impairment) *impRig {
	t.Helper()
	return newImpRigAt(t, seed, up, down, 10, 10)
}

// newImpRigAt is newImpRig with the simulator's telemetry rate and the
// driver's keep-alive rate [Hz].
func newImpRigAt(t *testing.T, seed uint64, up, down impair.Impairment, telemetryRate, sendRate float64) *impRig {
	t.Helper()
	rig := simrig.New(t, simrig.Config[*servosilasim.Sim, *servosila.Driver]{
		Seed: seed, Up: up, Down: down,
		NewSim: func(listen string) (*servosilasim.Sim, error) {
			return servosilasim.New(servosilasim.Config{Listen: listen, TelemetryRate: telemetryRate})
		},
		NewDriver: func(at netip.AddrPort) (*servosila.Driver, func(context.Context) error, error) {
			drv, err := servosila.New(servosila.Config{Robot: at.String(), Local: "127.0.0.1:0", SendRate: sendRate})
			if err != nil {
				return nil, nil, err
			}
			return drv, drv.Run, nil
		},
	})
	r := &impRig{Rig: rig, proxy: rig.Proxy, drv: rig.Driver}
	runtest.Go(t, "operator", r.operate)
	return r
}

func (r *impRig) truth() servosilasim.State { return r.Sim().State() }

// command sets what the operator holds (re-sent at 20 Hz); stop ends it.
func (r *impRig) command(lin, ang float64) {
	r.cmdMu.Lock()
	r.lin, r.ang, r.send = lin, ang, true
	r.cmdMu.Unlock()
}

func (r *impRig) stopCommanding() {
	r.cmdMu.Lock()
	r.send = false
	r.cmdMu.Unlock()
}

func (r *impRig) operate(ctx context.Context) error {
	tk := time.NewTicker(50 * time.Millisecond)
	defer tk.Stop()
	for {
		r.cmdMu.Lock()
		lin, ang, send := r.lin, r.ang, r.send
		r.cmdMu.Unlock()
		if send {
			if err := r.drv.SetTwist(lin, ang); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tk.C:
		}
	}
}

// TestImpairedLossAndJitter: 15 % loss and 0-20 ms jitter both ways. The
// robot still executes the command: the truth holds 0.3 m/s (±1 mm/s, the axis quantisation) for
// 3 s of its time in a row (waited for, so a CPU stall delays the test
// rather than failing it), and the counters show the losses.
func TestImpairedLossAndJitter(t *testing.T) {
	t.Parallel()
	link := impair.Impairment{Loss: 0.15, Jitter: 20 * time.Millisecond}
	r := newImpRig(t, 21, link, link)
	r.command(0.3, 0)
	var since time.Time
	runtest.WaitFor(t, 30*time.Second, "3 s at 0.3 m/s", func() bool {
		s := r.truth()
		switch {
		case math.Abs(s.Linear-0.3) > 1e-3 || !s.LinkUp:
			since = time.Time{}
		case since.IsZero():
			since = s.At
		}
		return !since.IsZero() && s.At.Sub(since) >= 3*time.Second
	})
	st := r.drv.Status()
	up, down := r.proxy.Stats(impair.Up), r.proxy.Stats(impair.Down)
	t.Logf("lost up %d/%d, down %d/%d; driver link losses %d, telemetry accepted %d", up.Lost(), up.Received, down.Lost(), down.Received,
		st.LinkState.Losses, st.Link.Accepted)
	if up.LostRandom == 0 || down.LostRandom == 0 {
		t.Errorf("no loss: up %+v down %+v", up, down)
	}
}

// TestImpairedStaleTelemetryNeverWins: 30 % of the telemetry packets
// duplicated and 30 % held back 150 ms (longer than the 100 ms interval):
// the driver's telemetry tick never goes back, and the old packets are
// counted.
func TestImpairedStaleTelemetryNeverWins(t *testing.T) {
	t.Parallel()
	r := newImpRig(t, 22, impair.Impairment{}, impair.Impairment{Duplicate: 0.3, Reorder: 0.3, ReorderDelay: 150 * time.Millisecond})
	r.command(0, 0)
	var last uint64
	runtest.WaitFor(t, 30*time.Second, "5 old telemetry packets dropped", func() bool {
		tel, _, ok := r.drv.Telemetry()
		if ok {
			if tel.Tick < last {
				t.Fatalf("telemetry tick went back from %d to %d", last, tel.Tick)
			}
			last = tel.Tick
		}
		return r.drv.Status().LinkState.OldTelemetry >= 5
	})
}

// TestImpairedBlackout is the scenario: driving forward, the link
// goes dark both ways and the operator asks for a turn. The robot stops on
// its own link timeout and never turns; the driver declares the link lost,
// sends zeros, claims no motion, inflates the covariance so that it covers
// the dead-reckoning error, and its diagnostics say so. When the link is
// back nothing moves until a fresh command.
func TestImpairedBlackout(t *testing.T) {
	t.Parallel()
	r := newImpRig(t, 23, impair.Impairment{}, impair.Impairment{})
	r.command(0.3, 0)
	runtest.WaitFor(t, 30*time.Second, "0.5 m forward", func() bool { return r.truth().Distance > 0.5 })
	r.Blackout(true)
	r.command(0, 0.5)
	runtest.WaitFor(t, 30*time.Second, "the driver to declare the link lost", func() bool { return r.drv.Status().LinkState.Lost })
	runtest.WaitFor(t, 30*time.Second, "the robot to stop on its link timeout", func() bool {
		s := r.truth()
		return !s.LinkUp && s.Linear == 0 && s.Angular == 0
	})
	st := r.drv.Status()
	if c := st.Last.Command; c.Linear != 0 || c.Angular != 0 {
		t.Errorf("driver sends %+v while the link is lost, want zeros", c)
	}
	// Dead reckoning claims nothing more while lost.
	n := st.Sent
	runtest.WaitFor(t, 30*time.Second, "5 more ticks", func() bool { return r.drv.Status().Sent >= n+5 })
	st2 := r.drv.Status()
	if st2.Odometry.Pose != st.Odometry.Pose {
		t.Errorf("odometry moved while the link was lost: %+v -> %+v", st.Odometry.Pose, st2.Odometry.Pose)
	}
	truth := r.truth()
	ex := st2.Odometry.Pose.X - truth.Pose.X
	eyaw := st2.Odometry.Pose.Yaw - truth.Pose.Yaw
	sx, syaw := math.Sqrt(st2.Odometry.PoseCovariance[0]), math.Sqrt(st2.Odometry.PoseCovariance[35])
	t.Logf("odometry x %.3f yaw %.3f, truth x %.3f yaw %.3f; sigma x %.3f yaw %.3f; lost after %v",
		st2.Odometry.Pose.X, st2.Odometry.Pose.Yaw, truth.Pose.X, truth.Pose.Yaw, sx, syaw, st2.LinkState.LostAfter)
	if math.Abs(truth.Pose.Yaw) > 1e-9 {
		t.Errorf("the robot turned (yaw %.3f) during the blackout", truth.Pose.Yaw)
	}
	if math.Abs(ex) > 2*sx+0.02 || math.Abs(eyaw) > 2*syaw+0.02 {
		t.Errorf("dead-reckoning error x %.3f m, yaw %.3f rad not covered by 2 sigma (%.3f m, %.3f rad)", ex, eyaw, sx, syaw)
	}
	d := node.Diagnose(r.drv.Config(), st2, time.Now(), true, time.Now())
	if d.Level != diag.Error || !strings.Contains(d.Message, "link lost") {
		t.Errorf("diagnostics %v %q, want an error saying the link is lost", d.Level, d.Message)
	}

	r.stopCommanding()
	r.Blackout(false)
	runtest.WaitFor(t, 30*time.Second, "the link back", func() bool { return !r.drv.Status().LinkState.Lost && r.truth().LinkUp })
	p := r.truth().Packets
	runtest.WaitFor(t, 30*time.Second, "20 packets at the robot", func() bool { return r.truth().Packets >= p+20 })
	if s := r.truth(); s.Linear != 0 || s.Angular != 0 {
		t.Fatalf("robot moves (%.2f m/s, %.2f rad/s) after the link came back without a fresh command", s.Linear, s.Angular)
	}
	d0 := r.truth().Distance
	r.command(0.3, 0)
	runtest.WaitFor(t, 30*time.Second, "motion on a fresh command", func() bool { return r.truth().Distance > d0+0.1 })
}

// TestRobotReboot: the simulator is killed mid-drive and a new one
// started on the same port. The driver, never restarted, follows the new
// telemetry counter (resync) and drives the new robot.
func TestRobotReboot(t *testing.T) {
	t.Parallel()
	r := newImpRig(t, 24, impair.Impairment{}, impair.Impairment{})
	r.command(0.3, 0)
	runtest.WaitFor(t, 30*time.Second, "0.6 m forward", func() bool { return r.truth().Distance > 0.6 })
	r.Reboot(nil)
	runtest.WaitFor(t, 30*time.Second, "the rebooted robot to drive 0.3 m", func() bool { return r.truth().Distance > 0.3 })
	st := r.drv.Status()
	if st.LinkState.Resyncs == 0 {
		t.Errorf("no telemetry resync after the reboot: %+v", st.LinkState)
	}
	runtest.WaitFor(t, 30*time.Second, "the link up", func() bool { return !r.drv.Status().LinkState.Lost })
}
