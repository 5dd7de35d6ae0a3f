package crawler_test

import (
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/physics"
	"github.com/telebridge/telebridge/pkg/physics/crawler"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// script is a command script: at step At, the twist and joint commands.
var script = []struct {
	at     int
	v, w   float64
	joints map[wire.Joint]float64
}{
	{0, 0.4, 0, nil},
	{400, 0.3, 0.8, map[wire.Joint]float64{wire.Waist: 0.4, wire.Flippers: -0.5}},
	{900, 0, -1, map[wire.Joint]float64{wire.Shoulder: 0.3}},
	{1300, -0.2, 0, map[wire.Joint]float64{wire.Waist: 0, wire.Shoulder: 0, wire.Flippers: 0.5}},
}

const scriptSteps = 1600

// bits is the state as raw float bits (base pose, velocities, joints).
func bits(t testing.TB, r *crawler.Robot) []uint64 {
	s := state(t, r)
	var out []uint64
	for _, v := range [][]float64{s.Base.Pos[:], s.Base.Rot[:], s.Velocity[:], s.Spin[:], s.Joints[:], s.Rates[:]} {
		for _, x := range v {
			out = append(out, math.Float64bits(x))
		}
	}
	return out
}

type run struct {
	w    *physics.World
	r    *crawler.Robot
	next int
}

// step advances a run by one step of the script.
func (x *run) step(t testing.TB, i int) {
	for x.next < len(script) && script[x.next].at == i {
		c := script[x.next]
		must(t, x.r.SetTwist(c.v, c.w))
		for j, v := range c.joints {
			must(t, x.r.SetJointVelocity(j, v))
		}
		x.next++
	}
	must(t, x.w.Step(1))
}

// The same command script gives the same state bit for bit: twice in one
// process one after the other, and in two worlds stepped interleaved
// (each keeps its own copy of ODE's global random seed).
func TestDeterministic(t *testing.T) {
	newRun := func() *run {
		w, r, _ := ramp(t, 15, rampFriction, -0.3)
		return &run{w: w, r: r}
	}
	a := newRun()
	for i := range scriptSteps {
		a.step(t, i)
	}
	want := bits(t, a.r)
	b, c := newRun(), newRun()
	for i := range scriptSteps {
		b.step(t, i)
		c.step(t, i)
	}
	for name, got := range map[string][]uint64{"second run": bits(t, b.r), "interleaved run": bits(t, c.r)} {
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: state word %d = %x, first run %x", name, i, got[i], want[i])
			}
		}
	}
	s := state(t, a.r)
	if d := s.Base.Pos[0] + 0.3; math.Abs(d) < 0.05 || math.Abs(s.Joints[wire.Waist]) < 0.1 {
		t.Errorf("the script hardly moved the robot (%.3f m, waist %.3f rad): the test would prove little", d, s.Joints[wire.Waist])
	}
}
