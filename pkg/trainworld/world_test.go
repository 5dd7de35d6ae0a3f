package trainworld_test

import (
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/trainworld"
)

// TestCourseStart: the robot starts on the course's start marker, settles
// on its tracks, and the loose boxes rest where the world put them.
func TestCourseStart(t *testing.T) {
	w := course(t, trainworld.Config{})
	must(t, w.Step(500))
	s, err := w.Robot()
	must(t, err)
	if d := math.Hypot(s.Base.Pos[0], s.Base.Pos[1]); d > 0.02 {
		t.Errorf("robot at %v after settling: want within 2 cm of the start marker", s.Base.Pos)
	}
	if math.Abs(s.Base.Pos[2]-0.08) > 0.01 || s.Tilt > 0.02 {
		t.Errorf("robot z %.3f m tilt %.3f rad: want on its tracks (0.08 m), level", s.Base.Pos[2], s.Tilt)
	}
	for _, name := range []string{"box_1kg::box", "box_5kg::box"} {
		p, err := w.BodyPose(name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := w.SDF().Body(name)
		if d := math.Abs(p.Translation.Z - b.Pose.Translation.Z); d > 0.005 {
			t.Errorf("%s z %.4f m, loaded at %.4f: want resting", name, p.Translation.Z, b.Pose.Translation.Z)
		}
	}
}

// TestYard: the Furbot's yard loads with the robot on its start marker
// (x = -16, y = 0), resting on its tracks.
func TestYard(t *testing.T) {
	w := course(t, trainworld.Config{World: "yard"})
	must(t, w.Step(300))
	s, err := w.Robot()
	must(t, err)
	if math.Hypot(s.Base.Pos[0]+16, s.Base.Pos[1]) > 0.02 || math.Abs(s.Base.Pos[2]-0.08) > 0.01 || s.Tilt > 0.02 {
		t.Errorf("robot at %v tilt %.3f in the yard: want resting on the start marker at (-16, 0)", s.Base.Pos, s.Tilt)
	}
}
