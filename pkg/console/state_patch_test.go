package console

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/telebridge/telebridge/pkg/console/mergepatch"
)

// readAny returns the next message of the socket, decoded.
func readAny(t *testing.T, ws *websocket.Conn) (map[string]any, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, b, err := ws.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m, len(b)
}

// TestStatePatches: a page gets the whole state first, then patches that
// carry what changed (the holder, the pages, a counter) before the next
// whole state comes; the state it builds from them equals the whole state
// when it comes; patches are smaller than the state.
func TestStatePatches(t *testing.T) {
	_, url := serveTest(t, Config{Backend: &fakeBackend{}})
	a := dial(t, url)
	hello := readType(t, a, "hello")
	me := hello["page"].(float64)

	var page map[string]any
	wholes, patches := 0, 0
	var wholeSize, patchSize int
	// apply reads one state message into page and reports whether it was
	// whole.
	apply := func() bool {
		for {
			m, n := readAny(t, a)
			switch m["type"] {
			case "state":
				if page != nil && !reflect.DeepEqual(mergepatch.Normal(page), mergepatch.Normal(m)) {
					t.Fatalf("whole state %v, the page built %v from the patches", m, page)
				}
				page = m
				wholes++
				wholeSize = n
				return true
			case "state_patch":
				if page == nil {
					t.Fatalf("a patch before the first whole state: %v", m)
				}
				page = mergepatch.Apply(page, m["patch"]).(map[string]any)
				patches++
				patchSize = max(patchSize, n)
				return false
			}
		}
	}
	if !apply() {
		t.Fatal("the first state was a patch")
	}
	for apply() == false { // up to a whole state, so that patches follow
	}
	// Changes right after a whole state: the next updates are patches.
	write(t, a, `{"type":"take_control"}`)
	write(t, a, `{"type":"servosila_drive","linear":NaN}`) // a bad message: a counter
	b := dial(t, url)
	defer b.Close(websocket.StatusNormalClosure, "")
	changed := func() bool {
		c, _ := page["counters"].(map[string]any)
		return page["holder"] == me && page["pages"] == float64(2) && c != nil && c["BadMessages"] == float64(1)
	}
	for !changed() {
		if apply() {
			t.Fatalf("the changes came with a whole state, not in patches (page %v)", page)
		}
	}
	for !apply() { // the next whole state checks what the patches built
	}
	if wholes < 3 || patches < fullStateEvery-1 {
		t.Errorf("%d whole states and %d patches", wholes, patches)
	}
	if patchSize >= wholeSize/2 {
		t.Errorf("a patch of %d bytes for a state of %d", patchSize, wholeSize)
	}
	t.Logf("whole state %d bytes, patches at most %d bytes", wholeSize, patchSize)
}

// TestStateAfterLostUpdate: a page whose queue was full when an update
// went out gets the whole state next, not a patch onto a state it lacks.
func TestStateAfterLostUpdate(t *testing.T) {
	s, err := New(Config{Backend: &fakeBackend{}, Listen: "127.0.0.1:0", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	slow := &conn{id: 1, out: make(chan []byte, 1), needFull: true, video: &pageVideo{}}
	fast := &conn{id: 2, out: make(chan []byte, 4), needFull: true, video: &pageVideo{}}
	s.conns = map[uint64]*conn{1: slow, 2: fast}
	typ := func(b []byte) string {
		var m struct{ Type string }
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m.Type
	}
	ctx := context.Background()
	s.broadcast(ctx) // both: whole
	s.cnt.BadMessages.Add(1)
	s.broadcast(ctx) // fast: patch; slow: full queue, lost
	if got := []string{typ(<-fast.out), typ(<-fast.out)}; got[0] != "state" || got[1] != "state_patch" {
		t.Fatalf("the fast page got %q", got)
	}
	if typ(<-slow.out) != "state" {
		t.Fatal("the slow page's first update was not whole")
	}
	if !slow.needFull || s.drops.Load() != 1 {
		t.Fatalf("after a lost update: needFull %v, drops %d", slow.needFull, s.drops.Load())
	}
	s.broadcast(ctx)
	if got := typ(<-slow.out); got != "state" {
		t.Fatalf("the slow page's update after the lost one: %s, want the whole state", got)
	}
	if got := typ(<-fast.out); got != "state_patch" {
		t.Fatalf("the fast page's third update: %s", got)
	}
	if slow.needFull {
		t.Fatal("still needs the whole state after getting it")
	}
}
