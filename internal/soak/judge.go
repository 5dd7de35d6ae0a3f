package soak

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// judge applies the growth and missed-tick bounds to the samples.
// Growth: the mean live heap of the last third of the samples against the
// first third (the first sample is warm-up and left out when there are
// enough), and the goroutine count of the last sample against the first.
func judge(out io.Writer, samples []sample, o Options) error {
	if len(samples) < 3 {
		return fmt.Errorf("soak: only %d samples, need 3 (raise --duration or lower --every)", len(samples))
	}
	s := samples
	if len(s) >= 6 {
		s = s[1:]
	}
	third := len(s) / 3
	mean := func(xs []sample) float64 {
		var sum float64
		for _, x := range xs {
			sum += float64(x.heap)
		}
		return sum / float64(len(xs))
	}
	first, last := mean(s[:third]), mean(s[len(s)-third:])
	g0, g1 := s[0].goroutines, s[len(s)-1].goroutines
	end := samples[len(samples)-1]
	missed := float64(end.furbotMiss) / float64(max(end.furbotTick, 1))
	behind := float64(end.servoMiss) / float64(max(end.servoSent, 1))
	fmt.Fprintf(out, "soak: live heap %.2f MiB (first third) -> %.2f MiB (last third), growth %+.0f B (bound %.0f B); goroutines %d -> %d (bound +%d); furbot missed %d of %d ticks (%.4f %%), longest control interval %v (bound %v), servosila %d packets behind of %d (%.4f %%) (bound %.2f %%)\n",
		first/(1<<20), last/(1<<20), last-first, o.MaxHeapGrowth, g0, g1, o.MaxGoroutineGrowth,
		end.furbotMiss, end.furbotTick, 100*missed, end.furbotGap.Round(time.Millisecond), o.MaxGap, end.servoMiss, end.servoSent, 100*behind, 100*o.MaxMissed)
	var fails []string
	if last-first > o.MaxHeapGrowth {
		fails = append(fails, fmt.Sprintf("live heap grew by %.0f B", last-first))
	}
	if g1-g0 > o.MaxGoroutineGrowth {
		fails = append(fails, fmt.Sprintf("goroutines grew from %d to %d", g0, g1))
	}
	if missed > o.MaxMissed {
		fails = append(fails, fmt.Sprintf("furbot missed %.4f %% of its control ticks", 100*missed))
	}
	if end.furbotGap > o.MaxGap {
		fails = append(fails, fmt.Sprintf("two furbot control frames were %v apart", end.furbotGap.Round(time.Millisecond)))
	}
	if behind > o.MaxMissed {
		fails = append(fails, fmt.Sprintf("servosila fell %.4f %% behind its send schedule", 100*behind))
	}
	if len(fails) > 0 {
		return fmt.Errorf("soak failed: %s", strings.Join(fails, "; "))
	}
	fmt.Fprintln(out, "soak: ok")
	return nil
}

// rss returns the resident set size of this process [bytes], 0 where
// /proc is not available.
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}
