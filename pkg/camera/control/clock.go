package control

import "time"

// ClockSample is one reading of the wall clock (CLOCK_REALTIME) on both
// sides of a reading of the monotonic clock (CLOCK_MONOTONIC) [ns].
type ClockSample struct {
	RealBefore, Mono, RealAfter int64 // [ns]: wall clock, monotonic clock, wall clock again
}

// ClockOffset converts V4L2 buffer timestamps (CLOCK_MONOTONIC) to wall
// clock time: wall = monotonic + offset [ns]. It is measured when a stream
// starts (EstimateClockOffset over a few ClockSamples), so a wall-clock
// step (NTP, manual set) shows up at the next stream start; slewing in
// between is ignored (at most tens of microseconds per second).
type ClockOffset int64

// EstimateClockOffset returns the offset from the sample whose wall-clock
// readings are closest together (least disturbed by preemption), taking
// the middle of the two as simultaneous with the monotonic reading. It
// returns false if there are no samples or all are inverted.
func EstimateClockOffset(samples []ClockSample) (ClockOffset, bool) {
	best, bestSpan := ClockOffset(0), int64(-1)
	for _, s := range samples {
		span := s.RealAfter - s.RealBefore
		if span < 0 {
			continue
		}
		if bestSpan < 0 || span < bestSpan {
			mid := s.RealBefore + span/2
			best, bestSpan = ClockOffset(mid-s.Mono), span
		}
	}
	return best, bestSpan >= 0
}

// Wall converts a monotonic timestamp (seconds and microseconds, as in
// struct timeval) to wall-clock time.
func (o ClockOffset) Wall(sec, usec int64) time.Time {
	return time.Unix(0, sec*1e9+usec*1e3+int64(o))
}
