//go:build linux

package camera

import (
	"github.com/telebridge/telebridge/pkg/camera/control"
	"golang.org/x/sys/unix"
)

// MeasureClockOffset measures CLOCK_REALTIME - CLOCK_MONOTONIC now, from
// the least disturbed of a few samples (see EstimateClockOffset).
func MeasureClockOffset() control.ClockOffset {
	var samples [5]control.ClockSample
	var ts unix.Timespec
	for i := range samples {
		_ = unix.ClockGettime(unix.CLOCK_REALTIME, &ts)
		samples[i].RealBefore = ts.Nano()
		_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
		samples[i].Mono = ts.Nano()
		_ = unix.ClockGettime(unix.CLOCK_REALTIME, &ts)
		samples[i].RealAfter = ts.Nano()
	}
	o, _ := control.EstimateClockOffset(samples[:])
	return o
}
