package trainworld_test

import (
	"errors"
	"os"
	"testing"

	"github.com/telebridge/telebridge/pkg/physics/ode"
	"github.com/telebridge/telebridge/pkg/trainworld"
)

// course loads the shipped course (skipping with the one-line reason when
// libode is missing).
func course(t testing.TB, cfg trainworld.Config) *trainworld.World {
	t.Helper()
	if cfg.World == "" && cfg.SDF == nil {
		cfg.World = "course"
	}
	w, err := trainworld.New(cfg)
	if errors.Is(err, ode.ErrMissing) && os.Getenv("TELEBRIDGE_PHYSICS_TESTS") != "required" {
		t.Skipf("%v (TELEBRIDGE_PHYSICS_TESTS=required makes this a failure)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Close(); err != nil {
			t.Error(err)
		}
	})
	return w
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
