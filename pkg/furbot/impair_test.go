package furbot_test

import (
	"context"
	"math"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/simrig"
	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/sim"
	"github.com/telebridge/telebridge/pkg/impair"
)

// The tests in this file run the bridge against the simulator in real
// time through the impairment proxy (pkg/impair), and judge the outcome
// from the simulator's truth. They wait for the conditions they assert,
// with deadlines far beyond what an idle machine needs, so CPU load slows
// them down without failing them.

// impRig is the shared rig (internal/testkit/simrig: a simulator, a
// proxy and a bridge) and the snapshots the bridge published.
type impRig struct {
	*simrig.Rig[*sim.Sim, *furbot.Bridge]
	t      *testing.T
	proxy  *impair.Proxy
	bridge *furbot.Bridge

	mu    sync.Mutex
	snaps []furbot.Snapshot
}

func newImpRig(t *testing.T, seed uint64, up, down impair.Impairment) *impRig {
	t.Helper()
	r := &impRig{t: t}
	r.Rig = simrig.New(t, simrig.Config[*sim.Sim, *furbot.Bridge]{
		Seed: seed, Up: up, Down: down,
		NewSim: func(listen string) (*sim.Sim, error) {
			return sim.New(sim.Config{Listen: listen, Params: sim.Params{StartupTime: 0.2}})
		},
		NewDriver: func(at netip.AddrPort) (*furbot.Bridge, func(context.Context) error, error) {
			b, err := furbot.NewBridge(furbot.BridgeConfig{Listen: "127.0.0.1:0", Vehicle: at,
				OnSnapshot: func(s *furbot.Snapshot) {
					r.mu.Lock()
					r.snaps = append(r.snaps, *s)
					r.mu.Unlock()
				}})
			if err != nil {
				return nil, nil, err
			}
			return b, b.Run, nil
		},
	})
	r.proxy, r.bridge = r.Proxy, r.Driver
	waitFor(t, 20*time.Second, "the bridge to start", r.bridge.Started)
	return r
}

func (r *impRig) truth() sim.Truth { return r.Sim().Truth() }

func (r *impRig) latest() furbot.Snapshot {
	s, _ := r.bridge.Latest()
	return s
}

func (r *impRig) snapshots() []furbot.Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]furbot.Snapshot(nil), r.snaps...)
}

// stopAndSettle stops commanding, waits for the vehicle to stand still
// and the odometry to have seen it, and returns odometry and truth
// distances.
func (r *impRig) stopAndSettle(stop func()) (odom, truth float64) {
	r.t.Helper()
	stop()
	waitFor(r.t, 20*time.Second, "the vehicle to stop", func() bool {
		return r.truth().V == 0 && r.latest().Status.Traction.Speed == 0
	})
	// The last status frames describe the stop; let one more arrive.
	n := r.latest().Frames
	waitFor(r.t, 10*time.Second, "one more status frame", func() bool { return r.latest().Frames > n })
	return r.latest().Odom.Distance, r.truth().Distance
}

// TestImpairedLossAndJitter: 15 % loss, 0-20 ms jitter and 2 %
// duplicates in both directions. The vehicle still follows 1.5 m/s: the
// truth holds 1.5 ± 0.1 m/s for 2 s of simulated time in a row (waited
// for, so that a CPU stall of the test machine, which makes the bridge
// disable the vehicle on a stale status, delays the test rather than
// failing it), and the final odometry is within 1 % of the distance the
// simulator travelled.
func TestImpairedLossAndJitter(t *testing.T) {
	t.Parallel()
	link := impair.Impairment{Loss: 0.15, Jitter: 20 * time.Millisecond, Duplicate: 0.02}
	r := newImpRig(t, 11, link, link)
	stop := hold(r.bridge, control.Twist{V: 1.5})
	var since float64 = -1 // simulated time the speed entered the band
	waitFor(t, 60*time.Second, "2 s of simulated time at 1.5 ± 0.1 m/s", func() bool {
		tr := r.truth()
		switch {
		case math.Abs(tr.V-1.5) > 0.1:
			since = -1
		case since < 0:
			since = tr.T
		}
		return since >= 0 && tr.T-since >= 2
	})
	odom, truth := r.stopAndSettle(stop)
	up, down := r.proxy.Stats(impair.Up), r.proxy.Stats(impair.Down)
	st := r.bridge.Stats()
	t.Logf("odometry %.4f m, truth %.4f m (error %.3f %%); lost up %d/%d, down %d/%d; bridge dropped %d old/duplicate frames",
		odom, truth, 100*(odom-truth)/truth, up.Lost(), up.Received, down.Lost(), down.Received, st.Dropped)
	if math.Abs(odom-truth) > 0.01*truth {
		t.Errorf("odometry %.4f m against truth %.4f m: more than 1 %%", odom, truth)
	}
	if up.LostRandom == 0 || down.LostRandom == 0 || down.Duplicated == 0 || st.Dropped == 0 {
		t.Errorf("counters do not show the impairment: up %+v down %+v bridge %+v", up, down, st)
	}
}

// TestImpairedStaleFramesNeverWin: with 20 % duplicates and 20 %
// reordering of status frames, the published state never goes back in
// vehicle time, and the old frames are counted. (Control frames carry a
// sequence number but the vehicle's protocol as documented does not say
// that it drops old ones; the simulator applies the latest received.)
func TestImpairedStaleFramesNeverWin(t *testing.T) {
	t.Parallel()
	r := newImpRig(t, 12, impair.Impairment{}, impair.Impairment{Duplicate: 0.2, Reorder: 0.2, ReorderDelay: 25 * time.Millisecond})
	stop := hold(r.bridge, control.Twist{V: 1, W: 0.1})
	waitFor(t, 30*time.Second, "2 m travelled", func() bool { return r.truth().Distance > 2 })
	stop()
	snaps := r.snapshots()
	for i := 1; i < len(snaps); i++ {
		a, b := snaps[i-1].Status.Timestamp, snaps[i].Status.Timestamp
		if b < a {
			t.Fatalf("snapshot %d: vehicle time went back from %d to %d ms", i, a, b)
		}
		if snaps[i].Odom.Distance < snaps[i-1].Odom.Distance {
			t.Fatalf("snapshot %d: odometry distance went back", i)
		}
	}
	if st, d := r.bridge.Stats(), r.proxy.Stats(impair.Down); st.Dropped < d.Duplicated {
		t.Errorf("bridge dropped %d old frames, proxy duplicated %d (each copy is old)", st.Dropped, d.Duplicated)
	}
}

// TestImpairedBlackout: a 1.5 s blackout of both directions at 1.5 m/s.
// The bridge reports the link lost and disables the vehicle; the vehicle
// brakes to a stop on its own watchdog; after the link is back nothing
// moves until fresh commands arrive; the odometry keeps the distance
// travelled during the gap (traction odometer) and ends within 1 % of
// the truth.
func TestImpairedBlackout(t *testing.T) {
	t.Parallel()
	r := newImpRig(t, 13, impair.Impairment{}, impair.Impairment{})
	stop := hold(r.bridge, control.Twist{V: 1.5})
	waitFor(t, 30*time.Second, "cruising at 1.5 m/s after 2 m", func() bool {
		tr := r.truth()
		return tr.Distance > 2 && math.Abs(tr.V-1.5) < 0.1
	})
	r.Blackout(true)
	on := time.Now()
	stop() // the operator's commands stop too; they must not be replayed
	waitFor(t, 20*time.Second, "the bridge to see the link lost", func() bool {
		s := r.latest()
		return !s.Ready && s.Output.Mode == control.ModeDisabled
	})
	waitFor(t, 20*time.Second, "the vehicle to stop on its watchdog", func() bool { return r.truth().V == 0 })
	waitFor(t, 20*time.Second, "1.5 s of blackout", func() bool { return time.Since(on) >= 1500*time.Millisecond })
	r.Blackout(false)
	waitFor(t, 20*time.Second, "the link back", func() bool { return r.latest().Ready })
	// Link back, no fresh command: 50 status frames later still still.
	n := r.latest().Frames
	waitFor(t, 20*time.Second, "50 status frames after the link came back", func() bool { return r.latest().Frames > n+50 })
	if v := r.truth().V; v != 0 {
		t.Fatalf("vehicle moves at %.3f m/s after the link came back without a fresh command", v)
	}
	d0 := r.truth().Distance
	stop = hold(r.bridge, control.Twist{V: 1.5})
	waitFor(t, 30*time.Second, "motion again on fresh commands", func() bool { return r.truth().Distance > d0+1 })
	odom, truth := r.stopAndSettle(stop)
	st := r.bridge.Stats()
	t.Logf("after a 1.5 s blackout: odometry %.4f m, truth %.4f m (error %.3f %%); gaps %d, bridged %d, held %d",
		odom, truth, 100*(odom-truth)/truth, st.Gaps, st.GapsBridged, st.GapsHeld)
	if math.Abs(odom-truth) > 0.01*truth {
		t.Errorf("odometry %.4f m against truth %.4f m: more than 1 %%", odom, truth)
	}
	if st.GapsBridged == 0 {
		t.Errorf("no gap bridged: %+v", st)
	}
}

// TestImpairedCorruptedStatus: 5 % of the status frames get 2 bits
// flipped. The protocol has no checksum; the plausibility checks drop the
// frames whose speed, steering or odometer jump (counted), the decoder
// those whose structure breaks. What cannot be detected (a flip in the
// low bits of a value, in a state or flag byte, in the BMS, hydraulics
// or fork blocks) passes: the odometry stays within 2 % of the truth.
func TestImpairedCorruptedStatus(t *testing.T) {
	t.Parallel()
	r := newImpRig(t, 14, impair.Impairment{}, impair.Impairment{BitFlip: 0.05, FlipBits: 2})
	stop := hold(r.bridge, control.Twist{V: 1.5, W: 0.1})
	waitFor(t, 30*time.Second, "4 m travelled", func() bool { return r.truth().Distance > 4 })
	odom, truth := r.stopAndSettle(stop)
	st := r.bridge.Stats()
	d := r.proxy.Stats(impair.Down)
	t.Logf("%d status frames corrupted: %d implausible, %d invalid, %d dropped as old; odometry %.4f m, truth %.4f m (error %.3f %%)",
		d.Corrupted, st.Implausible, st.Invalid, st.Dropped, odom, truth, 100*(odom-truth)/truth)
	if st.Implausible == 0 {
		t.Errorf("no frame found implausible among %d corrupted", d.Corrupted)
	}
	if math.Abs(odom-truth) > 0.02*truth {
		t.Errorf("odometry %.4f m against truth %.4f m: more than 2 %%", odom, truth)
	}
}

// TestVehicleReboot: the simulator is killed mid-drive and a new one
// started on the same port. The bridge, never restarted, follows the new
// vehicle clock (resync), waits for its subsystems, and drives it on the
// commands it keeps receiving. The odometry holds across the reboot (the
// odometer restarted from 0) instead of jumping.
func TestVehicleReboot(t *testing.T) {
	t.Parallel()
	r := newImpRig(t, 15, impair.Impairment{}, impair.Impairment{})
	stop := hold(r.bridge, control.Twist{V: 1.5})
	defer stop()
	waitFor(t, 30*time.Second, "2 m travelled", func() bool { return r.truth().Distance > 2 })
	var before float64
	r.Reboot(func() { before = r.latest().Odom.Distance })
	waitFor(t, 30*time.Second, "the rebooted vehicle to drive 2 m", func() bool { return r.truth().Distance > 2 })
	st := r.bridge.Stats()
	if st.Resyncs == 0 {
		t.Errorf("no clock resync after the reboot: %+v", st)
	}
	after := r.latest().Odom.Distance
	if moved := after - before; moved > r.truth().Distance+0.05 {
		t.Errorf("odometry moved %.3f m across the reboot, the new vehicle only %.3f m", moved, r.truth().Distance)
	}
}
