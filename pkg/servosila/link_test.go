package servosila

import (
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/odometry"
)

func TestTelemetryOrder(t *testing.T) {
	t0 := time.Unix(1000, 0)
	type pkt struct {
		tick       uint64
		at         time.Duration
		ok, resync bool
	}
	cases := []struct {
		name string
		pkts []pkt
	}{
		{"in order", []pkt{{1, 0, true, false}, {2, 100, true, false}, {3, 200, true, false}}},
		{"duplicate dropped", []pkt{{5, 0, true, false}, {5, 10, false, false}, {6, 100, true, false}}},
		{"reordered dropped", []pkt{{5, 0, true, false}, {7, 10, true, false}, {6, 20, false, false}, {8, 30, true, false}}},
		{"far back: reboot followed at once", []pkt{{500, 0, true, false}, {1, 100, true, true}, {2, 200, true, false}}},
		{"near back ten times: followed", []pkt{{9, 0, true, false}, {1, 10, false, false}, {1, 20, false, false}, {2, 30, false, false},
			{2, 40, false, false}, {3, 50, false, false}, {3, 60, false, false}, {4, 70, false, false}, {4, 80, false, false},
			{5, 90, false, false}, {5, 100, true, true}, {6, 110, true, false}}},
		{"back after a silence: followed", []pkt{{5, 0, true, false}, {2, 5000, true, true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var o telemetryOrder
			for i, p := range c.pkts {
				ok, resync := o.accept(p.tick, t0.Add(p.at*time.Millisecond), 3*time.Second)
				if ok != p.ok || resync != p.resync {
					t.Errorf("packet %d (tick %d): ok %v resync %v, want %v %v", i, p.tick, ok, resync, p.ok, p.resync)
				}
			}
		})
	}
}

func TestLinkTrackerDeclaresLostAndInflates(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var l linkTracker
	odo := odometry.State{Twist: odometry.Twist2D{V: 0.3}}
	if l.observe(t0, 0, time.Time{}, false, odo, 3*time.Second) {
		t.Fatal("lost before any telemetry")
	}
	// Telemetry at 10 Hz: lost after 2 x 100 ms + 1 s.
	for i := 1; i <= 3; i++ {
		at := t0.Add(time.Duration(i) * 100 * time.Millisecond)
		if l.observe(at, uint64(i), at, true, odo, 3*time.Second) {
			t.Fatalf("lost at telemetry %d", i)
		}
	}
	if got := l.state.LostAfter; got != 1200*time.Millisecond {
		t.Errorf("LostAfter %v, want 1.2 s", got)
	}
	last := t0.Add(300 * time.Millisecond)
	moved := odometry.State{Pose: odometry.Pose2D{X: 0.36, Yaw: 0.2}, Distance: 0.36, Twist: odometry.Twist2D{V: 0.3}}
	if l.observe(last.Add(1200*time.Millisecond), 3, last, true, moved, 3*time.Second) {
		t.Error("lost at exactly LostAfter")
	}
	if l.observe(last.Add(1201*time.Millisecond), 3, last, true, moved, 3*time.Second) {
		t.Fatal("lost at the first tick past LostAfter (the receiver may lag after a stall)")
	}
	if !l.observe(last.Add(1401*time.Millisecond), 3, last, true, moved, 3*time.Second) {
		t.Fatal("not lost at the second tick past LostAfter")
	}
	if l.state.Losses != 1 {
		t.Errorf("losses %d, want 1", l.state.Losses)
	}
	// Claimed 0.36 m and 0.2 rad since the last telemetry, plus 0.3 m/s
	// for the vendor's 1 s timeout.
	st := odometry.State{}
	l.apply(&st)
	if want := 0.36*0.36 + 0.09; math.Abs(st.PoseCovariance[0]-want) > 1e-9 || math.Abs(st.PoseCovariance[35]-0.04) > 1e-9 {
		t.Errorf("inflation x %v yaw %v, want %v and 0.04", st.PoseCovariance[0], st.PoseCovariance[35], want)
	}
	// Fresh telemetry: the link is back, the inflation stays.
	back := last.Add(5 * time.Second)
	if l.observe(back, 4, back, true, moved, 3*time.Second) {
		t.Error("still lost after fresh telemetry")
	}
	// At 1 Hz the bound is capped by the telemetry timeout.
	l.observe(back.Add(time.Second), 5, back.Add(time.Second), true, moved, 2500*time.Millisecond)
	if l.state.LostAfter != 2500*time.Millisecond {
		t.Errorf("LostAfter %v at 1 Hz with a 2.5 s telemetry timeout, want 2.5 s", l.state.LostAfter)
	}
}
