package crawler_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/physics/crawler"
)

// cpuTime is the process's user+system CPU time: on this shared machine
// the wall time of a step says more about the other jobs than about the
// step.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStep is the cost of one 1 ms step of the Servosila on flat
// ground while driving an arc (tracks moving, 28 contact points, five
// servoed joints). cpu-us/step is the CPU it took (the real-time budget
// at 1 kHz is 1000 us of one core).
func BenchmarkStep(b *testing.B) {
	w, r := flat(b, groundFriction, crawler.Config{})
	must(b, w.Step(300))
	must(b, r.SetTwist(0.4, 0.2))
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime(b)
	for b.Loop() {
		if err := w.Step(1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime(b)-c0).Microseconds())/float64(b.N), "cpu-us/step")
	b.ReportMetric(float64(w.Contacts()), "contacts")
}
