package direct_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
)

// stallPage blocks the page's main thread for ms of every ms+20 (its
// timers, the held key's re-sends among them, fire late), until
// window.__unstall().
func stallPage(ms int) string {
	return `(() => { let on = true; window.__unstall = () => { on = false; return true; };
		const step = () => { if (!on) return; const t = performance.now(); while (performance.now() - t < ` + strconv.Itoa(ms) + `); setTimeout(step, 20); };
		step(); return true; })()`
}

// TestLinkSlowShown: while the held key's re-sends come late (the page's
// main thread starved for 180 ms at a time, as on a busy machine: late,
// not yet past the deadman's 300 ms), the bar shows LINK SLOW; with
// nothing held it goes back to "connected".
func TestLinkSlowShown(t *testing.T) {
	r := newRig(t)
	p, closeP := r.inControl(browsertest.Desktop, "")
	defer closeP()
	link := func() string { return eval[string](r, p, `document.getElementById('link').textContent`) }
	waitFor(t, 10*time.Second, "the link connected", func() bool { return link() == "connected" })
	r.do(p, key("w", true))
	r.drives("the robot driving on W")
	late0 := r.srv.Counters().Expired.Load()
	eval[bool](r, p, stallPage(180))
	waitFor(t, 15*time.Second, "LINK SLOW in the bar while W is held and the page's re-sends come late", func() bool { return link() == "LINK SLOW" })
	title := eval[string](r, p, `document.getElementById('link').title`)
	t.Logf("bar: LINK SLOW (%s); deadman expiries meanwhile: %d", title, r.srv.Counters().Expired.Load()-late0)
	eval[bool](r, p, `window.__unstall()`)
	r.do(p, key("w", false))
	r.stoppedAt(5 * time.Second)
	waitFor(t, 15*time.Second, "the bar back to connected with nothing held", func() bool { return link() == "connected" })
}
