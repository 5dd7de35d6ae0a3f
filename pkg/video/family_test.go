package video

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// TestFamily: the zero setting is the own stream; a setting gets one
// stream however often it is asked for; the limit holds; the viewers hook
// hears the total over every stream; Feed reaches the others; Close
// closes them all.
func TestFamily(t *testing.T) {
	ff := &fakeFactory{}
	var mu sync.Mutex
	var heard []int
	f, err := NewFamily(Config{Name: "cam", NewEncoder: ff.open, OnViewers: func(n int) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, n)
	}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	own, _ := f.Source(Setting{})
	half := Setting{Width: 32, Height: 24}
	a, err := f.Source(half)
	if err != nil || a == own {
		t.Fatalf("half: %v (own %v)", err, a == own)
	}
	if b, _ := f.Source(half); b != a {
		t.Fatal("the same setting made twice")
	}
	if _, err := f.Source(Setting{MaxFrameRate: 5}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Source(Setting{MaxFrameRate: 7}); !errors.Is(err, ErrTooManySettings) {
		t.Fatalf("a third other setting: %v, want ErrTooManySettings", err)
	}
	v1, _ := own.Subscribe(8)
	v2, _ := a.Subscribe(8)
	if n := f.Viewers(); n != 2 {
		t.Fatalf("viewers %d, want 2", n)
	}
	f.Feed(greyFrame) // 64x48 mono8
	if w, h := f.FrameSize(); w != 64 || h != 48 {
		t.Errorf("FrameSize %dx%d, want 64x48", w, h)
	}
	for _, v := range []Viewer{v1, v2} {
		select {
		case <-v.AccessUnits():
		case <-time.After(5 * time.Second):
			t.Fatal("a stream of the family got nothing from Feed")
		}
	}
	if st := a.Stats(); st.Width != 32 || st.Height != 24 {
		t.Fatalf("half encoded %dx%d", st.Width, st.Height)
	}
	v1.Close()
	v2.Close()
	mu.Lock()
	got := append([]int(nil), heard...)
	mu.Unlock()
	if len(got) != 4 || got[0] != 1 || got[1] != 2 || got[2] != 1 || got[3] != 0 {
		t.Fatalf("viewers hook heard %v, want [1 2 1 0]", got)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Source(half); err == nil {
		t.Fatal("a source after Close")
	}
}
