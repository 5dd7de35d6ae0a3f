package console

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/console/access"
	"github.com/telebridge/telebridge/pkg/servosila"
)

// realServosila returns a hub whose Servosila limits are the default
// driver's, as SetServosilaLimits reads them, and that driver's
// configuration.
func realServosila(t *testing.T) (*hub, *fakeBackend, *Counters, servosila.Config) {
	t.Helper()
	c, err := servosila.Config{}.WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	in := (&fakeBackend{}).Info()
	SetServosilaLimits(&in, c)
	be := &fakeBackend{info: &in}
	cnt := &Counters{}
	h := newHub(be, hubConfig{timeout: 300 * time.Millisecond, rate: 1000, burst: 1000, estopRepeat: 20 * time.Millisecond, confirm: 10 * time.Second,
		journal: access.NewJournal(quiet, nil, 10*time.Second), cnt: cnt, notify: func(uint64, []byte) {}})
	return h, be, cnt, c
}

// TestServosilaLimitsRead: what the driver does, read through its API:
// 0.2 start speed, the gripper at its one speed of 32767/65534 rad/s, an
// e-stop interval of 1/50 s.
func TestServosilaLimitsRead(t *testing.T) {
	_, be, _, c := realServosila(t)
	in := be.Info()
	if in.ServosilaStartSpeed != 0.2 || math.Abs(in.ServosilaGripperSpeed-32767.0/65534) > 1e-12 || math.Abs(in.EStopInterval-0.02) > 1e-12 {
		t.Fatalf("start %g, gripper %g, e-stop interval %g", in.ServosilaStartSpeed, in.ServosilaGripperSpeed, in.EStopInterval)
	}
	if k := c.Calibration.Angular / c.Calibration.Linear; in.ServosilaHalfTrack != k {
		t.Fatalf("half track %g, want %g", in.ServosilaHalfTrack, k)
	}
	// The driver's own rules, which the panel must not let through.
	if v, w := c.ChassisLimits().Apply(0.1, 0); v != 0.2 || w != 0 {
		t.Fatalf("driver executes 0.1 m/s as %g, %g", v, w)
	}
	if g := executedGripper(c, -0.3); math.Abs(g+0.5) > 1e-4 {
		t.Fatalf("driver executes the gripper at -0.3 as %g", g)
	}
	// With the start speed off, nothing is refused.
	c.MinStartVelocity = -1
	SetServosilaLimits(&in, c)
	if in.ServosilaStartSpeed != 0 {
		t.Fatalf("start speed %g with the rule off", in.ServosilaStartSpeed)
	}
}

// TestFasterSpeedRefused is the probe: with linear max 0.1
// and angular 0.05 accepted, a drive at 0.1 is refused and zero goes out
// (the driver would send 0.2); the gripper at -0.3 is refused (it would go
// out as -0.5); the page is told why.
func TestFasterSpeedRefused(t *testing.T) {
	h, be, cnt, _ := realServosila(t)
	p, _ := join(h)
	for _, m := range []string{`{"type":"max_velocity","joint":"linear","value":0.1}`, `{"type":"max_velocity","joint":"angular","value":0.05}`,
		`{"type":"max_velocity","joint":"gripper","value":0.3}`} {
		if err := h.handle(ctx, p, []byte(m), at(0)); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	for _, c := range []struct{ msg, call, says string }{
		{`{"type":"servosila_drive","linear":0.1,"angular":0}`, "drive 0 0", "0.10 m/s is below the robot's 0.2 m/s start speed"},
		{`{"type":"servosila_drive","linear":-0.1,"angular":0}`, "drive 0 0", "0.10 m/s is below the robot's 0.2 m/s start speed"},
		{`{"type":"servosila_drive","linear":0,"angular":0.05}`, "drive 0 0", "0.05 rad/s is below the robot's 0.2 rad/s start speed"},
		{`{"type":"servosila_drive","linear":0.1,"angular":-0.05}`, "drive 0 0", "both below the robot's start speed"},
		{`{"type":"servosila_joints","joints":{"gripper":-0.3}}`, "joints [0 0 0 0 0 0]", "gripper 0.30 rad/s is below the gripper's one fixed speed of 0.50 rad/s"},
		{`{"type":"servosila_joints","joints":{"gripper":0.3,"waist":0.2}}`, "joints [0 0 0 0 0 0]", "fixed speed"},
	} {
		err := h.handle(ctx, p, []byte(c.msg), at(10))
		if !errors.Is(err, ErrFaster) || !strings.Contains(err.Error(), c.says) {
			t.Fatalf("%s: %v, want ErrFaster saying %q", c.msg, err, c.says)
		}
		check(t, be, c.call)
	}
	if cnt.Faster.Load() != 6 {
		t.Fatalf("below-start count %d", cnt.Faster.Load())
	}
	// Nothing is held: the deadman has nothing to expire.
	h.tick(ctx, at(1000))
	check(t, be)
	// At or above the start speed, and mixed twists with one part above
	// it, pass unchanged.
	for _, m := range []string{`{"type":"max_velocity","joint":"linear","value":0.45}`, `{"type":"max_velocity","joint":"angular","value":1.3}`,
		`{"type":"max_velocity","joint":"gripper","value":0.5}`} {
		if err := h.handle(ctx, p, []byte(m), at(1000)); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ msg, call string }{
		{`{"type":"servosila_drive","linear":0.2,"angular":0}`, "drive 0.2 0"},
		{`{"type":"servosila_drive","linear":0.3,"angular":0.05}`, "drive 0.3 0.05"},
		{`{"type":"servosila_drive","linear":0.01,"angular":-0.5}`, "drive 0.01 -0.5"},
		{`{"type":"servosila_joints","joints":{"gripper":-0.5,"waist":0.01}}`, "joints [0.01 0 0 0 0 -0.5]"},
	} {
		if err := h.handle(ctx, p, []byte(c.msg), at(1010)); err != nil {
			t.Fatalf("%s: %v", c.msg, err)
		}
		check(t, be, c.call)
	}
}

// TestTwistFitsMaxima: the operator's maxima hold on what the robot
// executes per track (the driver starts or stops a track asked to move
// below its start speed): a twist the robot would run over them is scaled
// down and the executed twist is sent, which the driver passes unchanged.
// The probes: 0.1 m/s with 0.2 rad/s under an angular maximum of
// 0.2 (executed before as 0.242 rad/s), 0.05 m/s with 0.2 rad/s under a
// linear maximum of 0.05 (0.060 m/s).
func TestTwistFitsMaxima(t *testing.T) {
	h, be, _, c := realServosila(t)
	p, _ := join(h)
	k := c.Calibration.Angular / c.Calibration.Linear
	for _, tc := range []struct {
		name                 string
		maxLin, maxAng, v, w float64
		wantV, wantW         float64
	}{
		{"within the maxima: unchanged", 0.45, 1.3, 0.3, 0.05, 0.3, 0.05},
		{"angular maximum 0.2: a pivot about the left track at 0.2 rad/s", 0.45, 0.2, 0.1, 0.2, 0.2 * k, 0.2},
		{"linear maximum 0.05: a turn in place", 0.05, 1.3, 0.05, 0.2, 0, 0.2},
		{"the diagonal under maxima of 0.2: a pivot at 0.2 rad/s", 0.2, 0.2, 0.2, 0.2, 0.2 * k, 0.2},
		{"backwards right under maxima of 0.2", 0.2, 0.2, -0.2, -0.2, -0.2 * k, -0.2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, m := range []string{fmt.Sprintf(`{"type":"max_velocity","joint":"linear","value":%g}`, tc.maxLin),
				fmt.Sprintf(`{"type":"max_velocity","joint":"angular","value":%g}`, tc.maxAng),
				fmt.Sprintf(`{"type":"servosila_drive","linear":%g,"angular":%g}`, tc.v, tc.w)} {
				if err := h.handle(ctx, p, []byte(m), at(0)); err != nil {
					t.Fatalf("%s: %v", m, err)
				}
			}
			calls := be.take()
			var v, w float64
			if len(calls) != 1 {
				t.Fatalf("backend calls %q", calls)
			}
			if _, err := fmt.Sscanf(calls[0], "drive %g %g", &v, &w); err != nil {
				t.Fatalf("%q: %v", calls[0], err)
			}
			if math.Abs(v-tc.wantV) > 1e-6 || math.Abs(w-tc.wantW) > 1e-6 {
				t.Fatalf("sent %g, %g; want %g, %g", v, w, tc.wantV, tc.wantW)
			}
			// What the driver sends for it is what was sent: the robot
			// executes it.
			if dv, dw := c.ChassisLimits().Apply(v, w); math.Abs(dv-v) > 1e-9 || math.Abs(dw-w) > 1e-9 {
				t.Fatalf("the driver sends %g, %g for %g, %g", dv, dw, v, w)
			}
		})
	}
}

// TestTargetAboveOperatorMax: the driver moves to a position target at
// its own maximum velocity, so a target is refused while the operator's
// maximum of that joint is lower.
func TestTargetAboveOperatorMax(t *testing.T) {
	h, be, _, _ := realServosila(t)
	p, _ := join(h)
	if err := h.handle(ctx, p, []byte(`{"type":"max_velocity","joint":"waist","value":0.1}`), at(0)); err != nil {
		t.Fatal(err)
	}
	err := h.handle(ctx, p, []byte(`{"type":"servosila_target","joint":"waist","value":0.4}`), at(0))
	if !errors.Is(err, ErrFaster) || !strings.Contains(err.Error(), "above your 0.10 rad/s maximum") {
		t.Fatalf("target: %v", err)
	}
	check(t, be)
	if err := h.handle(ctx, p, []byte(`{"type":"servosila_target","joint":"elbow","value":0.4}`), at(0)); err != nil {
		t.Fatal(err)
	}
	check(t, be, "target 2 0.4")
}
