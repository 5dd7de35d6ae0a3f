package arm_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
	"github.com/telebridge/telebridge/pkg/impair"
	"github.com/telebridge/telebridge/pkg/servosila"
	servosilaarm "github.com/telebridge/telebridge/pkg/servosila/arm"
	"github.com/telebridge/telebridge/pkg/servosila/control"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
	"github.com/telebridge/telebridge/pkg/trajectory"
	"github.com/telebridge/telebridge/pkg/trajectory/server"
)

// trajRig is the simulator, a relay that can black the link out, a driver
// and a trajectory server on the driver's arm, over loopback UDP.
type trajRig struct {
	sim   *servosilasim.Sim
	proxy *impair.Proxy
	drv   *servosila.Driver
	srv   *server.Server
}

func sec(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// startTrajRig starts the rig; tune changes the follower's configuration
// (the arm's joints and limits) before the server is made.
func startTrajRig(t *testing.T, tune func(*trajectory.Config)) *trajRig {
	t.Helper()
	sim, err := servosilasim.New(servosilasim.Config{TelemetryRate: 50, PhysicsRate: 200})
	if err != nil {
		t.Fatal(err)
	}
	runtest.Go(t, "simulator", sim.Run)
	p, err := impair.New(impair.Config{Upstream: sim.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	runtest.Go(t, "relay", p.Run)
	drv, err := servosila.New(servosila.Config{
		Robot: p.Addr().String(), Local: "127.0.0.1:0", SendRate: 50,
		CommandTimeout: 300 * time.Millisecond,
		MaxJoint:       [wire.NumJoints]float64{1, 1, 1, 1, 1, 1},
		Arm:            control.ArmConfig{Gain: 5, Tolerance: tolerance, Timeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	runtest.Go(t, "driver", drv.Run)
	arm, err := servosilaarm.New(servosilaarm.Config{Driver: drv})
	if err != nil {
		t.Fatal(err)
	}
	cfg := arm.TrajectoryConfig()
	if tune != nil {
		tune(&cfg)
	}
	srv, err := server.New(server.Config{Arm: arm, Follower: cfg, Period: 20 * time.Millisecond, StateTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := &trajRig{sim: sim, proxy: p, drv: drv, srv: srv}
	q := make([]float64, 4)
	(&rig{sim: sim}).waitFor(t, "first telemetry", 2*time.Second, func() bool { _, err := arm.JointPositions(q); return err == nil })
	runtest.Go(t, "trajectory server", func(ctx context.Context) error {
		if err := srv.Run(ctx); !errors.Is(err, context.Canceled) {
			return err
		}
		return nil
	})
	return r
}

func (r *trajRig) truth() []float64 { return (&rig{sim: r.sim}).truth() }

// waitDone waits for h to end, within.
func waitDone(t *testing.T, h *server.Handle, within time.Duration) trajectory.Result {
	t.Helper()
	select {
	case <-h.Done():
		return h.Result()
	case <-time.After(within):
		t.Fatalf("goal not ended within %v", within)
	}
	return trajectory.Result{}
}

// still waits until the truth has not moved by 1e-4 rad over 0.3 s, and
// returns it.
func (r *trajRig) still(t *testing.T, within time.Duration) []float64 {
	t.Helper()
	end := time.Now().Add(within)
	from := r.truth()
	for {
		time.Sleep(300 * time.Millisecond)
		now := r.truth()
		if maxAbsDiff(now, from) < 1e-4 {
			return now
		}
		if time.Now().After(end) {
			t.Fatalf("arm still moving %v after: %v -> %v", within, from, now)
		}
		from = now
	}
}

// A 3-point trajectory of the waist and the shoulder (the elbow and the
// neck unnamed: they hold) is followed by the simulated robot through the
// driver: the truth, read with the wall-clock time, is compared with the
// trajectory at that time (a second Follower of the same stamped goal).
// At each knot's time (the sample nearest to it, when one lies within
// 20 ms) the truth is within 0.04 rad of the knot, 90 % of all samples
// are within 0.03 rad of the trajectory, and the goal succeeds within its
// goal tolerance. Percentiles and nearest samples, not every sample: a
// stall of this process (simulator included) on a loaded machine lets
// the robot run on, which says nothing about the follower.
func TestServosilaFollowsThreePoints(t *testing.T) {
	r := startTrajRig(t, nil)
	start := time.Now().Add(50 * time.Millisecond)
	g := &trajectory.Goal{JointNames: []string{"shoulder", "waist"}, Start: start,
		PathTolerance: []trajectory.Tolerance{{Name: "waist", Position: 0.3}, {Name: "shoulder", Position: 0.3}},
		GoalTolerance: []trajectory.Tolerance{{Name: "waist", Position: 0.02}, {Name: "shoulder", Position: 0.02}},
		GoalTime:      sec(3),
		Points: []trajectory.Point{
			{Positions: []float64{-0.2, 0.3}, Velocities: []float64{0, 0.4}, TimeFromStart: sec(1)},
			{Positions: []float64{0.1, 0.6}, Velocities: []float64{0.2, 0}, TimeFromStart: sec(2)},
			{Positions: []float64{0, 0.3}, Velocities: []float64{0, 0}, TimeFromStart: sec(3)},
		}}
	ref, err := trajectory.New(trajectory.Config{Joints: r.srv.Joints(), AllowPartial: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Start(g, time.Now(), trajectory.State{Positions: make([]float64, 4)}); err != nil {
		t.Fatal(err)
	}
	h, err := r.srv.Submit(g, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	sp := trajectory.Setpoint{Positions: make([]float64, 4), Velocities: make([]float64, 4), Accelerations: make([]float64, 4)}
	var errs []float64
	type nearest struct {
		off, dist float64 // |sample time − knot time| [s], truth to knot [rad]
	}
	knots := []nearest{{1, 0}, {1, 0}, {1, 0}}
	for done := false; !done; {
		select {
		case <-h.Done():
			done = true
		case <-time.After(5 * time.Millisecond):
		}
		t1 := time.Now()
		q := r.truth() // waist, shoulder, elbow, neck: the server's order
		if time.Since(t1) > 2*time.Millisecond || t1.Before(start) {
			continue
		}
		ref.Desired(t1, sp)
		errs = append(errs, maxAbsDiff(q, sp.Positions))
		for k, p := range g.Points {
			if off := math.Abs(t1.Sub(start.Add(p.TimeFromStart)).Seconds()); off < knots[k].off {
				knots[k] = nearest{off, math.Max(math.Abs(q[0]-p.Positions[1]), math.Abs(q[1]-p.Positions[0]))}
			}
		}
	}
	res := h.Result()
	if res.Status != trajectory.Succeeded {
		t.Fatalf("result %+v", res)
	}
	judged := 0
	for k, n := range knots {
		t.Logf("knot %d: truth %.4f rad from it %.1f ms from its time", k, n.dist, 1e3*n.off)
		if n.off > 0.02 {
			continue
		}
		judged++
		if n.dist > 0.04 {
			t.Errorf("knot %d: truth %.4f rad from it at its time, want within 0.04", k, n.dist)
		}
	}
	if judged == 0 {
		t.Errorf("no sample within 20 ms of any knot")
	}
	if len(errs) < 60 {
		t.Fatalf("only %d samples", len(errs))
	}
	slices.Sort(errs)
	p90 := errs[len(errs)*9/10]
	t.Logf("distance from the trajectory over %d samples: median %.4f rad, 90th percentile %.4f, largest %.4f", len(errs), errs[len(errs)/2], p90, errs[len(errs)-1])
	if p90 > 0.03 {
		t.Errorf("90th percentile of the distance from the trajectory %.4f rad, want within 0.03", p90)
	}
	if q := r.still(t, 5*time.Second); math.Abs(q[0]-0.3) > 0.02 || math.Abs(q[1]) > 0.02 || math.Abs(q[2]) > 1e-3 || math.Abs(q[3]) > 1e-3 {
		t.Errorf("arm rests at %v, want waist 0.3 and shoulder 0, the others at 0", q)
	}
}

// A trajectory faster than the driver lets the joint go (the follower is
// told 3 rad/s, the driver clamps at 1) leaves the path tolerance: the
// goal aborts with PATH_TOLERANCE_VIOLATED and the robot stops near where
// it was, far from the goal.
func TestServosilaPathToleranceStops(t *testing.T) {
	r := startTrajRig(t, func(c *trajectory.Config) { c.MaxVelocity = []float64{3, 3, 3, 3} })
	g := &trajectory.Goal{JointNames: []string{"waist"},
		PathTolerance: []trajectory.Tolerance{{Name: "waist", Position: 0.15}},
		Points:        []trajectory.Point{{Positions: []float64{1.5}, Velocities: []float64{0}, TimeFromStart: sec(1)}}}
	h, err := r.srv.Submit(g, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	res := waitDone(t, h, 3*time.Second)
	if res.Status != trajectory.Aborted || res.Code != trajectory.PathToleranceViolated {
		t.Fatalf("result %+v", res)
	}
	at := r.truth()
	t.Logf("%s; robot at %.3f rad", res.Msg, at[0])
	q := r.still(t, 5*time.Second)
	if q[0] > 1.0 || math.Abs(q[0]-at[0]) > 0.3 {
		t.Errorf("robot came to rest at %.3f rad (%.3f at the abort), want near the abort and far from 1.5", q[0], at[0])
	}
}

// Telemetry lost mid-trajectory (the link's downstream blacked out):
// the goal aborts once the joint state is older than the server's
// StateTimeout, and the driver's lost-link safety stops the robot, which
// stays still, short of the goal.
func TestServosilaLostTelemetryStops(t *testing.T) {
	r := startTrajRig(t, nil)
	g := &trajectory.Goal{JointNames: []string{"waist"},
		Points: []trajectory.Point{{Positions: []float64{0.4}, Velocities: []float64{0.5}, TimeFromStart: sec(1)}, {Positions: []float64{1.2}, Velocities: []float64{0}, TimeFromStart: sec(3)}}}
	h, err := r.srv.Submit(g, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(sec(1.2))
	r.proxy.SetBlackout(impair.Down, true)
	res := waitDone(t, h, 3*time.Second)
	if res.Status != trajectory.Aborted {
		t.Fatalf("result %+v", res)
	}
	t.Logf("%s", res.Msg)
	time.Sleep(sec(1.5)) // the driver's lost-link timeout (about 1 s at 50 Hz telemetry)
	q := r.still(t, 3*time.Second)
	if q[0] > 1.0 {
		t.Errorf("robot went on to %.3f rad without telemetry", q[0])
	}
}
