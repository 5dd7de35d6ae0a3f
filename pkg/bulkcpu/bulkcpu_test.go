package bulkcpu

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestAtMostSlots: however many bulk jobs ask, at most Slots run at once.
func TestAtMostSlots(t *testing.T) {
	var running, peak atomic.Int64
	var wg sync.WaitGroup
	for range 8 * Slots() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Acquire()
			n := running.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(2 * time.Millisecond)
			running.Add(-1)
			Release()
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > int64(Slots()) || p < 1 {
		t.Fatalf("%d bulk jobs at once, want at most %d", p, Slots())
	}
	if Waited() == 0 {
		t.Fatal("no job waited although more asked than there are slots")
	}
}

func BenchmarkAcquireRelease(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		Acquire()
		Release()
	}
}
