package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// release asks for the e-stop's release from page p and confirms it with
// the nonce the hub sent back, as the page's confirm step does.
func release(t *testing.T, h *hub, n *notes, p uint64, now time.Time) {
	t.Helper()
	if err := h.handle(ctx, p, []byte(`{"type":"release"}`), now); err != nil {
		t.Fatalf("release: %v", err)
	}
	nonce := confirmNonce(t, n, p)
	if err := h.handle(ctx, p, []byte(`{"type":"release_confirm","nonce":"`+nonce+`"}`), now); err != nil {
		t.Fatalf("release_confirm: %v", err)
	}
}

// confirmNonce returns the nonce of the confirm_release message the hub
// sent to page p.
func confirmNonce(t *testing.T, n *notes, p uint64) string {
	t.Helper()
	for _, m := range n.take(p) {
		var c struct{ Type, Nonce string }
		if err := json.Unmarshal([]byte(m), &c); err == nil && c.Type == "confirm_release" {
			return c.Nonce
		}
	}
	t.Fatalf("page %d got no confirm_release", p)
	return ""
}

// TestViewOnlyCannotReleaseEStop is the probe: a view-only page
// sends take_control, then release; the latch stays.
func TestViewOnlyCannotReleaseEStop(t *testing.T) {
	h, be, cnt, n := testHubNotes(quiet)
	d, _ := joinAs(h, "driver", access.RoleDrive)
	v, control := joinAs(h, "watcher", access.RoleView)
	if control {
		t.Fatal("a view-only operator got control")
	}
	if err := h.handle(ctx, v, []byte(`{"type":"estop"}`), at(0)); err != nil {
		t.Fatalf("e-stop from view: %v", err)
	}
	check(t, be, "estop")
	if err := h.handle(ctx, v, []byte(`{"type":"take_control"}`), at(10)); !errors.Is(err, ErrRole) {
		t.Fatalf("view take_control: %v", err)
	}
	if err := h.handle(ctx, v, []byte(`{"type":"release"}`), at(20)); !errors.Is(err, ErrViewOnly) {
		t.Fatalf("view release: %v", err)
	}
	if err := h.handle(ctx, v, []byte(`{"type":"release_confirm","nonce":"00"}`), at(30)); !errors.Is(err, ErrViewOnly) {
		t.Fatalf("view release_confirm: %v", err)
	}
	check(t, be)
	if cnt.Role.Load() != 1 || cnt.ViewOnly.Load() != 2 {
		t.Fatalf("role refusals %d, view-only %d", cnt.Role.Load(), cnt.ViewOnly.Load())
	}
	// Even with the lease free, a view page cannot take it.
	h.leave(ctx, d, at(40), "test")
	if err := h.handle(ctx, v, []byte(`{"type":"take_control"}`), at(50)); !errors.Is(err, ErrRole) {
		t.Fatalf("view take_control of a free lease: %v", err)
	}
	if hold, _ := h.holder(); hold != 0 {
		t.Fatalf("holder %d", hold)
	}
	_ = n
}

// TestReleaseNeedsDriveAndConfirmation: only a page in control with the
// drive role releases, and only with the confirmation of that page, in
// time, with the nonce it got.
func TestReleaseNeedsDriveAndConfirmation(t *testing.T) {
	h, be, _, n := testHubNotes(quiet)
	a, _ := joinAs(h, "armer", access.RoleArm)
	if err := h.handle(ctx, a, []byte(`{"type":"estop"}`), at(0)); err != nil {
		t.Fatal(err)
	}
	be.take()
	if err := h.handle(ctx, a, []byte(`{"type":"release"}`), at(10)); !errors.Is(err, ErrRole) {
		t.Fatalf("arm-only release: %v", err)
	}
	h.leave(ctx, a, at(20), "test")
	d, _ := joinAs(h, "driver", access.RoleDrive)
	// A confirmation without a request, or with a wrong nonce: refused.
	if err := h.handle(ctx, d, []byte(`{"type":"release_confirm","nonce":"abc"}`), at(30)); !errors.Is(err, ErrBadMessage) {
		t.Fatalf("confirmation without a request: %v", err)
	}
	if err := h.handle(ctx, d, []byte(`{"type":"release"}`), at(40)); err != nil {
		t.Fatal(err)
	}
	check(t, be) // asking releases nothing
	nonce := confirmNonce(t, n, d)
	if err := h.handle(ctx, d, []byte(`{"type":"release_confirm","nonce":"x`+nonce+`"}`), at(50)); !errors.Is(err, ErrBadMessage) {
		t.Fatalf("wrong nonce: %v", err)
	}
	// The wrong nonce used the request up.
	if err := h.handle(ctx, d, []byte(`{"type":"release_confirm","nonce":"`+nonce+`"}`), at(60)); !errors.Is(err, ErrBadMessage) {
		t.Fatalf("nonce after a wrong one: %v", err)
	}
	// Too late.
	if err := h.handle(ctx, d, []byte(`{"type":"release"}`), at(100)); err != nil {
		t.Fatal(err)
	}
	nonce = confirmNonce(t, n, d)
	if err := h.handle(ctx, d, []byte(`{"type":"release_confirm","nonce":"`+nonce+`"}`), at(100+10_001)); !errors.Is(err, ErrBadMessage) {
		t.Fatalf("late confirmation: %v", err)
	}
	check(t, be)
	release(t, h, n, d, at(20_000))
	check(t, be, "release")
}

// TestTakeOver: only an admin takes control from another page; the page
// that loses control is told; a latched e-stop stays latched; a pending
// release of the old holder is void.
func TestTakeOver(t *testing.T) {
	h, be, _, n := testHubNotes(quiet)
	d, control := joinAs(h, "driver", access.RoleDrive|access.RoleArm)
	o, _ := joinAs(h, "other", access.RoleDrive)
	ad, _ := joinAs(h, "boss", access.RoleAdmin)
	if !control {
		t.Fatal("first page has no control")
	}
	if err := h.handle(ctx, o, []byte(`{"type":"take_control"}`), at(0)); !errors.Is(err, ErrRole) {
		t.Fatalf("non-admin take-over: %v", err)
	}
	if err := h.handle(ctx, d, []byte(`{"type":"estop"}`), at(10)); err != nil {
		t.Fatal(err)
	}
	if err := h.handle(ctx, d, []byte(`{"type":"release"}`), at(20)); err != nil {
		t.Fatal(err)
	}
	nonce := confirmNonce(t, n, d)
	be.take()
	if err := h.handle(ctx, ad, []byte(`{"type":"take_control"}`), at(30)); err != nil {
		t.Fatal(err)
	}
	check(t, be) // nothing ran; above all no release
	got := n.take(d)
	if len(got) != 1 || !strings.Contains(got[0], `"type":"lost_control"`) || !strings.Contains(got[0], `"operator":"boss"`) || !strings.Contains(got[0], `"estop_latched":true`) {
		t.Fatalf("the old holder was told %q", got)
	}
	if err := h.handle(ctx, d, []byte(`{"type":"release_confirm","nonce":"`+nonce+`"}`), at(40)); !errors.Is(err, ErrViewOnly) {
		t.Fatalf("old holder's confirmation after the take-over: %v", err)
	}
	check(t, be)
	if hold, _ := h.holder(); hold != ad {
		t.Fatalf("holder %d, want %d", hold, ad)
	}
}

// TestRoles: each command needs its role; stopping needs none.
func TestRoles(t *testing.T) {
	for _, c := range []struct {
		roles access.Role
		msg   string
		ok    bool
	}{
		{access.RoleDrive, `{"type":"servosila_drive","linear":0.3,"angular":0}`, true},
		{access.RoleArm, `{"type":"servosila_drive","linear":0.3,"angular":0}`, false},
		{access.RoleArm, `{"type":"servosila_drive","linear":0,"angular":0}`, true},
		{access.RoleDrive, `{"type":"servosila_joints","joints":{"flippers":0.3}}`, true},
		{access.RoleDrive, `{"type":"servosila_joints","joints":{"waist":0.3}}`, false},
		{access.RoleDrive, `{"type":"servosila_joints","joints":{"gripper":0.5}}`, false},
		{access.RoleArm, `{"type":"servosila_joints","joints":{"gripper":0.5,"waist":0.1}}`, true},
		{access.RoleArm, `{"type":"servosila_joints","joints":{"flippers":0.3}}`, false},
		{access.RoleArm, `{"type":"servosila_target","joint":"waist","value":0.4}`, true},
		{access.RoleDrive, `{"type":"servosila_target","joint":"waist","value":0.4}`, false},
		{access.RoleDrive, `{"type":"headlight","on":true}`, true},
		{access.RoleArm, `{"type":"headlight","on":true}`, false},
		{access.RoleDrive, `{"type":"furbot_drive","v":1,"w":0}`, true},
		{access.RoleArm, `{"type":"furbot_drive","v":1,"w":0}`, false},
		{access.RoleArm, `{"type":"jog_joint","delta":true,"values":[1,0],"speed":0.5}`, true},
		{access.RoleDrive, `{"type":"jog_joint","delta":true,"values":[1,0],"speed":0.5}`, false},
		{access.RoleDrive, `{"type":"jog_stop"}`, true},
		{access.RoleDrive, `{"type":"max_velocity","joint":"linear","value":0.3}`, true},
		{access.RoleDrive, `{"type":"max_velocity","joint":"elbow","value":0.3}`, false},
	} {
		h, be, _ := testHub()
		p, control := joinAs(h, "op", c.roles)
		if !control {
			t.Fatalf("%v: no control", c.roles)
		}
		err := h.handle(ctx, p, []byte(c.msg), at(0))
		if c.ok != (err == nil) || (!c.ok && !errors.Is(err, ErrRole)) {
			t.Errorf("%v %s: %v", c.roles, c.msg, err)
		}
		if calls := be.take(); !c.ok && len(calls) != 0 {
			t.Errorf("%v %s: refused but called %q", c.roles, c.msg, calls)
		}
	}
}

// TestEStopFlood: while the latch is set, e-stops reach the backend at
// most every estopRepeat (20 ms), however many pages send them.
func TestEStopFlood(t *testing.T) {
	h, be, cnt := testHub()
	var pages []uint64
	for range 3 {
		p, _ := join(h)
		pages = append(pages, p)
	}
	sent := 0
	for ms := 0; ms < 1000; ms++ { // 3 pages x 10 e-stops a millisecond for 1 s
		for _, p := range pages {
			for range 10 {
				if err := h.handle(ctx, p, []byte(`{"type":"estop"}`), at(ms)); err != nil {
					t.Fatal(err)
				}
			}
		}
		sent += len(be.take())
	}
	if sent > 1000/20+1 {
		t.Fatalf("%d e-stops reached the backend in 1 s, want at most %d", sent, 1000/20+1)
	}
	if sent < 1000/20 {
		t.Fatalf("%d e-stops reached the backend in 1 s: the latch is repeated every 20 ms", sent)
	}
	if held := cnt.EStopsHeld.Load(); held != 30_000-uint64(sent) {
		t.Fatalf("held %d", held)
	}
}

// TestLogBound is the probe: malformed frames, NUL text frames,
// view-only jog_stop and e-stops, thousands from three pages, give a
// bounded number of log lines: one per source, kind and interval, with
// the count of the rest.
func TestLogBound(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	h, _, _, _ := testHubNotes(log)
	var pages []uint64
	for i := range 3 {
		p, _ := joinAs(h, "op", access.RoleDrive)
		h.pages[p].source = []string{"10.0.0.1", "10.0.0.2", "10.0.0.3"}[i]
		pages = append(pages, p)
	}
	before := h.j.Written()
	const seconds = 4
	msgs := 0
	for ms := 0; ms < seconds*1000; ms++ {
		for _, p := range pages {
			for _, m := range []string{`{"type":`, "\x00", `{"type":"jog_stop"}`, `{"type":"estop"}`} {
				_ = h.handle(ctx, p, []byte(m), at(ms))
				msgs++
			}
		}
	}
	h.j.Flush(at(seconds*1000), true)
	lines := h.j.Written() - before
	// Per page (source): the noisy kinds bad_message and view_only one
	// line in the 10 s interval and one of the merged rest; the e-stop,
	// audit-critical, CriticalBurst lines and CriticalRate a second, each
	// at most preceded by one of the merged ones, and one at the end.
	perPage := 2*2 + 2*(access.CriticalBurst+access.CriticalRate*seconds) + 1
	if max := uint64(3 * perPage); lines > max {
		t.Fatalf("%d messages made %d log lines, want at most %d:\n%s", msgs, lines, max, buf.String())
	}
	// Every e-stop is in the log: a line of its own, or counted in a
	// merged line with the times of its first and last.
	estops := 0
	for _, l := range strings.Split(buf.String(), "\n") {
		if !strings.Contains(l, "kind=estop") {
			continue
		}
		n := 1
		if _, c, ok := strings.Cut(l, " count="); ok {
			c, _, _ = strings.Cut(c, " ")
			n, _ = strconv.Atoi(c)
			if !strings.Contains(l, " last=") {
				t.Fatalf("merged line without the time of its last event: %s", l)
			}
		}
		estops += n
	}
	if estops != 3*seconds*1000 {
		t.Fatalf("the log accounts for %d e-stops, the pages sent %d:\n%s", estops, 3*seconds*1000, buf.String())
	}
	t.Logf("%d messages from 3 pages in %d s: %d log lines, %d bytes", msgs, seconds, lines, buf.Len())
}
