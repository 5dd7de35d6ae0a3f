package crawler_test

import (
	"errors"
	"os"
	"testing"

	"github.com/telebridge/telebridge/pkg/physics"
	"github.com/telebridge/telebridge/pkg/physics/crawler"
	"github.com/telebridge/telebridge/pkg/physics/ode"
)

// groundFriction is the ground's Coulomb coefficient in the flat tests
// (rough concrete under rubber; the track's own is 1, the smaller wins).
const groundFriction = 0.8

// flat returns a world with a ground plane of friction mu and the robot
// in it (skipping with the one-line reason when libode is missing).
func flat(t testing.TB, mu float64, cfg crawler.Config) (*physics.World, *crawler.Robot) {
	t.Helper()
	w, err := physics.New(physics.Config{})
	if errors.Is(err, ode.ErrMissing) && os.Getenv("TELEBRIDGE_PHYSICS_TESTS") != "required" {
		t.Skipf("no ODE here (TELEBRIDGE_PHYSICS_TESTS=required makes this a failure): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Error(err)
		}
	})
	if _, err := w.AddStatic(physics.Plane(), physics.Pose{}, physics.Material{Friction: mu}); err != nil {
		t.Fatal(err)
	}
	r, err := crawler.New(w, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w, r
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func state(t testing.TB, r *crawler.Robot) crawler.State {
	t.Helper()
	s, err := r.State()
	must(t, err)
	return s
}
