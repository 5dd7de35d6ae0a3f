package direct_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/access"
)

// probeSocket is a page expression: the page opens a WebSocket of its own
// to the console (with the page's cookie, so as its operator) and sends
// msgs on it, as a hand-written client of that operator would; it sets
// window.__probeSent to the number sent once they are on the wire.
func probeSocket(msgs ...string) string {
	return fmt.Sprintf(`(() => {
		window.__probeSent = 0;
		const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
		ws.onopen = () => { for (const m of %s) ws.send(m); window.__probeSent = %d; };
		window.__probe = ws;
		return true;
	})()`, jsStrings(msgs), len(msgs))
}

// jsStrings returns msgs as a JavaScript array of strings.
func jsStrings(msgs []string) string {
	q := make([]string, len(msgs))
	for i, m := range msgs {
		q[i] = fmt.Sprintf("%q", m)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// refusals is every command the console refused for want of control or
// of a role.
func (r *rig) refusals() uint64 {
	c := r.srv.Counters()
	return c.ViewOnly.Load() + c.Role.Load()
}

// latched reports whether the simulated Servosila's driver holds the
// e-stop.
func (r *rig) latched() bool { return r.be.ServosilaDriver().Status().EStopped }

// TestBrowserRoles is the probes of the roles, the e-stop and the
// take-over rules in Chromium, with operators from a tokens file (a
// viewer, a driver, an admin, each logged in with the form in a browser
// profile of their own) and the simulated robot's truth. What TestBrowser
// covers already (a page without control cannot drive, its e-stop
// latches, a take-over is announced) is not repeated; here: the view role
// (not just a page without control), the release's confirmation, and a
// take-over while the e-stop is latched.
func TestBrowserRoles(t *testing.T) {
	ops := []access.Operator{
		{Name: "watcher", Token: newToken(t), Roles: access.RoleView},
		{Name: "driver", Token: newToken(t), Roles: access.RoleDrive},
		{Name: "boss", Token: newToken(t), Roles: access.RoleAdmin},
	}
	r := newRigWith(t, lean, console.Config{Operators: ops})
	login := func(op access.Operator) (context.Context, context.CancelFunc) {
		t.Helper()
		return browsertest.Login(t, browsertest.Profile(t, r.browser), base(r.url), op.Token, browsertest.Desktop)
	}
	role := func(p context.Context) string { return browsertest.Role(t, p) }
	drv, closeDrv := login(ops[1])
	defer closeDrv()
	waitFor(t, 10*time.Second, "the driver's page in control", func() bool { return role(drv) == "IN CONTROL" })
	view, closeView := login(ops[0])
	defer closeView()
	waitFor(t, 10*time.Second, "the viewer's page connected", func() bool { return strings.HasPrefix(role(view), "VIEW ONLY") })

	t.Run("a view-token page cannot drive, even with control free", func(t *testing.T) {
		r.t = t
		if eval[bool](r, view, `!document.getElementById('take').classList.contains('hidden')`) {
			t.Fatal("the viewer's page offers Take control")
		}
		// The driver lets go of control: nobody holds it.
		r.click(drv, "#leave")
		waitFor(t, 5*time.Second, "control free", func() bool { return role(view) == "VIEW ONLY: nobody controls" })
		refused := r.refusals()
		r.do(view, key("w", true))
		// The viewer's own client asks for control and drives.
		eval[bool](r, view, probeSocket(`{"type":"take_control"}`, `{"type":"servosila_drive","linear":0.5,"angular":0}`))
		waitFor(t, 10*time.Second, "the console refusing the viewer's commands", func() bool {
			return eval[int](r, view, `window.__probeSent`) == 2 && r.refusals() >= refused+3
		})
		r.standsFor(5, "with W held on the viewer's page")
		r.do(view, key("w", false))
		eval[bool](r, view, `(window.__probe.close(), true)`)
		if role(view) != "VIEW ONLY: nobody controls" {
			t.Fatalf("the viewer's page: %q", role(view))
		}
		r.click(drv, "#take")
		waitFor(t, 5*time.Second, "the driver in control again", func() bool { return role(drv) == "IN CONTROL" })
	})

	t.Run("a view-token page latches the e-stop but cannot release it", func(t *testing.T) {
		r.t = t
		r.do(drv, key("w", true))
		r.drives("the driver driving")
		r.click(view, "#estop")
		r.stoppedAt(2 * time.Second)
		r.do(drv, key("w", false))
		waitFor(t, 5*time.Second, "the driver latched", r.latched)
		waitFor(t, 5*time.Second, "the viewer's page showing the latch", func() bool {
			return eval[string](r, view, `document.getElementById('estate').textContent`) == "E-STOP LATCHED"
		})
		if !eval[bool](r, view, `document.getElementById('release').disabled`) {
			t.Fatal("Release e-stop is enabled on the viewer's page")
		}
		refused := r.refusals()
		// The probe: take_control, then release (and a
		// confirmation), from the viewer's page and from its own client.
		eval[bool](r, view, `(() => { const b = document.getElementById('release'); b.disabled = false; b.click(); return true; })()`)
		eval[bool](r, view, probeSocket(`{"type":"take_control"}`, `{"type":"release"}`, `{"type":"release_confirm","nonce":"00"}`))
		waitFor(t, 10*time.Second, "the console refusing the viewer's release", func() bool {
			return eval[int](r, view, `window.__probeSent`) == 3 && r.refusals() >= refused+3
		})
		r.do(drv, key("w", true))
		r.standsFor(5, "after the viewer's release, W held on the driver's page")
		r.do(drv, key("w", false))
		eval[bool](r, view, `(window.__probe.close(), true)`)
		if !r.latched() {
			t.Fatal("the viewer released the e-stop")
		}
	})

	t.Run("the drive-token page releases only with the explicit confirmation", func(t *testing.T) {
		r.t = t
		if !r.latched() {
			t.Fatal("not latched (the previous subtest failed?)")
		}
		r.click(drv, "#release")
		waitFor(t, 5*time.Second, "the confirmation asked on the driver's page", func() bool {
			return !eval[bool](r, drv, `document.getElementById('releaseconfirm').classList.contains('hidden')`)
		})
		// Asked but not confirmed: W moves nothing.
		r.do(drv, key("w", true))
		r.standsFor(5, "with the release asked and not confirmed")
		if !r.latched() {
			t.Fatal("asking released the e-stop")
		}
		r.do(drv, key("w", false))
		r.click(drv, "#releaseconfirm")
		waitFor(t, 5*time.Second, "the release", func() bool { return !r.latched() })
		r.do(drv, key("w", true))
		r.drives("the driver driving after the release")
		r.do(drv, key("w", false))
		r.stoppedAt(5 * time.Second)
	})

	t.Run("a take-over while latched keeps the latch; the page that lost control is told", func(t *testing.T) {
		r.t = t
		boss, closeBoss := login(ops[2])
		defer closeBoss()
		waitFor(t, 10*time.Second, "the admin's page connected", func() bool { return strings.HasPrefix(role(boss), "VIEW ONLY") })
		r.do(drv, key("w", true))
		r.drives("the driver driving")
		r.do(drv, key(" ", true), key(" ", false))
		r.stoppedAt(2 * time.Second)
		waitFor(t, 5*time.Second, "the driver latched", r.latched)
		// The driver asks for the release, then the admin takes over
		// before it is confirmed; W stays held on the driver's page.
		r.click(drv, "#release")
		waitFor(t, 5*time.Second, "the confirmation asked on the driver's page", func() bool {
			return !eval[bool](r, drv, `document.getElementById('releaseconfirm').classList.contains('hidden')`)
		})
		r.click(boss, "#take")
		waitFor(t, 5*time.Second, "the admin in control, the driver told", func() bool {
			n := eval[string](r, drv, `document.getElementById('notice').textContent`)
			return role(boss) == "IN CONTROL" && strings.Contains(n, "You lost control: boss") && strings.Contains(n, "The e-stop stays latched.")
		})
		if !eval[bool](r, drv, `document.getElementById('releaseconfirm').classList.contains('hidden')`) {
			t.Fatal("the page that lost control still offers to confirm the release")
		}
		r.standsFor(5, "after the take-over, W held on the driver's page")
		if !r.latched() {
			t.Fatal("the take-over released the e-stop")
		}
		r.shot(drv, "lost-control-latched")
		r.do(drv, key("w", false))
		// The new holder releases it, with its own confirmation.
		browsertest.ReleaseEStop(t, boss)
		waitFor(t, 5*time.Second, "the admin's release", func() bool { return !r.latched() })
	})
}
