package console

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

var ctx = context.Background()

func check(t *testing.T, be *fakeBackend, want ...string) {
	t.Helper()
	got := be.take()
	if !slices.Equal(got, want) {
		t.Fatalf("backend calls\n got %q\nwant %q", got, want)
	}
}

// TestDeadmanExpires: a held command is valid for the timeout after its
// last refresh; then its axes go to zero, once.
func TestDeadmanExpires(t *testing.T) {
	h, be, cnt := testHub()
	p, control := join(h)
	if !control {
		t.Fatal("first page has no control")
	}
	if err := h.handle(ctx, p, []byte(`{"type":"servosila_drive","linear":0.3,"angular":0}`), at(0)); err != nil {
		t.Fatal(err)
	}
	check(t, be, "drive 0.3 0")
	h.tick(ctx, at(200))
	check(t, be)
	// A refresh at 200 ms carries it to 500 ms.
	if err := h.handle(ctx, p, []byte(`{"type":"servosila_drive","linear":0.3,"angular":0}`), at(200)); err != nil {
		t.Fatal(err)
	}
	check(t, be, "drive 0.3 0")
	h.tick(ctx, at(499))
	check(t, be)
	h.tick(ctx, at(500))
	check(t, be, "drive 0 0")
	h.tick(ctx, at(900))
	check(t, be)
	if cnt.Expired.Load() != 1 {
		t.Fatalf("expired %d, want 1", cnt.Expired.Load())
	}
}

// TestDeadmanPerGroup: each kind of command expires on its own, and a zero
// command leaves nothing to expire.
func TestDeadmanPerGroup(t *testing.T) {
	h, be, _ := testHub()
	p, _ := join(h)
	for _, m := range []struct {
		ms  int
		msg string
	}{
		{0, `{"type":"servosila_joints","joints":{"waist":0.2}}`},
		{100, `{"type":"furbot_drive","v":1,"w":0}`},
		{150, `{"type":"servosila_drive","linear":0.2,"angular":0}`},
		{160, `{"type":"servosila_drive","linear":0,"angular":0}`},
	} {
		if err := h.handle(ctx, p, []byte(m.msg), at(m.ms)); err != nil {
			t.Fatal(err)
		}
	}
	be.take()
	h.tick(ctx, at(300))
	check(t, be, "joints [0 0 0 0 0 0]")
	h.tick(ctx, at(400))
	check(t, be, "furbot 0 0")
	h.tick(ctx, at(1000))
	check(t, be)
}

// TestPageGoneStops: a page that closes, hides or blurs stops every axis
// it drove at once, and only those.
func TestPageGoneStops(t *testing.T) {
	h, be, cnt := testHub()
	p, _ := join(h)
	if err := h.handle(ctx, p, []byte(`{"type":"servosila_drive","linear":0.3,"angular":0.5}`), at(0)); err != nil {
		t.Fatal(err)
	}
	if err := h.handle(ctx, p, []byte(`{"type":"jog_joint","delta":true,"values":[1,0],"speed":0.5}`), at(0)); err != nil {
		t.Fatal(err)
	}
	be.take()
	if err := h.handle(ctx, p, []byte(`{"type":"stop"}`), at(10)); err != nil {
		t.Fatal(err)
	}
	check(t, be, "drive 0 0", "jogstop")
	if err := h.handle(ctx, p, []byte(`{"type":"furbot_drive","v":1,"w":0.2}`), at(20)); err != nil {
		t.Fatal(err)
	}
	be.take()
	h.leave(ctx, p, t0, "test")
	check(t, be, "furbot 0 0")
	if cnt.Stops.Load() != 2 {
		t.Fatalf("stops %d, want 2", cnt.Stops.Load())
	}
	// The lease is free: the next page gets it.
	if _, control := join(h); !control {
		t.Fatal("lease not freed by the holder leaving")
	}
}

// TestLease: the first page controls; others are view-only for every
// command but the e-stop; taking over stops the machines first; only the
// holder releases the e-stop.
func TestLease(t *testing.T) {
	h, be, cnt, n := testHubNotes(quiet)
	a, ca := join(h)
	b, cb := join(h)
	if !ca || cb {
		t.Fatalf("control: first %v, second %v", ca, cb)
	}
	drive := []byte(`{"type":"servosila_drive","linear":0.3,"angular":0}`)
	if err := h.handle(ctx, b, drive, at(0)); !errors.Is(err, ErrViewOnly) {
		t.Fatalf("view-only drive: %v", err)
	}
	if err := h.handle(ctx, b, []byte(`{"type":"release"}`), at(0)); !errors.Is(err, ErrViewOnly) {
		t.Fatalf("view-only release: %v", err)
	}
	check(t, be)
	if cnt.ViewOnly.Load() != 2 {
		t.Fatalf("view-only count %d", cnt.ViewOnly.Load())
	}
	if err := h.handle(ctx, b, []byte(`{"type":"estop"}`), at(0)); err != nil {
		t.Fatalf("e-stop from a view-only page: %v", err)
	}
	check(t, be, "estop")
	release(t, h, n, a, at(0))
	check(t, be, "release")
	if err := h.handle(ctx, a, drive, at(10)); err != nil {
		t.Fatal(err)
	}
	be.take()
	if err := h.handle(ctx, b, []byte(`{"type":"take_control"}`), at(20)); err != nil {
		t.Fatal(err)
	}
	check(t, be, "drive 0 0") // a's motion stopped before b controls
	if hold, _ := h.holder(); hold != b {
		t.Fatalf("holder %d, want %d", hold, b)
	}
	if err := h.handle(ctx, a, drive, at(30)); !errors.Is(err, ErrViewOnly) {
		t.Fatalf("old holder still drives: %v", err)
	}
	h.tick(ctx, at(1000))
	check(t, be) // nothing left running
	if err := h.handle(ctx, b, []byte(`{"type":"release_control"}`), at(40)); err != nil {
		t.Fatal(err)
	}
	if hold, _ := h.holder(); hold != 0 {
		t.Fatalf("holder %d after release, want none", hold)
	}
}

// TestWatcherJoin: a page that joins to watch (?watch=1) does not take
// the lease, though first and allowed to drive; the next page does; the
// watcher can still take control, as any page of a driver.
func TestWatcherJoin(t *testing.T) {
	h, be, _, _ := testHubNotes(quiet)
	w, cw := joinToWatch(h)
	if cw {
		t.Fatal("a watcher took control on joining")
	}
	if hold, _ := h.holder(); hold != 0 {
		t.Fatalf("holder %d after a watcher joined, want none", hold)
	}
	p, cp := join(h)
	if !cp {
		t.Fatal("the first page after a watcher has no control")
	}
	if err := h.handle(ctx, w, []byte(`{"type":"servosila_drive","linear":0.3,"angular":0}`), at(0)); !errors.Is(err, ErrViewOnly) {
		t.Fatalf("a watcher drives: %v", err)
	}
	check(t, be)
	if err := h.handle(ctx, w, []byte(`{"type":"take_control"}`), at(10)); err != nil {
		t.Fatal(err)
	}
	if hold, _ := h.holder(); hold != w {
		t.Fatalf("holder %d after the watcher took control, want %d (not %d)", hold, w, p)
	}
}

// TestValidation: bad input gets a clear error, a count and no call.
func TestValidation(t *testing.T) {
	for _, c := range []struct{ name, msg, want string }{
		{"malformed", `{"type":"servosila_drive",`, "bad message"},
		{"not an object", `[1,2]`, "bad message"},
		{"trailing", `{"type":"estop"} {}`, "trailing"},
		{"no type", `{"linear":1}`, "no type"},
		{"unknown type", `{"type":"fly"}`, "unknown type"},
		{"unknown field", `{"type":"servosila_drive","linear":0,"angular":0,"turbo":1}`, "unknown field"},
		{"NaN as null", `{"type":"servosila_drive","linear":null,"angular":0}`, "linear: missing"},
		{"NaN as text", `{"type":"servosila_drive","linear":NaN,"angular":0}`, "bad message"},
		{"string", `{"type":"servosila_drive","linear":"0.3","angular":0}`, "bad message"},
		{"missing", `{"type":"servosila_drive","linear":0.3}`, "angular: missing"},
		{"too fast", `{"type":"servosila_drive","linear":0.46,"angular":0}`, "out of range"},
		{"huge", `{"type":"servosila_drive","linear":1e309,"angular":0}`, "bad message"},
		{"unknown joint", `{"type":"servosila_joints","joints":{"tail":0.1}}`, "unknown joint"},
		{"joint too fast", `{"type":"servosila_joints","joints":{"waist":0.6}}`, "out of range"},
		{"joint null", `{"type":"servosila_joints","joints":{"waist":null}}`, "waist: missing"},
		{"target no position control", `{"type":"servosila_target","joint":"gripper","value":0.1}`, "no position control"},
		{"target outside limits", `{"type":"servosila_target","joint":"shoulder","value":1.5}`, "outside"},
		{"headlight missing", `{"type":"headlight"}`, "on: missing"},
		{"furbot too fast", `{"type":"furbot_drive","v":6,"w":0}`, "out of range"},
		{"jog wrong count", `{"type":"jog_joint","delta":true,"values":[1],"speed":0.5}`, "want 2"},
		{"jog goal outside", `{"type":"jog_joint","delta":false,"values":[0,3],"speed":0.5}`, "outside"},
		{"jog speed zero", `{"type":"jog_joint","delta":true,"values":[1,0],"speed":0}`, "speed"},
		{"jog speed over 1", `{"type":"jog_cartesian","delta":true,"pose":{"X":1,"Y":0,"Z":0,"RZ":0,"RY":0,"RX":0},"speed":1.5}`, "speed"},
		{"jog unknown frame", `{"type":"jog_cartesian","delta":true,"pose":{"X":1,"Y":0,"Z":0,"RZ":0,"RY":0,"RX":0},"frame":"moon","speed":1}`, "unknown frame"},
		{"jog pose missing axis", `{"type":"jog_cartesian","delta":true,"pose":{"X":1},"speed":1}`, "y: missing"},
		{"max above driver limit", `{"type":"max_velocity","joint":"waist","value":0.9}`, "out of range"},
		{"too long", `{"type":"estop","frame":"` + strings.Repeat("x", MaxMessage) + `"}`, "at most"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, be, cnt := testHub()
			p, _ := join(h)
			err := h.handle(ctx, p, []byte(c.msg), at(0))
			if !errors.Is(err, ErrBadMessage) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want ErrBadMessage with %q", err, c.want)
			}
			if cnt.BadMessages.Load() != 1 {
				t.Fatalf("bad message count %d", cnt.BadMessages.Load())
			}
			check(t, be)
			h.tick(ctx, at(1000))
			check(t, be)
		})
	}
}

// TestAccepted: the good form of each message reaches the backend as SI
// values.
func TestAccepted(t *testing.T) {
	h, be, _ := testHub()
	p, _ := join(h)
	now := 0
	for _, c := range []struct{ msg, want string }{
		{`{"type":"servosila_drive","linear":-0.45,"angular":1.3}`, "drive -0.45 1.3"},
		{`{"type":"servosila_joints","joints":{"elbow":-0.5,"gripper":0.5}}`, "joints [0 0 -0.5 0 0 0.5]"},
		{`{"type":"servosila_target","joint":"waist","value":0.4}`, "target 0 0.4"},
		{`{"type":"servosila_cancel","joint":"neck"}`, "cancel 3"},
		{`{"type":"headlight","on":true}`, "headlight true"},
		{`{"type":"furbot_drive","v":-1,"w":0.5}`, "furbot -1 0.5"},
		{`{"type":"jog_joint","delta":false,"values":[0.5,-1],"speed":1}`, "jogjoint false [0.5 -1] 1"},
		{`{"type":"jog_heartbeat"}`, "beat"},
		{`{"type":"jog_cartesian","delta":true,"pose":{"X":0,"Y":0,"Z":1,"RZ":0,"RY":0,"RX":0},"frame":"tool","speed":0.2}`, "jogcart true {X:0 Y:0 Z:1 RZ:0 RY:0 RX:0} tool 0.2"},
		{`{"type":"jog_stop"}`, "jogstop"},
	} {
		now += 200 // inside the rate limit
		if err := h.handle(ctx, p, []byte(c.msg), at(now)); err != nil {
			t.Fatalf("%s: %v", c.msg, err)
		}
		check(t, be, c.want)
	}
}

// TestMaxVelocity: the operator's maximum velocity bounds later commands
// (it is not only shown).
func TestMaxVelocity(t *testing.T) {
	h, be, _ := testHub()
	p, _ := join(h)
	if err := h.handle(ctx, p, []byte(`{"type":"max_velocity","joint":"waist","value":0.2}`), at(0)); err != nil {
		t.Fatal(err)
	}
	if err := h.handle(ctx, p, []byte(`{"type":"servosila_joints","joints":{"waist":0.3}}`), at(0)); !errors.Is(err, ErrBadMessage) {
		t.Fatalf("0.3 rad/s above a 0.2 maximum: %v", err)
	}
	if err := h.handle(ctx, p, []byte(`{"type":"max_velocity","joint":"linear","value":0.1}`), at(0)); err != nil {
		t.Fatal(err)
	}
	if err := h.handle(ctx, p, []byte(`{"type":"servosila_drive","linear":0.2,"angular":0}`), at(0)); !errors.Is(err, ErrBadMessage) {
		t.Fatalf("0.2 m/s above a 0.1 maximum: %v", err)
	}
	check(t, be)
	if l := limitsOf(h); l.Linear != 0.1 || l.Joints[0] != 0.2 {
		t.Fatalf("limits %+v", l)
	}
}

// TestRateLimit: a page over its rate loses messages (counted), but never
// its stops; the bucket refills with time.
func TestRateLimit(t *testing.T) {
	h, be, cnt := testHub()
	p, _ := join(h)
	msg := []byte(`{"type":"headlight","on":true}`)
	for i := range 5 {
		if err := h.handle(ctx, p, msg, at(0)); err != nil {
			t.Fatalf("message %d in the burst: %v", i, err)
		}
	}
	if err := h.handle(ctx, p, msg, at(0)); !errors.Is(err, errRateLimited) {
		t.Fatalf("6th at once: %v", err)
	}
	for _, stop := range []string{`{"type":"estop"}`, `{"type":"stop"}`, `{"type":"jog_stop"}`} {
		if err := h.handle(ctx, p, []byte(stop), at(0)); err != nil {
			t.Fatalf("%s over the limit: %v", stop, err)
		}
	}
	if err := h.handle(ctx, p, msg, at(100)); err != nil { // 10/s: one token after 100 ms
		t.Fatalf("after a refill: %v", err)
	}
	if cnt.RateLimited.Load() != 1 {
		t.Fatalf("rate limited %d", cnt.RateLimited.Load())
	}
	if n := len(be.take()); n != 5+2+1 { // stop had nothing to stop
		t.Fatalf("%d calls", n)
	}
}

// TestBackendError: a failing backend call is an error for the page and
// a count, and the deadman does not track a command that did not apply.
func TestBackendError(t *testing.T) {
	h, be, cnt := testHub()
	p, _ := join(h)
	be.fail = errors.New("link down")
	err := h.handle(ctx, p, []byte(`{"type":"furbot_drive","v":1,"w":0}`), at(0))
	if err == nil || !strings.Contains(err.Error(), "link down") || cnt.BackendErrs.Load() != 1 {
		t.Fatalf("error %v, count %d", err, cnt.BackendErrs.Load())
	}
}

// TestJogHeartbeatOnlyForItsPage: a heartbeat from a page that started no
// jog move keeps nothing alive.
func TestJogHeartbeatOnlyForItsPage(t *testing.T) {
	h, be, _ := testHub()
	p, _ := join(h)
	if err := h.handle(ctx, p, []byte(`{"type":"jog_heartbeat"}`), at(0)); err != nil {
		t.Fatal(err)
	}
	check(t, be)
	if err := h.handle(ctx, p, []byte(`{"type":"jog_joint","delta":true,"values":[0,1],"speed":1}`), at(0)); err != nil {
		t.Fatal(err)
	}
	for ms := 100; ms <= 500; ms += 100 {
		if err := h.handle(ctx, p, []byte(`{"type":"jog_heartbeat"}`), at(ms)); err != nil {
			t.Fatal(err)
		}
		h.tick(ctx, at(ms+50))
	}
	if got := be.take(); slices.Contains(got, "jogstop") {
		t.Fatalf("stopped while the heartbeat ran: %q", got)
	}
	h.tick(ctx, at(800))
	check(t, be, "jogstop")
}

// TestTargetsStopWithTheirPage: a position target set by a page is
// cancelled when that page goes or hides, and by a take-over.
func TestTargetsStopWithTheirPage(t *testing.T) {
	h, be, _ := testHub()
	a, _ := join(h)
	b, _ := join(h)
	if err := h.handle(ctx, a, []byte(`{"type":"servosila_target","joint":"elbow","value":0.5}`), at(0)); err != nil {
		t.Fatal(err)
	}
	check(t, be, "target 2 0.5")
	if err := h.handle(ctx, b, []byte(`{"type":"take_control"}`), at(10)); err != nil {
		t.Fatal(err)
	}
	check(t, be, "cancel 2")
	if err := h.handle(ctx, b, []byte(`{"type":"servosila_target","joint":"waist","value":0.5}`), at(20)); err != nil {
		t.Fatal(err)
	}
	be.take()
	h.leave(ctx, a, t0, "test") // not a's target
	check(t, be)
	if err := h.handle(ctx, b, []byte(`{"type":"stop"}`), at(30)); err != nil {
		t.Fatal(err)
	}
	check(t, be, "cancel 0")
	h.leave(ctx, b, t0, "test")
	check(t, be)
}

// limitsOf returns the Servosila panel's limits as the pages get them.
func limitsOf(h *hub) limitsMsg {
	var l limitsMsg
	h.state(func(k string, v any) {
		if k == "limits" {
			l = v.(limitsMsg)
		}
	})
	return l
}

// TestStaleHeldCommandDropped: a held command older (by its page's seq)
// than the newest of its type that was taken is dropped, so a "drive" that
// the unordered WebRTC channel delivers after the page's zero (sent on the
// WebSocket too) does not move the machine again; messages without seq
// are taken as before, and each type has its own count.
func TestStaleHeldCommandDropped(t *testing.T) {
	h, be, cnt := testHub()
	p, _ := join(h)
	for _, m := range []struct {
		ms   int
		msg  string
		want []string
	}{
		{0, `{"type":"servosila_drive","linear":0.3,"angular":0,"seq":5}`, []string{"drive 0.3 0"}},
		{200, `{"type":"servosila_drive","linear":0,"angular":0,"seq":7}`, []string{"drive 0 0"}},
		// Overtaken on the way: older than the zero.
		{400, `{"type":"servosila_drive","linear":0.3,"angular":0,"seq":6}`, nil},
		// The zero's second copy, from the other transport.
		{600, `{"type":"servosila_drive","linear":0,"angular":0,"seq":7}`, nil},
		// Another type counts on its own.
		{800, `{"type":"servosila_joints","joints":{"waist":0.2},"seq":3}`, []string{"joints [0.2 0 0 0 0 0]"}},
		{1000, `{"type":"servosila_drive","linear":0.2,"angular":0,"seq":8}`, []string{"drive 0.2 0"}},
		// Without seq: taken.
		{1200, `{"type":"servosila_drive","linear":0.25,"angular":0}`, []string{"drive 0.25 0"}},
	} {
		if err := h.handle(ctx, p, []byte(m.msg), at(m.ms)); err != nil {
			t.Fatalf("%s: %v", m.msg, err)
		}
		check(t, be, m.want...)
	}
	if got := cnt.Stale.Load(); got != 2 {
		t.Fatalf("stale %d, want 2", got)
	}
	// A seq no JavaScript number holds exactly is malformed.
	if err := h.handle(ctx, p, []byte(`{"type":"servosila_drive","linear":0,"angular":0,"seq":9007199254740992}`), at(1400)); !errors.Is(err, ErrBadMessage) {
		t.Fatalf("seq 2^53: %v, want ErrBadMessage", err)
	}
}
