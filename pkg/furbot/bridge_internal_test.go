package furbot

import (
	"encoding/binary"
	"math"
	"net/netip"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/furbot/wire/wiretest"
	"github.com/telebridge/telebridge/pkg/rate"
)

func newTestBridge(t testing.TB) *Bridge {
	t.Helper()
	// Control frames go to the discard port of loopback; nobody answers.
	b, err := NewBridge(BridgeConfig{Listen: "127.0.0.1:0", Vehicle: netip.MustParseAddrPort("127.0.0.1:9")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.conn.Close() })
	return b
}

// tc0 is the start of the tests' virtual clocks.
var tc0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// goldenAt returns the golden status frame stamped ts [ms].
func goldenAt(ts uint32) []byte {
	s := wiretest.Full
	s.Timestamp = ts
	return wire.AppendStatus(nil, &s)
}

func TestBridgeReceiverOrdersAndIntegrates(t *testing.T) {
	b := newTestBridge(t)
	h := b.receiver()
	at := tc0
	from := netip.MustParseAddrPort("127.0.0.1:5000")
	for i := 0; i < 101; i++ { // 1 s of frames at 1.5 m/s... with wheel speeds 5.00/5.02 rad/s
		if err := h(goldenAt(uint32(1000+10*i)), from, at); err != nil {
			t.Fatal(err)
		}
		at = at.Add(10 * time.Millisecond)
	}
	st, _, _ := b.rx.Load()
	// Wheels 5.00 and 5.02 rad/s at r = 0.3 m: v = 1.503 m/s over 1 s.
	if d := st.odom.Distance; d < 1.5029 || d > 1.5031 {
		t.Errorf("distance %v after 1 s, want 1.503", d)
	}
	if err := h(goldenAt(1500), from, at); err != nil || b.dropped.Load() != 1 {
		t.Errorf("older frame: err %v, dropped %d, want nil and 1", err, b.dropped.Load())
	}
	if err := h(goldenAt(2000), from, at); err != nil || b.dropped.Load() != 2 {
		t.Errorf("repeated frame: err %v, dropped %d, want nil and 2", err, b.dropped.Load())
	}
	if err := h([]byte("ATSF"), from, at); err == nil {
		t.Error("short frame accepted")
	}
	// Wrap of the vehicle clock: 0xfffffff6 -> 0x00000004 is 14 ms later.
	b2 := newTestBridge(t)
	h2 := b2.receiver()
	_ = h2(goldenAt(0xfffffff6), from, at)
	if err := h2(goldenAt(4), from, at); err != nil || b2.dropped.Load() != 0 {
		t.Fatalf("wrapped clock: err %v dropped %d", err, b2.dropped.Load())
	}
	st2, _, _ := b2.rx.Load()
	if d := st2.odom.Distance; d < 0.014*1.5029 || d > 0.014*1.5031 {
		t.Errorf("distance over the wrap %v, want 14 ms at 1.503 m/s", d)
	}
}

func TestBridgeFollowsVehicleRestart(t *testing.T) {
	b := newTestBridge(t)
	h := b.receiver()
	from := netip.MustParseAddrPort("127.0.0.1:5000")
	for i := 0; i < 100; i++ {
		_ = h(goldenAt(uint32(500000+10*i)), from, tc0)
	}
	before, _, _ := b.rx.Load()
	// The vehicle restarts: its clock begins again at 0.
	for i := 0; i < ResyncAfter+20; i++ {
		if err := h(goldenAt(uint32(10*i)), from, tc0); err != nil {
			t.Fatal(err)
		}
	}
	st := b.Stats()
	after, _, _ := b.rx.Load()
	if st.Dropped != ResyncAfter || st.Resyncs != 1 {
		t.Errorf("dropped %d resyncs %d, want %d and 1", st.Dropped, st.Resyncs, ResyncAfter)
	}
	// 19 intervals of 10 ms at 1.503 m/s after the resync; none across it.
	want := before.odom.Distance + 19*0.01*1.503
	if d := after.odom.Distance; math.Abs(d-want) > 1e-3 {
		t.Errorf("distance %v, want %v (no integration across the restart)", d, want)
	}
	if after.status.Timestamp != uint32(10*(ResyncAfter+19)) {
		t.Errorf("timestamp %d, want the new clock", after.status.Timestamp)
	}
}

func TestBridgeHotPathsAllocateNothing(t *testing.T) {
	b := newTestBridge(t)
	h := b.receiver()
	step := b.loop()
	from := netip.MustParseAddrPort("127.0.0.1:5000")
	frames := make([][]byte, 300)
	for i := range frames {
		frames[i] = goldenAt(uint32(10 * (i + 1)))
	}
	at := time.Now()
	i := 0
	if n := testing.AllocsPerRun(200, func() {
		_ = h(frames[i%len(frames)], from, at)
		i++
	}); n != 0 {
		t.Errorf("receive handler: %v allocations per frame", n)
	}
	_ = b.SetCommand(control.Twist{V: 1, W: 0.1})
	var seq uint64
	if n := testing.AllocsPerRun(200, func() {
		now := time.Now()
		_ = step(rate.Tick{Seq: seq, Deadline: now, Now: now})
		seq++
	}); n != 0 {
		t.Errorf("loop step: %v allocations per period", n)
	}
	if !b.Started() {
		t.Error("loop did not start on an all-working status")
	}
}

func BenchmarkBridgeReceive(b *testing.B) {
	br := newTestBridge(b)
	h := br.receiver()
	from := netip.MustParseAddrPort("127.0.0.1:5000")
	frame := goldenAt(0)
	at := time.Now()
	ts := uint32(0)
	b.ReportAllocs()
	for b.Loop() {
		ts += 10
		binary.BigEndian.PutUint32(frame[4:], ts)
		if err := h(frame, from, at); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBridgeLoopStep(b *testing.B) {
	br := newTestBridge(b)
	h := br.receiver()
	_ = h(goldenAt(10), netip.MustParseAddrPort("127.0.0.1:5000"), time.Now())
	_ = br.SetCommand(control.Twist{V: 1, W: 0.1})
	step := br.loop()
	b.ReportAllocs()
	var seq uint64
	for b.Loop() {
		now := time.Now()
		_ = step(rate.Tick{Seq: seq, Deadline: now, Now: now})
		seq++
	}
}
