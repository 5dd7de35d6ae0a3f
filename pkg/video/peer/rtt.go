package peer

import (
	"time"

	"github.com/pion/rtcp"
)

// reportRTT is the round-trip time reception report r gives when it
// arrives at now (RFC 3550 section 6.4.1): the arrival time minus the
// time of the sender report it answers (LSR) and the receiver's delay
// since (DLSR), all in the middle 32 bits of NTP time (1/65536 s). False
// if it answers no sender report yet, or is negative (a corrupt report:
// both clocks are this host's). A round trip under one unit is one unit,
// so that it never reads as none.
func reportRTT(r rtcp.ReceptionReport, now time.Time) (time.Duration, bool) {
	if r.LastSenderReport == 0 {
		return 0, false
	}
	d := ntpMiddle(now) - r.LastSenderReport - r.Delay
	if d >= 1<<31 {
		return 0, false
	}
	return time.Duration(max(d, 1)) * time.Second / 65536, true
}

// ntpMiddle is the middle 32 bits of t as an NTP timestamp (seconds since
// 1900 in the upper 16, the fraction's upper 16 bits in the lower).
func ntpMiddle(t time.Time) uint32 {
	const epoch = 2208988800 // seconds from 1900 to 1970
	sec := uint64(t.Unix()) + epoch
	frac := uint64(t.Nanosecond()) << 32 / 1e9
	return uint32(sec<<16 | frac>>16)
}
