package arm_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/jog"
	servosilaarm "github.com/telebridge/telebridge/pkg/servosila/arm"
	"github.com/telebridge/telebridge/pkg/servosila/control"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// TestTrajectoriesNameTheirJoints: targets that name some of the arm's
// joints in any order move those joints of the simulated robot, and only
// those; a point with velocities is followed to its next point.
func TestTrajectoriesNameTheirJoints(t *testing.T) {
	r := startRig(t, [wire.NumJoints]float64{0.1, 0.2, 0.3, 0.4})
	tr, err := servosilaarm.NewTrajectories(r.drv)
	if err != nil {
		t.Fatal(err)
	}
	nothing := func() {}

	// Positions only: position targets of the joints named.
	if err := tr.Write(jog.JointTarget{JointNames: []string{"elbow", "waist"}, Positions: []float64{-0.1, 0.3}}); err != nil {
		t.Fatal(err)
	}
	want := []float64{0.3, 0.2, -0.1, 0.4}
	got := r.settle(t, "position targets of elbow and waist", nothing)
	if maxAbsDiff(got, want) > 2*tolerance {
		t.Fatalf("robot's joints %v, want %v (within %g)", got, want, 2*tolerance)
	}

	// A profile point and its next point (velocities fed forward): the
	// neck runs to the next point, 0.2 rad on, and stays there.
	now := time.Now()
	if err := tr.Write(jog.JointTarget{
		JointNames: []string{"neck"}, Positions: []float64{0.45}, Velocities: []float64{0.5},
		Stamp: now, TimeFromStart: 100 * time.Millisecond,
		Next: []float64{0.6}, NextVelocities: []float64{0}, NextTimeFromStart: 400 * time.Millisecond,
	}); err != nil {
		t.Fatal(err)
	}
	want[3] = 0.6
	got = r.settle(t, "the neck's profile point and next point", nothing)
	if maxAbsDiff(got, want) > 2*tolerance {
		t.Fatalf("robot's joints %v, want %v (within %g)", got, want, 2*tolerance)
	}
}

func TestTrajectoriesRefuse(t *testing.T) {
	r := startRig(t, [wire.NumJoints]float64{0.1, 0.2, 0.3, 0.4})
	tr, err := servosilaarm.NewTrajectories(r.drv)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		t    jog.JointTarget
	}{
		{"no names", jog.JointTarget{}},
		{"a joint without position control", jog.JointTarget{JointNames: []string{"waist", "flippers"}, Positions: []float64{0, 0}}},
		{"a joint twice", jog.JointTarget{JointNames: []string{"neck", "neck"}, Positions: []float64{0, 0}}},
		{"unknown joint", jog.JointTarget{JointNames: []string{"wrist"}, Positions: []float64{0}}},
		{"fewer positions than names", jog.JointTarget{JointNames: []string{"waist", "elbow"}, Positions: []float64{0}}},
		{"NaN", jog.JointTarget{JointNames: []string{"elbow"}, Positions: []float64{math.NaN()}}},
	} {
		if err := tr.Write(tc.t); !errors.Is(err, servosilaarm.ErrTarget) {
			t.Errorf("%s: %v, want ErrTarget", tc.name, err)
		}
	}
	// Nothing of it reached the robot: no joint is under position control.
	for _, j := range wire.ArmJoints {
		if st := r.drv.JointStatus(j); st.State != control.Idle {
			t.Errorf("%s under position control after refused targets: %+v", j, st)
		}
	}
	if _, err := servosilaarm.NewTrajectories(nil); err == nil {
		t.Error("no driver accepted")
	}
}

// TestTrajectoriesWriteAllocs: a stream of targets for the same joints,
// as jog_server sends one per cycle, allocates nothing in the adapter and
// the driver.
func TestTrajectoriesWriteAllocs(t *testing.T) {
	r := startRig(t, [wire.NumJoints]float64{0.1, 0.2, 0.3, 0.4})
	tr, err := servosilaarm.NewTrajectories(r.drv)
	if err != nil {
		t.Fatal(err)
	}
	target := jog.JointTarget{
		JointNames: []string{"waist", "shoulder"}, Positions: []float64{0.1, 0.2}, Velocities: []float64{0, 0},
		Next: []float64{0.1, 0.2}, NextVelocities: []float64{0, 0},
		TimeFromStart: 50 * time.Millisecond, NextTimeFromStart: 100 * time.Millisecond,
	}
	if err := tr.Write(target); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(100, func() {
		target.Stamp = time.Now()
		if err := tr.Write(target); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations per Write", n)
	}
}
