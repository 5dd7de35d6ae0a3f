package mailbox

import (
	"sync"
	"testing"
	"time"
)

type cmd struct{ V, W float64 }

func TestLatest(t *testing.T) {
	var l Latest[cmd]
	if _, _, ok := l.Load(); ok {
		t.Fatal("empty mailbox reports a value")
	}
	t0 := time.Unix(100, 0)
	l.Store(cmd{1, 2}, t0)
	l.Store(cmd{3, 4}, t0.Add(time.Second))
	v, at, ok := l.Load()
	if !ok || v != (cmd{3, 4}) || !at.Equal(t0.Add(time.Second)) || l.Seq() != 2 {
		t.Fatalf("Load = %v %v %v seq %d", v, at, ok, l.Seq())
	}
}

func TestFresh(t *testing.T) {
	var l Latest[cmd]
	t0 := time.Unix(100, 0)
	tests := []struct {
		name   string
		stored bool
		now    time.Time
		want   cmd
		ok     bool
	}{
		{"never stored", false, t0, cmd{}, false},
		{"just stored", true, t0, cmd{1, 1}, true},
		{"at the limit", true, t0.Add(500 * time.Millisecond), cmd{1, 1}, true},
		{"stale", true, t0.Add(501 * time.Millisecond), cmd{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l = Latest[cmd]{}
			if tc.stored {
				l.Store(cmd{1, 1}, t0)
			}
			got, ok := l.Fresh(tc.now, 500*time.Millisecond)
			if got != tc.want || ok != tc.ok {
				t.Fatalf("Fresh = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestLatestConcurrent(t *testing.T) {
	var l Latest[cmd]
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 1000 {
			l.Store(cmd{float64(i), float64(i)}, time.Now())
		}
	}()
	go func() {
		defer wg.Done()
		for range 1000 {
			if v, _, ok := l.Load(); ok && v.V != v.W {
				t.Errorf("torn read %v", v)
				return
			}
		}
	}()
	wg.Wait()
}

func TestLatestAllocatesNothing(t *testing.T) {
	var l Latest[cmd]
	now := time.Now()
	if n := testing.AllocsPerRun(100, func() {
		l.Store(cmd{1, 2}, now)
		l.Load()
		l.Fresh(now, time.Second)
	}); n != 0 {
		t.Fatalf("%v allocations per store+load", n)
	}
}

func BenchmarkStoreLoad(b *testing.B) {
	var l Latest[cmd]
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		l.Store(cmd{1, 2}, now)
		l.Load()
	}
}
