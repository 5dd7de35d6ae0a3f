package direct_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/syncbuf"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/access"
)

// floodPage is a page expression: the page opens three WebSockets of its
// own to the console and, for ms milliseconds, sends on each, every
// 10 ms, 50 rounds of what the probe sent (a malformed frame, a
// NUL text frame, a view-only jog_stop, an e-stop, a binary frame);
// window.__flood counts what went out and says when it is over.
const floodPage = `((ms) => {
	const f = window.__flood = { sent: 0, open: 0, done: false };
	const bad = ['{"type":', '\u0000', '{"type":"jog_stop"}', '{"type":"estop"}'];
	const end = performance.now() + ms;
	const socks = [0, 1, 2].map(() => new WebSocket('ws://' + location.host + '/ws'));
	for (const ws of socks) ws.onopen = () => { f.open++; };
	const tick = () => {
		for (const ws of socks) {
			if (ws.readyState !== 1) continue;
			for (let i = 0; i < 50; i++) {
				for (const m of bad) ws.send(m);
				ws.send(new Uint8Array([0]));
				f.sent += 5;
			}
		}
		if (performance.now() < end) setTimeout(tick, 10);
		else { for (const ws of socks) ws.close(); f.done = true; }
	};
	setTimeout(tick, 10);
	return true;
})`

// kindRe finds the kind of a console log line (slog's text format).
var kindRe = regexp.MustCompile(` kind=(\S+)`)

// TestBrowserLogBound is the probe with a browser: a page that
// floods bad messages through WebSockets of its own (page JS) while
// another page holds control makes at most a bounded number of log
// lines: per source and kind one line per interval, plus one of the
// merged rest with their count (audit-critical kinds: one per event at a
// human pace), however many messages came. The bound is counted in the console's own log output, over a
// span measured around the flood (a late, loaded machine only widens it).
func TestBrowserLogBound(t *testing.T) {
	const interval = time.Second
	var log syncbuf.Buffer
	r := newRigWith(t, lean, console.Config{Logger: log.Logger(), LogInterval: interval})
	holder, closeHolder := r.page()
	defer closeHolder()
	waitFor(t, 10*time.Second, "a page in control", func() bool { return browsertest.Role(t, holder) == "IN CONTROL" })
	flooder, closeFlooder := r.page()
	defer closeFlooder()
	waitFor(t, 10*time.Second, "the flooding page connected", func() bool { return strings.HasPrefix(browsertest.Role(t, flooder), "VIEW ONLY") })

	_, from := log.Lines(0)
	c := r.srv.Counters()
	refused := func() uint64 {
		return c.BadMessages.Load() + c.ViewOnly.Load() + c.Role.Load() + c.RateLimited.Load() + c.EStopsHeld.Load()
	}
	before := refused()
	start := time.Now()
	eval[bool](r, flooder, floodPage+`(3000)`)
	waitFor(t, 30*time.Second, "the flood over", func() bool { return eval[bool](r, flooder, `window.__flood.done`) })
	// Everything sent has been read by the console once its count stands.
	browsertest.Settled(t, 30*time.Second, 100*time.Millisecond, 5, "the console's counts to settle", refused)
	span := time.Since(start)
	sent := eval[int](r, flooder, `window.__flood.sent`)
	got := refused() - before
	lines, _ := log.Lines(from)
	perKind := map[string]int{}
	size := 0
	for _, l := range lines {
		size += len(l) + 1
		k := "?"
		if m := kindRe.FindStringSubmatch(l); m != nil {
			k = m[1]
		}
		perKind[k]++
	}
	t.Logf("%d messages sent in %v by the page (%d sockets open), %d refused or held by the console: %d log lines, %d bytes, by kind %v",
		sent, span.Round(time.Millisecond), eval[int](r, flooder, `window.__flood.open`), got, len(lines), size, perKind)
	if sent < 10_000 || got < 10_000 {
		t.Fatalf("a flood of %d messages (%d counted by the console) is too small to judge the bound", sent, got)
	}
	// Per kind (one source: 127.0.0.1, one operator: local), a line per
	// interval and the merged rest; an audit-critical kind (e-stop) a
	// line per event at a human pace (access.CriticalBurst, then
	// access.CriticalRate), each at most after a merged one.
	for k, n := range perKind {
		max := 2 * (int(span/interval) + 1)
		if access.Critical(k) {
			max = 2 * (access.CriticalBurst + int(access.CriticalRate*span.Seconds()) + 1)
		}
		if n > max {
			t.Errorf("%d log lines of kind %s in %v, want at most %d:\n%s", n, k, span, max, strings.Join(lines, "\n"))
		}
	}
	if !strings.Contains(strings.Join(lines, "\n"), " count=") {
		t.Errorf("no counts of merged lines in the log:\n%s", strings.Join(lines, "\n"))
	}
}
