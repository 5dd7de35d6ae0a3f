package rosconsoletest

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
)

// gamepadJoy: a page with a pad takes control, holds LB and pushes the
// left stick up on the drive screen (the Servosila's): the robot drives, and /joy (the
// Servosila's namespace is the root here) carries the pad with ROS's
// signs: axis 1 +1, button 4 (LB) pressed.
func gamepadJoy(t *testing.T, r *rig) {
	p, closeP := browsertest.OpenOn(t, r.browser, r.url, browsertest.Desktop, browsertest.FakeGamepad)
	defer closeP()
	browsertest.WaitFor(t, 10*time.Second, "the pad's page connected", func() bool {
		role := browsertest.Role(t, p)
		return role == "IN CONTROL" || strings.HasPrefix(role, "VIEW ONLY")
	})
	if browsertest.Role(t, p) != "IN CONTROL" {
		browsertest.Click(t, p, "#take")
	}
	browsertest.WaitFor(t, 10*time.Second, "the pad's page in control", func() bool { return browsertest.Role(t, p) == "IN CONTROL" })
	// The drive screen (the Servosila's), once the page sees the pad.
	browsertest.WaitFor(t, 10*time.Second, "the page seeing the pad", func() bool {
		return strings.Contains(browsertest.Eval[string](t, p, `document.getElementById('padstate').textContent`), "released")
	})
	browsertest.Eval[bool](t, p, `window.__button(4, 1) && (window.__pad.axes[1] = -1, true)`)
	browsertest.WaitFor(t, 10*time.Second, "the Servosila driving forward from the pad", func() bool { return r.truth().Linear > 0 })

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ros2", "topic", "echo", "--once", "--csv", "/joy", "sensor_msgs/msg/Joy").CombinedOutput()
	browsertest.Eval[bool](t, p, `window.__button(4, 0) && (window.__pad.axes[1] = 0, true)`)
	r.stoppedAt(5 * time.Second)
	if err != nil {
		t.Fatalf("ros2 topic echo /joy: %v\n%s", err, out)
	}
	// sec, nanosec, frame_id, 6 axes, 17 buttons.
	f := strings.Split(strings.TrimSpace(string(out)), ",")
	if len(f) != 3+6+17 {
		t.Fatalf("/joy: %d fields, want 26: %s", len(f), out)
	}
	if got := strings.Join(f[3:9], ","); got != "0.0,1.0,0.0,0.0,0.0,0.0" {
		t.Errorf("/joy axes %s, want left stick up (axis 1) at +1", got)
	}
	if got := strings.Join(f[9:], ","); got != "0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0" {
		t.Errorf("/joy buttons %s, want LB (4) alone", got)
	}
	t.Logf("/joy while the pad drove: %s", strings.TrimSpace(string(out)))
}
