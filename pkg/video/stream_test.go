package video

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// fakeEncoder makes tiny access units: an IDR slice for the first
// picture, a forced one, and every keyEvery-th; a P slice otherwise.
type fakeEncoder struct {
	f        *fakeFactory
	n        int
	keyEvery int
}

type fakeFactory struct {
	mu       sync.Mutex
	opens    int
	encodes  int
	forced   int
	bitrates []int
	closes   int
	cfgs     []EncoderConfig // every open's config
}

func (f *fakeFactory) open(cfg EncoderConfig) (Encoder, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opens++
	f.bitrates = append(f.bitrates, cfg.Bitrate)
	f.cfgs = append(f.cfgs, cfg)
	return &fakeEncoder{f: f, keyEvery: int(cfg.KeyInterval.Seconds() * cfg.FrameRate)}, nil
}

func (e *fakeEncoder) Encode(pic *I420, key bool) ([]byte, bool, error) {
	e.f.mu.Lock()
	defer e.f.mu.Unlock()
	e.f.encodes++
	if key {
		e.f.forced++
	}
	key = key || e.n%e.keyEvery == 0
	e.n++
	if key {
		return []byte{0, 0, 0, 1, 0x67, 1, 0, 0, 0, 1, 0x68, 2, 0, 0, 0, 1, 0x65, byte(e.n)}, true, nil
	}
	return []byte{0, 0, 0, 1, 0x41, byte(e.n)}, false, nil
}

func (e *fakeEncoder) SetBitrate(bps int) error {
	e.f.mu.Lock()
	defer e.f.mu.Unlock()
	e.f.bitrates = append(e.f.bitrates, bps)
	return nil
}

func (e *fakeEncoder) Close() error {
	e.f.mu.Lock()
	defer e.f.mu.Unlock()
	e.f.closes++
	return nil
}

func (f *fakeFactory) get() (opens, encodes, forced, closes int, bitrates []int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.opens, f.encodes, f.forced, f.closes, append([]int(nil), f.bitrates...)
}

func testStream(t *testing.T, cfg Config) (*Stream, *fakeFactory) {
	t.Helper()
	ff := &fakeFactory{}
	cfg.NewEncoder = ff.open
	if cfg.KeyInterval == 0 {
		cfg.KeyInterval = time.Second // 30 frames at 30 Hz
	}
	s, err := NewStream(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, ff
}

var greyFrame = solid("mono8", 64, 48, 100, 100, 100)

// step feeds one frame and waits for its access unit at v.
func step(t *testing.T, s *Stream, v Viewer) AccessUnit {
	t.Helper()
	s.Feed(greyFrame)
	select {
	case au, ok := <-v.AccessUnits():
		if !ok {
			t.Fatal("viewer channel closed")
		}
		return au
	case <-time.After(5 * time.Second):
		t.Fatalf("no access unit; stats %+v", s.Stats())
	}
	return AccessUnit{}
}

func TestNothingEncodedWhileNobodyWatches(t *testing.T) {
	var demand []int
	s, ff := testStream(t, Config{Name: "t", OnViewers: func(n int) { demand = append(demand, n) }})
	for i := 0; i < 10; i++ {
		s.Feed(greyFrame)
	}
	if opens, encodes, _, _, _ := ff.get(); opens != 0 || encodes != 0 || s.Stats().Encoded != 0 {
		t.Fatalf("before any viewer: %d opens, %d encodes, stats %+v", opens, encodes, s.Stats())
	}
	v, err := s.Subscribe(4)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		au := step(t, s, v)
		if i == 0 && !au.Key {
			t.Error("first access unit is not a keyframe")
		}
	}
	v.Close()
	for i := 0; i < 10; i++ {
		s.Feed(greyFrame)
	}
	waitFor(t, func() bool { _, _, _, c, _ := ff.get(); return c == 1 }, "encoder closed after the last viewer left")
	opens, encodes, _, _, _ := ff.get()
	st := s.Stats()
	if opens != 1 || encodes != 5 || st.Encoded != 5 || st.FramesIdle != 20 || st.FramesIn != 25 {
		t.Errorf("%d opens, %d encodes; stats %+v; want 1, 5, 5 encoded, 20 idle of 25", opens, encodes, st)
	}
	if len(demand) != 2 || demand[0] != 1 || demand[1] != 0 {
		t.Errorf("OnViewers calls %v, want [1 0]", demand)
	}
	if _, ok := <-v.AccessUnits(); ok {
		t.Error("closed viewer's channel still open")
	}
}

func recv(t *testing.T, v Viewer) AccessUnit {
	t.Helper()
	select {
	case au := <-v.AccessUnits():
		return au
	case <-time.After(5 * time.Second):
		t.Fatal("no access unit")
	}
	return AccessUnit{}
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestFanOutAndSlowViewer(t *testing.T) {
	s, _ := testStream(t, Config{Name: "t"})
	fast, _ := s.Subscribe(100)
	slow, _ := s.Subscribe(1)
	var got []AccessUnit
	for i := 0; i < 40; i++ {
		got = append(got, step(t, s, fast))
	}
	// The slow viewer took the first keyframe and then nothing: everything
	// after it up to the keyframe at frame 30 was dropped, then the
	// keyframe at 30 found its queue still full.
	first := recv(t, slow)
	if !first.Key || &first.Data[0] != &got[0].Data[0] {
		t.Errorf("slow viewer's first access unit: key %v, shared %v", first.Key, &first.Data[0] == &got[0].Data[0])
	}
	if d := s.Stats().ViewerDrops; d != 39 {
		t.Errorf("%d drops, want 39 (frames 1..39)", d)
	}
	for i := 40; i < 61; i++ {
		step(t, s, fast)
	}
	au := recv(t, slow) // the keyframe at 60 reached it again
	if !au.Key {
		t.Error("slow viewer resumed on a non-key access unit")
	}
	fast.Close()
	slow.Close()
}

func TestBitrateIsLowestWantClamped(t *testing.T) {
	s, ff := testStream(t, Config{Name: "t", Bitrate: 1_500_000, MinBitrate: 200_000, MaxBitrate: 3_000_000})
	a, _ := s.Subscribe(100)
	b, _ := s.Subscribe(100)
	step(t, s, a)
	recv(t, b)
	cases := []struct {
		do   func()
		want int
	}{
		{func() { a.WantBitrate(800_000) }, 800_000},
		{func() { b.WantBitrate(500_000) }, 500_000},
		{func() { b.WantBitrate(50_000) }, 200_000},
		{func() { b.Close() }, 800_000},
		{func() { a.WantBitrate(90_000_000) }, 3_000_000},
		{func() { a.WantBitrate(0) }, 1_500_000},
	}
	for _, c := range cases {
		c.do()
		step(t, s, a)
		_, _, _, _, br := ff.get()
		if got := br[len(br)-1]; got != c.want || s.Stats().Bitrate != c.want {
			t.Errorf("encoder bitrate %d, stats %d, want %d (history %v)", got, s.Stats().Bitrate, c.want, br)
		}
	}
	if _, _, _, _, br := ff.get(); br[0] != 1_500_000 {
		t.Errorf("encoder opened at %d bit/s, want Config.Bitrate", br[0])
	}
}

func TestKeyFrameRequestsMerge(t *testing.T) {
	s, ff := testStream(t, Config{Name: "t", KeyMerge: time.Hour, KeyInterval: 10 * time.Second})
	v, _ := s.Subscribe(100)
	step(t, s, v) // IDR: the encoder's first picture
	v.RequestKeyFrame()
	if au := step(t, s, v); !au.Key {
		t.Fatal("request not answered by the next picture")
	}
	for i := 0; i < 5; i++ {
		v.RequestKeyFrame()
		if au := step(t, s, v); au.Key {
			t.Fatalf("request %d within the merge window forced another IDR", i)
		}
	}
	_, _, forced, _, _ := ff.get()
	st := s.Stats()
	if forced != 1 || st.ForcedKeys != 1 || st.KeyRequests != 6 {
		t.Errorf("forced %d, stats %+v; want 1 forced of 6 requests", forced, st)
	}
}

func TestLateViewerStartsOnKeyframe(t *testing.T) {
	s, _ := testStream(t, Config{Name: "t", KeyMerge: time.Millisecond})
	a, _ := s.Subscribe(100)
	for i := 0; i < 5; i++ {
		step(t, s, a)
	}
	time.Sleep(2 * time.Millisecond)
	b, _ := s.Subscribe(100)
	step(t, s, a)
	if au := recv(t, b); !au.Key {
		t.Error("late viewer's first access unit is not a keyframe")
	}
}

func TestStreamRejects(t *testing.T) {
	bad := []Config{
		{FrameRate: -1}, {FrameRate: 5000}, {MinBitrate: 5000}, {MaxBitrate: 200_000_000},
		{MinBitrate: 2_000_000, MaxBitrate: 1_000_000}, {KeyMerge: -time.Second},
	}
	for _, c := range bad {
		c.NewEncoder = (&fakeFactory{}).open
		if _, err := NewStream(c); !errors.Is(err, ErrBadConfig) {
			t.Errorf("%+v: %v", c, err)
		}
	}
	s, _ := testStream(t, Config{Name: "t"})
	for _, d := range []int{0, -1, MaxDepth + 1} {
		if _, err := s.Subscribe(d); !errors.Is(err, ErrBadConfig) {
			t.Errorf("depth %d: %v", d, err)
		}
	}
	v, _ := s.Subscribe(1)
	s.Close()
	if _, ok := <-v.AccessUnits(); ok {
		t.Error("viewer channel open after the stream closed")
	}
	if _, err := s.Subscribe(1); !errors.Is(err, ErrClosed) {
		t.Errorf("subscribe after close: %v", err)
	}
	v.Close() // after the stream: no panic
}

func TestBadFramesCounted(t *testing.T) {
	s, _ := testStream(t, Config{Name: "t"})
	v, _ := s.Subscribe(10)
	s.Feed(&Frame{Encoding: "rgba8", Width: 4, Height: 4, Step: 16, Data: make([]byte, 64)})
	step(t, s, v)
	if st := s.Stats(); st.FramesBad != 1 || st.LastErr == "" || st.Encoded != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestPassThrough(t *testing.T) {
	s, _ := testStream(t, Config{Name: "t", PassThrough: true})
	v, _ := s.Subscribe(10)
	idr := []byte{0, 0, 0, 1, 0x67, 0x42, 0, 0, 0, 1, 0x68, 0xce, 0, 0, 0, 1, 0x65, 0x88, 0x84}
	p := []byte{0, 0, 0, 1, 0x41, 0x9a, 1}
	cap0 := time.Unix(100, 0)
	for i, data := range [][]byte{p, idr, p, append(p[:len(p):len(p)], p...)} {
		s.Feed(&Frame{Encoding: EncodingH264, Data: data, Capture: cap0.Add(time.Duration(i) * time.Second)})
	}
	var got []AccessUnit
	for len(got) < 3 {
		select {
		case au := <-v.AccessUnits():
			got = append(got, au)
		case <-time.After(time.Second):
			t.Fatalf("got %d access units, stats %+v", len(got), s.Stats())
		}
	}
	// The P picture before the first SPS/PPS is dropped; then the IDR, one
	// P picture, and the last buffer's two P pictures (each slice starts
	// at macroblock 0, so each is its own access unit).
	if !got[0].Key || !got[0].Capture.Equal(cap0.Add(time.Second)) {
		t.Errorf("first: key %v capture %v", got[0].Key, got[0].Capture)
	}
	if got[1].Key || got[2].Key {
		t.Error("P pictures marked key")
	}
	s.Feed(greyFrame)
	if st := s.Stats(); st.FramesBad != 1 {
		t.Errorf("a picture fed to a pass-through stream: stats %+v", st)
	}
}

// staticEncoder returns the same access unit every time: it lets the
// allocation test see the stream's own allocations only.
type staticEncoder struct{ au []byte }

func (e staticEncoder) Encode(*I420, bool) ([]byte, bool, error) { return e.au, true, nil }
func (staticEncoder) SetBitrate(int) error                       { return nil }
func (staticEncoder) Close() error                               { return nil }

func TestFeedAllocatesNothing(t *testing.T) {
	s, err := NewStream(Config{Name: "t", NewEncoder: func(EncoderConfig) (Encoder, error) {
		return staticEncoder{au: []byte{0, 0, 0, 1, 0x65, 1}}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v, _ := s.Subscribe(4)
	f := solid("yuv422_yuy2", 640, 480, 10, 20, 30)
	for i := 0; i < 5; i++ { // warm up
		s.Feed(f)
		recv(t, v)
	}
	if n := testing.AllocsPerRun(50, func() { s.Feed(f); <-v.AccessUnits() }); n != 0 {
		t.Errorf("%v allocations per frame, want 0", n)
	}
}

// BenchmarkStreamFeed is the stream's own cost per 640x480 YUYV frame
// with one viewer: conversion to I420, frame code, hand-off to the encoder
// goroutine, fan-out (the encoder is a stub that returns a fixed access
// unit, so x264's cost is not in this figure; see BenchmarkEncode).
func BenchmarkStreamFeed(b *testing.B) {
	s, err := NewStream(Config{Name: "b", FrameCode: true, NewEncoder: func(EncoderConfig) (Encoder, error) {
		return staticEncoder{au: []byte{0, 0, 0, 1, 0x65, 1}}, nil
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	v, _ := s.Subscribe(4)
	f := solid("yuv422_yuy2", 640, 480, 10, 20, 30)
	b.ReportAllocs()
	for b.Loop() {
		s.Feed(f)
		<-v.AccessUnits()
	}
}

// TestDemandFollowsConcurrentViewers: viewers come and go from many
// goroutines; the last OnViewers call always carries the true count, so
// the camera is never left off while someone watches (or on when nobody
// does).
func TestDemandFollowsConcurrentViewers(t *testing.T) {
	var mu sync.Mutex
	last := -1
	s, _ := testStream(t, Config{Name: "t", OnViewers: func(n int) { mu.Lock(); last = n; mu.Unlock() }})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				v, err := s.Subscribe(1)
				if err != nil {
					t.Error(err)
					return
				}
				v.Close()
			}
		}()
	}
	keep, _ := s.Subscribe(1)
	wg.Wait()
	mu.Lock()
	if last != 1 {
		t.Errorf("after the churn, with one viewer left: OnViewers last said %d", last)
	}
	mu.Unlock()
	keep.Close()
	mu.Lock()
	defer mu.Unlock()
	if last != 0 {
		t.Errorf("no viewer left: OnViewers last said %d", last)
	}
}
