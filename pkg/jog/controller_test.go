package jog_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/jog"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/tf"
	"gonum.org/v1/gonum/spatial/r3"
)

// TestWorkedExample is the drag&bot page's example, exactly: the goal
// (0,0,0.01,0,0,0) in the extra frame (-2,0,2,0,0,0) on tf frame A, with
// base -> A = (1,0,0,0,0,0), is (-1,0,2.01,0,0,0) in the base.
func TestWorkedExample(t *testing.T) {
	buf, err := tf.New(tf.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := buf.SetStatic("base_link", "A", geom.FromXYZEuler(1, 0, 0, 0, 0, 0)); err != nil {
		t.Fatal(err)
	}
	baseToA, err := buf.Lookup("base_link", "A", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	req := jog.CartesianMoveRequest{
		PoseReference:     "A",
		Pose:              jog.EulerPose{Z: 0.01},
		UseReferenceFrame: true,
		ReferenceFrame:    jog.EulerPose{X: -2, Z: 2},
		Speed:             1,
	}
	got := jog.EulerPoseOf(jog.CartesianGoalInBase(baseToA, req))
	if want := (jog.EulerPose{X: -1, Y: 0, Z: 2.01}); got != want {
		t.Fatalf("goal in base = %+v, want exactly %+v", got, want)
	}
}

// TestCartesianGoalThroughFrames: the same rule through the controller,
// with a reachable goal: the arm gets there.
func TestCartesianGoalThroughFrames(t *testing.T) {
	buf, _ := tf.New(tf.Config{})
	_ = buf.SetStatic("base_link", "A", geom.FromXYZEuler(0.1, 0.2, 0, math.Pi/2, 0, 0))
	r := newRig(t, jog.Config{Frames: buf}, home)
	req := jog.CartesianMoveRequest{
		PoseReference:     "A",
		Pose:              jog.EulerPose{X: 0.05, Z: 0.02, RZ: 0.1},
		UseReferenceFrame: true,
		ReferenceFrame:    jog.EulerPose{X: 0.2, Y: -0.3, Z: 0.3, RX: math.Pi},
		Speed:             1,
	}
	// Expected by hand: A turns x into y; the extra frame is flipped
	// about x, so its +z is the base's -z.
	// Base position: (0.1,0.2,0) + Rz(90)(0.2,-0.3,0.3) + Rz(90)Rx(180)(0.05,0,0.02)
	//              = (0.1,0.2,0) + (0.3,0.2,0.3) + (0,0.05,-0.02) = (0.4,0.45,0.28).
	want := geom.Translation(0.4, 0.45, 0.28)
	if err := r.ctrl.StartCartesianMove(r.now(), req); err != nil {
		t.Fatal(err)
	}
	r.runUntilIdle(2000)
	got, _ := r.ctrl.Chain().FK(r.arm.Positions())
	if d, _ := geom.Distance(got, want); d > 2e-3 {
		t.Fatalf("tool at %v, want position %v", got, want)
	}
	wantRot := geom.FromEulerZYX(math.Pi/2, 0, 0).Mul(geom.FromEulerZYX(0, 0, math.Pi)).Mul(geom.FromEulerZYX(0.1, 0, 0))
	if a := got.Rotation.AngleTo(wantRot); a > 5e-3 {
		t.Fatalf("tool orientation off by %g rad", a)
	}
}

func TestHeartbeatTimeoutStopsMotion(t *testing.T) {
	for _, timeout := range []float64{0.2, 0.5} {
		r := newRig(t, jog.Config{}, home)
		if timeout != 0.2 {
			if err := r.ctrl.SetHeartbeatTimeout(timeout); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1}); err != nil {
			t.Fatal(err)
		}
		for range 10 {
			if _, ok, _ := r.beatAndCycle(); !ok {
				t.Fatal("no target while jogging")
			}
		}
		lastBeat := r.now().Add(-r.period)
		var stoppedAt time.Time
		for range 40 {
			now := r.now()
			tg, ok, _ := r.cycle()
			if ok && tg.Hold {
				stoppedAt = now
				break
			}
		}
		if stoppedAt.IsZero() {
			t.Fatalf("timeout %g s: motion never stopped", timeout)
		}
		limit := time.Duration(timeout*float64(time.Second)) + r.period
		if late := stoppedAt.Sub(lastBeat); late > limit {
			t.Fatalf("timeout %g s: stopped %v after the last heartbeat, more than %v", timeout, late, limit)
		} else if late <= time.Duration(timeout*float64(time.Second)) {
			t.Fatalf("timeout %g s: stopped after only %v", timeout, late)
		}
		if s := r.ctrl.Status(); s.Mode != jog.Stopping || s.Reason != "heartbeat timeout" {
			t.Fatalf("status %+v", s)
		}
		// The deceleration lasts at most max_stop_time (0.5 s).
		if n := r.untilIdle(12); time.Duration(n)*r.period > 500*time.Millisecond+r.period {
			t.Fatalf("stop took %d cycles", n)
		}
		if s := r.ctrl.Status(); s.Reason != "heartbeat timeout" {
			t.Fatalf("status %+v", s)
		}
		// At rest: nothing more is sent and the arm stays.
		for range 5 {
			r.arm.Advance(r.period)
		}
		settled := r.arm.Positions()
		for range 20 {
			if tg, ok, _ := r.cycle(); ok {
				t.Fatalf("sent %+v after the stop", tg)
			}
		}
		if d := maxAbsDiff(settled, r.arm.Positions()); d != 0 {
			t.Fatalf("arm moved %g after the stop", d)
		}
	}
}

func TestStepScaling(t *testing.T) {
	p := testParams()
	p.StepScaleJoints = true
	r := newRig(t, jog.Config{Params: p}, home)
	_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 0.25})
	r.beatAndCycle()
	if d := r.aims[0][0] - home[0]; math.Abs(d-0.05) > 1e-12 {
		t.Fatalf("scaled step %g, want 0.2*0.25", d)
	}

	p = testParams()
	p.StepScaleCartesian = true
	r = newRig(t, jog.Config{Params: p}, home)
	tool, _ := r.ctrl.Chain().FK(home)
	_ = r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{MoveDelta: true, Pose: jog.EulerPose{X: 1, RZ: 1}, Speed: 0.5})
	r.beatAndCycle()
	next, _ := r.ctrl.Chain().FK(r.aims[0])
	if d, a := geom.Distance(tool, next); math.Abs(d-0.005) > 2e-5 || math.Abs(a-0.1) > 2e-5 {
		t.Fatalf("scaled Cartesian step %g m, %g rad; want 0.01*0.5, 0.2*0.5", d, a)
	}
}
func TestAbsoluteJointGoal(t *testing.T) {
	r := newRig(t, jog.Config{}, home)
	goal := []float64{-0.3, -1.2, 1.2, -1.5, -1.2, 0.8}
	if err := r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: goal, Speed: 1}); err != nil {
		t.Fatal(err)
	}
	n := r.runUntilIdle(400)
	if d := maxAbsDiff(r.arm.Positions(), goal); d > 1e-3 {
		t.Fatalf("arm %v, goal %v (off by %g)", r.arm.Positions(), goal, d)
	}
	if s := r.ctrl.Status(); s.Reason != "goal reached" {
		t.Fatalf("status %+v", s)
	}
	// Largest move 0.5 rad at 5 % of 3.15 rad/s: about 3.2 s, 64 cycles.
	if n < 60 || n > 70 {
		t.Fatalf("took %d cycles, want about 64", n)
	}
}

func TestAbsoluteCartesianGoal(t *testing.T) {
	r := newRig(t, jog.Config{}, home)
	chain := r.ctrl.Chain()
	goalQ := []float64{0.5, -1.2, 1.3, -1.6, -1.4, 0.6}
	goal, _ := chain.FK(goalQ)
	req := jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1}
	if err := r.ctrl.StartCartesianMove(r.now(), req); err != nil {
		t.Fatal(err)
	}
	r.runUntilIdle(1000)
	got, _ := chain.FK(r.arm.Positions())
	if d, a := geom.Distance(got, goal); d > 2e-3 || a > 5e-3 {
		t.Fatalf("tool %v, goal %v: %g m, %g rad off", got, goal, d, a)
	}
}

// TestIncrementalCartesianWorld: referred to the world (here the base,
// no tf), the tool moves straight up without turning; each target is one
// step_translation above the measured tool.
func TestIncrementalCartesianWorld(t *testing.T) {
	r := newRig(t, jog.Config{}, home)
	chain := r.ctrl.Chain()
	start, _ := chain.FK(home)
	if err := r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{Pose: jog.EulerPose{Z: 5}, MoveDelta: true, Speed: 1}); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		tool, _ := chain.FK(r.arm.Positions())
		aims := len(r.aims)
		if _, ok, err := r.beatAndCycle(); err != nil || !ok {
			t.Fatalf("cycle %d: ok %v err %v", i, ok, err)
		}
		if len(r.aims) == aims {
			continue // no new target this cycle
		}
		next, _ := chain.FK(r.aims[len(r.aims)-1])
		want := geom.Transform{Translation: tool.Translation, Rotation: tool.Rotation}
		want.Translation.Z += 0.01
		if d, a := geom.Distance(next, want); d > 2e-5 || a > 2e-5 {
			t.Fatalf("cycle %d: target %v, want %v", i, next, want)
		}
	}
	if len(r.aims) < 10 {
		t.Fatalf("only %d targets in 40 cycles", len(r.aims))
	}
	end, _ := chain.FK(r.arm.Positions())
	dz := end.Translation.Z - start.Translation.Z
	// The arm interpolates each step in joint space (PTP), so the path
	// bows by a little: 2 mm over 12 cm is allowed.
	if dz < 0.08 || math.Abs(end.Translation.X-start.Translation.X) > 2e-3 || math.Abs(end.Translation.Y-start.Translation.Y) > 2e-3 {
		t.Fatalf("tool went from %v to %v", start, end)
	}
	// Each joint ramps its speed within its own limit, so the tool turns
	// a little on the way (measured 0.15 mrad).
	if a := end.Rotation.AngleTo(start.Rotation); a > 3e-4 {
		t.Fatalf("tool turned %g rad", a)
	}
}

// TestIncrementalCartesianFirstTarget: the first target of an incremental
// Cartesian move for several reference frames, against the step worked
// out from the tool pose.
func TestIncrementalCartesianFirstTarget(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  jog.CartesianMoveRequest
		want func(tool geom.Transform) geom.Transform
	}{
		// Base frame: the tool turns about its own point, about base z.
		{"base rotation", jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPose{RZ: 1}},
			func(tool geom.Transform) geom.Transform {
				return geom.Transform{Translation: tool.Translation, Rotation: geom.FromEulerZYX(0.2, 0, 0).Mul(tool.Rotation)}
			}},
		// Tool frame: along and about the tool's own axes.
		{"tool translation", jog.CartesianMoveRequest{PoseReference: "tool0", Pose: jog.EulerPose{Z: 1}},
			func(tool geom.Transform) geom.Transform { return tool.Mul(geom.Translation(0, 0, 0.01)) }},
		{"tool rotation", jog.CartesianMoveRequest{PoseReference: "tool0", Pose: jog.EulerPose{RX: -2}},
			func(tool geom.Transform) geom.Transform {
				return tool.Mul(geom.Rotation(geom.FromEulerZYX(0, 0, -0.2)))
			}},
		// World with an extra frame turned 90 deg about z: its x is the
		// base's y. Position and rotation are normalised separately.
		{"world with extra frame", jog.CartesianMoveRequest{Pose: jog.EulerPose{X: 3, RX: 0.5}, UseReferenceFrame: true, ReferenceFrame: jog.EulerPose{X: 5, RZ: math.Pi / 2}},
			func(tool geom.Transform) geom.Transform {
				t := tool
				t.Translation.Y += 0.01
				t.Rotation = geom.AxisAngle(r3.Vec{Y: 1}, 0.2).Mul(tool.Rotation)
				return t
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, jog.Config{}, home)
			tool, _ := r.ctrl.Chain().FK(home)
			tc.req.MoveDelta, tc.req.Speed = true, 1
			if err := r.ctrl.StartCartesianMove(r.now(), tc.req); err != nil {
				t.Fatal(err)
			}
			if _, ok, err := r.beatAndCycle(); !ok || err != nil {
				t.Fatal(ok, err)
			}
			next, _ := r.ctrl.Chain().FK(r.aims[0])
			if want := tc.want(tool); !closeEnough(next, want) {
				t.Fatalf("target %v, want %v", next, want)
			}
		})
	}
}

// closeEnough allows for the IK tolerance (1e-5 m and rad).
func closeEnough(a, b geom.Transform) bool {
	d, r := geom.Distance(a, b)
	return d <= 2e-5 && r <= 2e-5
}

func TestJointLimitsNeverExceeded(t *testing.T) {
	p := testParams()
	// Degrees, as drag&bot gives them: the pan within ±20 deg.
	p.JointLimits = make([]jog.JointLimit, 6)
	for i := range p.JointLimits {
		p.JointLimits[i] = jog.JointLimit{Min: -360, Max: 360}
	}
	p.JointLimits[0] = jog.JointLimit{Min: -20, Max: 20}
	p.JointLimits[2] = jog.JointLimit{Min: -180, Max: 180}
	r := newRig(t, jog.Config{Params: p}, home)
	lo, hi := r.ctrl.Limits()
	if math.Abs(hi[0]-20*math.Pi/180) > 1e-15 || lo[0] != -hi[0] {
		t.Fatalf("pan limits [%g, %g]", lo[0], hi[0])
	}
	_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1})
	for range 200 {
		if _, _, err := r.beatAndCycle(); err != nil {
			t.Fatal(err)
		}
	}
	if q := r.arm.Positions(); math.Abs(q[0]-hi[0]) > 1e-12 {
		t.Fatalf("pan at %g, want it parked at its limit %g", q[0], hi[0])
	}
	// Cartesian: push sideways until the pan limit blocks the way.
	_ = r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{Pose: jog.EulerPose{Y: 1}, MoveDelta: true, Speed: 1})
	var stopErr error
	for range 400 {
		if _, _, err := r.beatAndCycle(); err != nil {
			stopErr = err
			break
		}
	}
	if !errors.Is(stopErr, jog.ErrUnreachable) || r.ctrl.Status().Mode != jog.Stopping {
		t.Fatalf("cartesian push against the limit ended with %v, status %+v", stopErr, r.ctrl.Status())
	}
	r.untilIdle(12)
	t.Logf("cartesian push stopped: %v", stopErr)
	if v, n := r.arm.Violations(); v != 0 || n == 0 {
		t.Fatalf("%d of %d targets outside the limits", v, n)
	}
	for _, tg := range r.targets {
		for j, q := range tg.Positions {
			if q < lo[j] || q > hi[j] {
				t.Fatalf("target %v outside limits at joint %d", tg.Positions, j)
			}
		}
	}
	// A goal outside the limits is refused and nothing moves.
	err := r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: []float64{0.5, -1.4, 1.6, -1.8, -1.57, 0.3}, Speed: 1})
	if !errors.Is(err, jog.ErrRequest) {
		t.Fatalf("goal beyond limit: %v", err)
	}
}

// TestStopIsImmediate: Stop returns at once the rest point of a
// deceleration within the acceleration limit; the arm (truth) comes to
// rest there within the braking time and nothing more is sent.
func TestStopIsImmediate(t *testing.T) {
	p := testParams()
	p.JointsDelta.Velocity = 50 // 1.6 rad/s: 0.8 s to stop at 2 rad/s², more than max_stop_time
	for _, maxStop := range []float64{0.5, 2} {
		p.MaxStopTime = maxStop
		r := newRig(t, jog.Config{Params: p}, home)
		_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{0, 0, 0, 1, 0, 0}, Speed: 1})
		for range 20 {
			r.beatAndCycle()
		}
		q0, v0 := r.ctrl.Commanded()
		v := r.ctrl.VelocityLimits()[3] / 2
		if math.Abs(v0[3]-v) > 1e-9 {
			t.Fatalf("cruise speed %g", v0[3])
		}
		hold, ok := r.ctrl.Stop(r.now())
		if !ok || !hold.Hold {
			t.Fatalf("Stop gave %+v, %v", hold, ok)
		}
		brake := math.Min(v/2, maxStop) // [s]
		if want := time.Duration(brake * float64(time.Second)); absDur(hold.TimeFromStart-want) > time.Microsecond {
			t.Fatalf("max_stop_time %g: braking time %v, want %v", maxStop, hold.TimeFromStart, want)
		}
		if want := q0[3] + v*brake/2; math.Abs(hold.Positions[3]-want) > 1e-9 || hold.Velocities[3] != 0 {
			t.Fatalf("rest point %g (v %g), want %g", hold.Positions[3], hold.Velocities[3], want)
		}
		_ = r.arm.WriteJointTarget(hold)
		from := len(r.truth) - 1
		if s := r.ctrl.Status(); s.Mode != jog.Stopping || s.Reason != "stop" {
			t.Fatalf("status %+v", s)
		}
		// Even with heartbeats the stop goes on to rest, then nothing more.
		n := 0
		for r.ctrl.Status().Mode != jog.Idle && n < 100 {
			r.beatAndCycle()
			n++
		}
		if float64(n-1)*r.period.Seconds() > brake+1e-9 {
			t.Fatalf("stopped after %d cycles, braking time %g s", n, brake)
		}
		_, acc := r.dynamics(from)
		if limit := math.Max(2, v/maxStop); acc[3] > limit*(1+1e-6) {
			t.Fatalf("max_stop_time %g: deceleration %g, limit %g", maxStop, acc[3], limit)
		}
		rest := r.arm.Positions()
		if math.Abs(rest[3]-hold.Positions[3]) > 1e-12 {
			t.Fatalf("arm at rest at %g, rest point %g", rest[3], hold.Positions[3])
		}
		for range 10 {
			if tg, ok, _ := r.beatAndCycle(); ok {
				t.Fatalf("sent %+v after stop", tg)
			}
		}
		if d := maxAbsDiff(r.arm.Positions(), rest); d != 0 {
			t.Fatalf("arm moved %g after stop", d)
		}
		// Stopping when idle is harmless and still gives a hold.
		if _, ok := r.ctrl.Stop(r.now()); !ok {
			t.Fatal("no hold when idle")
		}
	}
}
func TestBadRequests(t *testing.T) {
	buf, _ := tf.New(tf.Config{})
	_ = buf.SetStatic("base_link", "A", geom.Identity())
	r := newRig(t, jog.Config{Frames: buf}, home)
	nan := math.NaN()
	ok6 := []float64{1, 0, 0, 0, 0, 0}
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"speed 0", r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: ok6}), jog.ErrRequest},
		{"speed above 1", r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: ok6, Speed: 1.01}), jog.ErrRequest},
		{"speed NaN", r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: ok6, Speed: nan}), jog.ErrRequest},
		{"short", r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: ok6[:5], Speed: 1}), jog.ErrRequest},
		{"zero direction", r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: make([]float64, 6), Speed: 1}), jog.ErrRequest},
		{"NaN joint", r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: []float64{nan, 0, 0, 0, 0, 0}, Speed: 1}), jog.ErrRequest},
		{"elbow goal beyond pi", r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: []float64{0, 0, 3.2, 0, 0, 0}, Speed: 1}), jog.ErrRequest},
		{"cartesian NaN", r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{Pose: jog.EulerPose{X: nan}, Speed: 1}), jog.ErrRequest},
		{"cartesian zero direction", r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{MoveDelta: true, Speed: 1}), jog.ErrRequest},
		{"cartesian unknown frame", r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "nowhere", MoveDelta: true, Pose: jog.EulerPose{X: 1}, Speed: 1}), jog.ErrFrame},
		{"unknown frame keeps the tf cause", r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "nowhere", Pose: jog.EulerPose{X: 0.3}, Speed: 1}), tf.ErrUnknownFrame},
		{"cartesian goal out of reach", r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "A", Pose: jog.EulerPose{X: 3}, Speed: 1}), jog.ErrUnreachable},
		{"cartesian goal out of reach IK", r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "A", Pose: jog.EulerPose{X: 3}, Speed: 1}), kinematics.ErrNoSolution},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if s := r.ctrl.Status(); s.Mode != jog.Idle {
		t.Fatalf("a bad request started a motion: %+v", s)
	}
	if _, ok, _ := r.cycle(); ok {
		t.Fatal("a bad request sent a target")
	}
	if got := jog.ResponseOf(errors.New("x")); got.Success {
		t.Fatal("error response says success")
	}
}

func TestNoJointStateNoMotion(t *testing.T) {
	ctrl, err := jog.New(jog.Config{Chain: ur5(t), Params: testParams()})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	if err := ctrl.StartCartesianMove(now, jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPose{X: 0.3}, Speed: 1}); !errors.Is(err, jog.ErrNoJointState) {
		t.Fatalf("absolute cartesian without state: %v", err)
	}
	_ = ctrl.StartJointMove(now, jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1})
	if tg, ok, err := ctrl.Step(now); ok || !errors.Is(err, jog.ErrNoJointState) {
		t.Fatalf("step without state: %+v %v %v", tg, ok, err)
	}
	// A stale joint state stops the motion too.
	_ = ctrl.UpdateJointState(home, now)
	_ = ctrl.StartJointMove(now, jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1})
	later := now.Add(600 * time.Millisecond)
	ctrl.Heartbeat(later)
	// No hold from a stale position (it could send the arm back).
	tg, ok, err := ctrl.Step(later)
	if !errors.Is(err, jog.ErrNoJointState) || ok || ctrl.Status().Mode != jog.Idle {
		t.Fatalf("stale state: %+v %v %v", tg, ok, err)
	}
	if _, ok, _ := ctrl.Step(later.Add(50 * time.Millisecond)); ok {
		t.Fatal("target sent after a stale-state stop")
	}
	if err := ctrl.UpdateJointState([]float64{0, 0, math.Inf(1), 0, 0, 0}, now); !errors.Is(err, jog.ErrRequest) {
		t.Fatalf("Inf joint state: %v", err)
	}
}

func TestStepAllocatesNothing(t *testing.T) {
	r := newRig(t, jog.Config{}, home)
	now := r.now()
	for name, start := range map[string]func() error{
		"joint": func() error {
			return r.ctrl.StartJointMove(now, jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1})
		},
		"cartesian": func() error {
			return r.ctrl.StartCartesianMove(now, jog.CartesianMoveRequest{PoseReference: "base_link", MoveDelta: true, Pose: jog.EulerPose{X: 1}, Speed: 1})
		},
		"cartesian world": func() error {
			return r.ctrl.StartCartesianMove(now, jog.CartesianMoveRequest{MoveDelta: true, Pose: jog.EulerPose{Z: 1}, Speed: 1})
		},
		"joint goal": func() error {
			return r.ctrl.StartJointMove(now, jog.JointMoveRequest{JointValues: []float64{1, -1, 1, -1, -1, 1}, Speed: 1})
		},
		"stopping": func() error {
			_ = r.ctrl.StartJointMove(now, jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{0, 0, 0, 1, 0, 0}, Speed: 1})
			for range 5 {
				r.ctrl.Heartbeat(now)
				_, _, _ = r.ctrl.Step(now)
			}
			r.ctrl.Stop(now)
			return nil
		},
	} {
		if err := start(); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() {
			r.ctrl.Heartbeat(now)
			_ = r.ctrl.UpdateJointState(home, now)
			_, _, _ = r.ctrl.Step(now)
		}); n != 0 {
			t.Fatalf("%s step allocates %v times", name, n)
		}
	}
	// A LIN move (on a rig of its own: it starts from rest).
	p := linParams()
	lr := newRig(t, jog.Config{Params: p}, home)
	if err := lr.ctrl.StartCartesianMove(lr.now(), line500mm(t, lr)); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		lr.ctrl.Heartbeat(lr.now())
		_ = lr.ctrl.UpdateJointState(home, lr.now())
		_, _, _ = lr.ctrl.Step(lr.now())
	}); n != 0 {
		t.Fatalf("LIN step allocates %v times", n)
	}
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// TestMinTranslationStep: a target closer than min_translation_step to
// the previous one is not taken.
func TestMinTranslationStep(t *testing.T) {
	p := testParams()
	p.MinTranslationStep = 0.004 // the tool moves ~1.3 mm per cycle here
	p.MinRotationStep = 0.1
	r := newRig(t, jog.Config{Params: p}, home)
	_ = r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{Pose: jog.EulerPose{Z: 1}, MoveDelta: true, Speed: 1})
	for range 40 {
		r.beatAndCycle()
	}
	// Each target is 1 cm ahead of the tool, so two targets are as far
	// apart as the tool moved in between: a new one every few cycles.
	if n := len(r.aims); n < 4 || n > 20 {
		t.Fatalf("%d targets in 40 cycles", n)
	}
	chain := r.ctrl.Chain()
	for i := 1; i < len(r.aims); i++ {
		a, _ := chain.FK(r.aims[i-1])
		b, _ := chain.FK(r.aims[i])
		if d, _ := geom.Distance(a, b); d <= 0.004-2e-5 {
			t.Fatalf("targets %d and %d only %g m apart", i-1, i, d)
		}
	}
}

// TestHeartbeatTopic: true on the topic keeps the motion alive like the
// service; false does not.
func TestHeartbeatTopic(t *testing.T) {
	for _, data := range []bool{true, false} {
		r := newRig(t, jog.Config{}, home)
		_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{1, 0, 0, 0, 0, 0}, Speed: 1})
		for range 20 { // 1 s, five times the timeout
			if got := r.ctrl.HeartbeatMessage(r.now(), data); got != data {
				t.Fatalf("HeartbeatMessage(%v) = %v", data, got)
			}
			r.cycle()
		}
		if moving := r.ctrl.Status().Mode != jog.Idle; moving != data {
			t.Fatalf("topic %v: moving %v after 1 s", data, moving)
		}
	}
}

func TestJointStateByName(t *testing.T) {
	ctrl, _ := jog.New(jog.Config{Chain: ur5(t), Params: testParams()})
	now := time.Unix(100, 0)
	// Shuffled, with an extra gripper joint.
	names := []string{"wrist_3_joint", "gripper", "shoulder_pan_joint", "elbow_joint", "wrist_1_joint", "shoulder_lift_joint", "wrist_2_joint"}
	pos := []float64{0.3, 0.05, 0.2, 1.6, -1.8, -1.4, -1.57}
	if err := ctrl.UpdateJointStateByName(names, pos, now); err != nil {
		t.Fatal(err)
	}
	hold, ok := ctrl.Stop(now)
	if !ok || maxAbsDiff(hold.Positions, home) != 0 {
		t.Fatalf("hold %v, want %v", hold.Positions, home)
	}
	for _, tc := range []struct {
		names []string
		pos   []float64
	}{
		{names[:6], pos[:6]}, // wrist_2 missing
		{names, pos[:6]},     // lengths differ
		{names, []float64{0.3, 0.05, math.NaN(), 1.6, -1.8, -1.4, -1.57}},
	} {
		if err := ctrl.UpdateJointStateByName(tc.names, tc.pos, now); !errors.Is(err, jog.ErrRequest) {
			t.Errorf("%v %v: err = %v", tc.names, tc.pos, err)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = ctrl.UpdateJointStateByName(names, pos, now) }); n != 0 {
		t.Fatalf("allocates %v times", n)
	}
}

// TestRefusedGoalKeepsTheMotion: an unreachable Cartesian goal arriving
// during a joint goal leaves that motion and its goal untouched.
func TestRefusedGoalKeepsTheMotion(t *testing.T) {
	r := newRig(t, jog.Config{}, home)
	goal := []float64{-0.3, -1.2, 1.2, -1.5, -1.2, 0.8}
	_ = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: goal, Speed: 1})
	r.beatAndCycle()
	err := r.ctrl.StartCartesianMove(r.now(), jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPose{X: 3}, Speed: 1})
	if !errors.Is(err, jog.ErrUnreachable) {
		t.Fatalf("err = %v", err)
	}
	// A joint goal whose last joint is out of limits: refused whole.
	err = r.ctrl.StartJointMove(r.now(), jog.JointMoveRequest{JointValues: []float64{0, 0, 0, 0, 0, 7}, Speed: 1})
	if !errors.Is(err, jog.ErrRequest) {
		t.Fatalf("err = %v", err)
	}
	if m := r.ctrl.Status().Mode; m != jog.JointGoal {
		t.Fatalf("mode %v", m)
	}
	r.runUntilIdle(400)
	if d := maxAbsDiff(r.arm.Positions(), goal); d > 1e-3 {
		t.Fatalf("arm %v, goal %v", r.arm.Positions(), goal)
	}
}

// TestConcurrentRequests: service calls from other goroutines while the
// loop steps (run with -race).
func TestConcurrentRequests(t *testing.T) {
	r := newRig(t, jog.Config{}, home)
	chain := r.ctrl.Chain()
	goal, _ := chain.FK([]float64{0.4, -1.3, 1.4, -1.7, -1.5, 0.4})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 20 {
			now := time.Unix(0, 0)
			switch i % 4 {
			case 0:
				_ = r.ctrl.StartCartesianMove(now, jog.CartesianMoveRequest{PoseReference: "base_link", Pose: jog.EulerPoseOf(goal), Speed: 1})
			case 1:
				_ = r.ctrl.StartJointMove(now, jog.JointMoveRequest{MoveDelta: true, JointValues: []float64{0, 1, 0, 0, 0, 0}, Speed: 0.5})
			case 2:
				_ = r.ctrl.SetHeartbeatTimeout(0.3)
			default:
				r.ctrl.Stop(now)
			}
		}
	}()
	for range 50 {
		r.beatAndCycle()
	}
	<-done
	if v, _ := r.arm.Violations(); v != 0 {
		t.Fatalf("%d targets outside the limits", v)
	}
}

// TestWorldFrameFallback: a tf buffer that does not know the world frame
// (nobody publishes it) leaves the world at the base, as without tf; one
// that knows it is used.
func TestWorldFrameFallback(t *testing.T) {
	for _, tc := range []struct {
		name     string
		baseInW  geom.Transform // T_world_base, published when publish
		publish  bool
		wantGoal geom.Transform // T_base_goal of the goal (0.3,0.1,0.4) in the world
	}{
		{"world unknown to tf", geom.Identity(), false, geom.Translation(0.3, 0.1, 0.4)},
		{"world in tf", geom.Translation(0, 0, 0.1), true, geom.Translation(0.3, 0.1, 0.3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf, _ := tf.New(tf.Config{})
			_ = buf.SetStatic("base_link", "A", geom.Identity())
			if tc.publish {
				_ = buf.SetStatic("world", "base_link", tc.baseInW)
			}
			r := newRig(t, jog.Config{Frames: buf}, home)
			tool, err := r.ctrl.Chain().FK(home)
			if err != nil {
				t.Fatal(err)
			}
			req := jog.CartesianMoveRequest{Pose: jog.EulerPoseOf(tc.wantGoal), Speed: 1}
			req.Pose.RZ, req.Pose.RY, req.Pose.RX = jog.EulerPoseOf(tool).RZ, jog.EulerPoseOf(tool).RY, jog.EulerPoseOf(tool).RX
			wantPose := tc.wantGoal
			wantPose.Rotation = tool.Rotation
			if tc.publish {
				req.Pose.Z += 0.1 // the goal is given in the world, 0.1 m above the base
			}
			if err := r.ctrl.StartCartesianMove(r.now(), req); err != nil {
				t.Fatal(err)
			}
			r.runUntilIdle(400)
			got, err := r.ctrl.Chain().FK(r.arm.Positions())
			if err != nil {
				t.Fatal(err)
			}
			if d, _ := geom.Distance(got, wantPose); d > 2e-3 {
				t.Errorf("tool at %v, want %v (%.4f m off)", got.Translation, wantPose.Translation, d)
			}
		})
	}
}

// TestConcurrentLINAndParams: LIN goals planned while parameters change
// live and the loop runs (for -race).
func TestConcurrentLINAndParams(t *testing.T) {
	r := newRig(t, jog.Config{Params: linParams()}, home)
	req := line500mm(t, r)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 50 {
			_ = r.ctrl.SetParam("default_joint_acceleration", rosparam.Double(1+float64(i%3)))
		}
	}()
	for range 5 {
		if err := r.ctrl.StartCartesianMove(r.now(), req); err != nil {
			t.Fatal(err)
		}
		r.beatAndCycle()
		r.ctrl.Stop(r.now())
		r.untilIdle(40)
	}
	<-done
}
