package trainworld_test

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/physics/crawler"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
	"github.com/telebridge/telebridge/pkg/trainworld"
)

// script drives a course world through the plant in lock-step: forward,
// an arc, the arm's shoulder, a spin; it returns the truth at the end.
func script(t *testing.T) (crawler.State, [3]float64) {
	w := course(t, trainworld.Config{})
	p := &trainworld.Plant{W: w}
	var j [wire.NumJoints]float64
	steps := []struct {
		l, r, shoulder float64
		ms             int
	}{{0.4, 0.4, 0, 600}, {0.2, 0.5, 0.3, 400}, {-0.3, 0.3, 0, 400}, {0, 0, 0, 200}}
	for _, s := range steps {
		j[wire.Shoulder] = s.shoulder
		must(t, p.Drive(s.l, s.r, &j))
		for k := 0; k < s.ms/10; k++ {
			must(t, w.Step(10))
		}
	}
	st, err := w.Robot()
	must(t, err)
	b, err := w.BodyPose("box_1kg::box")
	must(t, err)
	return st, [3]float64{b.Translation.X, b.Translation.Y, b.Translation.Z}
}

// TestDeterministic: the same command script twice gives bit for bit the
// same truth (robot and loose boxes).
func TestDeterministic(t *testing.T) {
	a, ba := script(t)
	b, bb := script(t)
	if a != b || ba != bb {
		t.Errorf("two runs of one script differ:\n%+v\n%+v\nbox %v %v", a, b, ba, bb)
	}
	if a.Base.Pos[0] < 0.2 {
		t.Errorf("robot at %v: the script did not move it", a.Base.Pos)
	}
}
