package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/telebridge/telebridge/pkg/armsim"
	"github.com/telebridge/telebridge/pkg/jog"
	jogcontrol "github.com/telebridge/telebridge/pkg/jog/control"
	"github.com/telebridge/telebridge/pkg/kinematics"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"gonum.org/v1/gonum/spatial/r3"
)

func init() {
	register(command{
		name:    "jog",
		summary: "scripted jog demo against a simulated arm (simulated time)",
		run:     runJog,
	})
}

// jogDemo drives a jog controller and a simulated arm in simulated time,
// one update_rate cycle at a time, and narrates what happens.
type jogDemo struct {
	io    stdio
	ctrl  *jog.Controller
	arm   *armsim.Arm
	chain *kinematics.Chain
	q     []float64
	start time.Time
}

func runJog(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("jog", io)
	cf := addChainFlags(fs)
	joints := fs.String("joints", "", "initial `positions` q1,q2,... (default: the middle of the limits)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	chain, err := cf.load()
	if err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	initial := make([]float64, chain.DOF())
	if *joints != "" {
		if initial, err = parseFloats("joints", *joints, chain.DOF()); err != nil {
			return fmt.Errorf("jog: %w", err)
		}
		if err := chain.CheckJoints(initial, 0); err != nil {
			return fmt.Errorf("jog: %w", err)
		}
	} else {
		for i, j := range chain.Joints {
			if j.Type != kinematics.Continuous {
				initial[i] = (j.Lower + j.Upper) / 2
			}
		}
	}
	p := jog.DefaultParams()
	p.RobotData.FixedFrame, p.RobotData.FlangeFrame = chain.Base, chain.TipName
	// The simulated arm takes relative Cartesian commands too.
	ctrl, err := jog.New(jog.Config{Chain: chain, Params: &p, Relative: true})
	if err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	acfg := armsim.FromChain(chain, 0.5)
	acfg.Initial = initial
	arm, err := armsim.New(acfg)
	if err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	d := &jogDemo{io: io, ctrl: ctrl, arm: arm, chain: chain, q: make([]float64, chain.DOF()), start: arm.Now()}
	return d.script(ctx)
}

func (d *jogDemo) say(format string, a ...any) {
	t := d.arm.Now().Sub(d.start).Seconds()
	fmt.Fprintf(d.io.out, "%6.2fs  %s\n", t, fmt.Sprintf(format, a...))
}

func (d *jogDemo) pose() string {
	t, _ := d.chain.FK(d.arm.Positions())
	x, y, z, rz, ry, rx := t.XYZEuler()
	return fmt.Sprintf("tool xyz=(%.4f %.4f %.4f) m rzyx=(%.3f %.3f %.3f) rad", x, y, z, rz, ry, rx)
}

func (d *jogDemo) joints() string {
	var b strings.Builder
	for i, v := range d.arm.Positions() {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.4f", v)
	}
	return "joints=(" + b.String() + ")"
}

// cycles runs n cycles (heartbeats if beat) and returns how many ran
// before the controller went idle (n if it did not).
func (d *jogDemo) cycles(ctx context.Context, n int, beat bool) (int, error) {
	for i := range n {
		if err := ctx.Err(); err != nil {
			return i, err
		}
		now := d.arm.Now()
		if beat {
			d.ctrl.Heartbeat(now)
		}
		at, _ := d.arm.JointPositions(d.q)
		if err := d.ctrl.UpdateJointState(d.q, at); err != nil {
			return i, err
		}
		t, ok, err := d.ctrl.Step(now)
		if ok {
			if werr := jog.Write(d.arm, t); werr != nil {
				return i, werr
			}
			if t.Hold {
				d.say("hold sent (%s)", d.ctrl.Status().Reason)
			}
		}
		if err != nil {
			d.say("motion ended: %v", err)
		}
		d.arm.Advance(d.ctrl.Period())
		if d.ctrl.Status().Mode == jog.Idle && !ok {
			return i + 1, nil
		}
	}
	return n, nil
}

func (d *jogDemo) script(ctx context.Context) error {
	n := d.chain.DOF()
	rate := int(time.Second / d.ctrl.Period())
	d.say("start: %d joints %s, %s", n, strings.Join(d.chain.JointNames(), ","), d.joints())
	d.say("%s", d.pose())

	dir := make([]float64, n)
	dir[0] = 1
	if err := d.ctrl.StartJointMove(d.arm.Now(), jog.JointMoveRequest{MoveDelta: true, JointValues: dir, Speed: 1}); err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	d.say("incremental joint move of %s, 1 s with heartbeats", d.chain.Joints[0].Name)
	if _, err := d.cycles(ctx, rate, true); err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	d.say("%s", d.joints())
	d.say("heartbeats stop")
	if _, err := d.cycles(ctx, rate, false); err != nil {
		return fmt.Errorf("jog: %w", err)
	}

	goal := append([]float64(nil), d.arm.Positions()...)
	goal[0] -= 0.05
	if d.chain.Joints[0].Type != kinematics.Continuous {
		goal[0] = max(goal[0], d.chain.Joints[0].Lower)
	}
	if err := d.ctrl.StartJointMove(d.arm.Now(), jog.JointMoveRequest{JointValues: goal, Speed: 1}); err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	d.say("absolute joint goal: %s back by 0.05", d.chain.Joints[0].Name)
	k, err := d.cycles(ctx, 60*rate, true)
	if err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	d.say("%s after %d cycles: %s", d.ctrl.Status().Reason, k, d.joints())

	if err := d.ctrl.StartCartesianMove(d.arm.Now(), jog.CartesianMoveRequest{PoseReference: d.chain.Base, MoveDelta: true, Pose: jog.EulerPose{Z: 1}, Speed: 1}); err != nil {
		d.say("cartesian move refused: %v", err)
	} else {
		d.say("incremental Cartesian move +z in %s, 1 s, from %s", d.chain.Base, d.pose())
		if _, err := d.cycles(ctx, rate, true); err != nil {
			return fmt.Errorf("jog: %w", err)
		}
		d.say("%s", d.pose())
	}
	at, _ := d.arm.JointPositions(d.q)
	_ = d.ctrl.UpdateJointState(d.q, at)
	if hold, ok := d.ctrl.Stop(d.arm.Now()); ok {
		_ = jog.Write(d.arm, hold)
		d.say("stop: decelerating to rest in %v", hold.TimeFromStart.Round(time.Millisecond))
	}
	if _, err := d.cycles(ctx, rate, true); err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	if err := d.line(ctx, rate); err != nil {
		return err
	}
	if err := d.relative(ctx, rate); err != nil {
		return err
	}
	d.say("end: %s", d.pose())
	return nil
}

// relative jogs the tool along the base's z again, with every point sent
// to the arm as a relative command in the tool's frame (RELT), then stops.
func (d *jogDemo) relative(ctx context.Context, rate int) error {
	if err := d.ctrl.SetParam("cartesian_delta_command_type", rosparam.String(jogcontrol.CommandRELT)); err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	defer func() { _ = d.ctrl.SetParam("cartesian_delta_command_type", rosparam.String(jog.CommandPTP)) }()
	before := d.arm.Relative()
	if err := d.ctrl.StartCartesianMove(d.arm.Now(), jog.CartesianMoveRequest{PoseReference: d.chain.Base, MoveDelta: true, Pose: jog.EulerPose{Z: -1}, Speed: 1}); err != nil {
		d.say("cartesian move refused: %v", err)
		return nil
	}
	d.say("incremental Cartesian move -z in %s as RELT commands, 1 s, from %s", d.chain.Base, d.pose())
	if _, err := d.cycles(ctx, rate, true); err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	d.say("heartbeats stop")
	if _, err := d.cycles(ctx, rate, false); err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	d.say("%s; the arm took %d relative commands", d.pose(), d.arm.Relative()-before)
	return nil
}

// line moves the tool 5 cm along x and down 5 cm in a straight line (a
// LIN goal) and reports how far the tool strayed from the line.
func (d *jogDemo) line(ctx context.Context, rate int) error {
	if err := d.ctrl.SetParam("cartesian_goal_command_type_translational_movement", rosparam.String(jog.CommandLIN)); err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	start, err := d.chain.FK(d.arm.Positions())
	if err != nil {
		return fmt.Errorf("jog: %w", err)
	}
	goal := start
	goal.Translation = r3.Add(start.Translation, r3.Vec{X: 0.05, Z: -0.05})
	req := jog.CartesianMoveRequest{PoseReference: d.chain.Base, Pose: jog.EulerPoseOf(goal), Speed: 1}
	if err := d.ctrl.StartCartesianMove(d.arm.Now(), req); err != nil {
		d.say("LIN goal refused before any motion: %v", err)
		return nil
	}
	d.say("LIN goal 5 cm along x and 5 cm down at %g m/s, from %s", d.ctrl.Params().CartesianGoalLinVelocity, d.pose())
	var dev, top float64
	prev := start.Translation
	ab := r3.Sub(goal.Translation, start.Translation)
	k := 0
	for ; k < 60*rate && d.ctrl.Status().Mode != jog.Idle; k++ {
		if _, err := d.cycles(ctx, 1, true); err != nil {
			return fmt.Errorf("jog: %w", err)
		}
		tool, _ := d.chain.FK(d.arm.Positions())
		f := math.Max(0, math.Min(1, r3.Dot(r3.Sub(tool.Translation, start.Translation), ab)/r3.Dot(ab, ab)))
		dev = math.Max(dev, r3.Norm(r3.Sub(tool.Translation, r3.Add(start.Translation, r3.Scale(f, ab)))))
		top = math.Max(top, r3.Norm(r3.Sub(tool.Translation, prev))/d.ctrl.Period().Seconds())
		prev = tool.Translation
	}
	d.say("LIN %s after %d cycles: %s; largest distance from the line %.3g mm, top speed %.3f m/s",
		d.ctrl.Status().Reason, k, d.pose(), 1000*dev, top)
	return nil
}
