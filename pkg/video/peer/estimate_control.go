package peer

import (
	"math"
	"time"
)

// The estimate's control law (control): when it backs off, when and how
// fast it rises again.
const (
	// lossDecrease: an average loss above this lowers the estimate (by
	// half the loss, at most once per lossStep, as GCC does). Below it the
	// loss counts as low: random loss on a radio link is not congestion,
	// and NACK repairs it.
	lossDecrease = 0.10
	lossStep     = 200 * time.Millisecond
	// calmFor is how long the delay trend must have been normal (no
	// overuse, no backoff of the delay-based part), the loss low and the
	// feedback fresh before the estimate rises.
	calmFor = 500 * time.Millisecond
	// feedbackTimeout: without TWCC feedback for this long the estimate
	// holds (a blackout says nothing about the link's rate).
	feedbackTimeout = 500 * time.Millisecond
	// growth is the estimate's rise per second once calm [x/s], at and
	// above the recovery level.
	growth = 1.08
	// recoveryGrowth is the rise per second below the recovery level
	// [x/s]: recoveryShare of the estimate before the latest backoff,
	// which the link carried a moment ago. This stands in for
	// libwebrtc's probe after a large drop, without padding: the video
	// itself is the probe, held to sentHeadroom.
	recoveryGrowth = 2.0
	recoveryShare  = 0.85
	// sentHeadroom and sentSlack [bit/s] bound every rise: the estimate
	// rises to at most sentHeadroom times what was sent recently
	// (sentWindow) plus sentSlack, so that it cannot run away while the
	// cameras send less than it allows (a still scene, a capped camera):
	// a stream that sends a fixed rate holds it under 2.5 times that.
	// A rise never lowers the estimate below where it is. libwebrtc
	// takes 1.5 times the acknowledged rate; here that held the estimate
	// down, because the cameras' x264 sent as little as half its budget
	// (measured: 48 kbit/s on a budget of 100 kbit/s at 26 pictures/s,
	// scripts/impaired-link.sh), less for a while after a keyframe (its
	// ABR rate control, as pion/mediadevices sets it, seems to repay the
	// keyframe's bits): the bound must let the estimate rise while the
	// video sends 45 % of it. The slack is half the default floor: near
	// the floor a stream is lumpy.
	sentHeadroom = 2.5
	sentSlack    = 50_000
	// decreaseShare tells pion's two ways of lowering its delay-based
	// rate apart, when a decrease came and went between two steps: on
	// overuse it sets 0.85 times the received rate; while the cameras
	// send little, its increase stops at 1.5 times the received rate. A
	// lower rate under decreaseShare times the rate sent over the last
	// sentSpan (pion measures the received rate over 500 ms) is a
	// decrease.
	decreaseShare = 1.2
	// overuseShare: on overuse the estimate backs off to the delay-based
	// rate (pion's 0.85 times the rate received over 500 ms) or this
	// share of the recent sent rate, the higher. A camera's rate is lumpy
	// (a keyframe, then a lull: 11 kbit/s on a 100 kbit/s budget for
	// 0.75 s in one run), and an overuse seen in a lull put the estimate
	// at the floor whatever the link had carried.
	overuseShare = 0.85
)

// signals are what one step of the estimate's control sees.
type signals struct {
	delay   int       // pion's delay-based rate [bit/s]
	overuse bool      // pion's delay trend says overuse, or its rate is in "decrease"
	loss    float64   // the average loss in TWCC feedback [0, 1]
	sent    int       // what left the pacer recently [bit/s] (sentWindow.rate)
	sentNow int       // what left the pacer over the last sentSpan [bit/s] (sentWindow.rate)
	fed     time.Time // when the latest TWCC feedback came (zero: none yet)
}

// control is the estimate's control law, a pure function of the signals
// and the step's time: no clock, no lock (estimator holds one around it).
//
// Backoff, as GCC does: on overuse (pion's delay trend says so, its rate
// is in "decrease", or its rate fell since the last step to under
// decreaseShare times sentNow) to the delay-based rate, pion's 0.85
// times what the receiver got over 500 ms, but not under overuseShare
// times the recent sent rate; while the loss is above lossDecrease, by
// half the loss every lossStep. A lower delay-based rate above
// decreaseShare times sentNow is no backoff: pion stops its increase at
// 1.5 times the received rate when the cameras send less than it allows,
// which says nothing about the link.
//
// Rise, on its own (pion's delay-based rate climbs back from a backoff by
// ~10 kbit/s a second near the floor): once calm for calmFor, by
// recoveryGrowth a second up to the recovery level and by growth a second
// above it, at least to the delay-based rate when that is higher, never
// beyond sentHeadroom times the recent sent rate plus sentSlack.
//
// Always within [min, max].
type control struct {
	min, max int // [bit/s]
	rate     int // the estimate [bit/s]

	last      time.Time // the previous step
	lossAt    time.Time // the last decrease for loss
	calm      time.Time // since when calm (zero: not calm now)
	before    int       // the estimate before the current backoff episode [bit/s], 0 once recovered
	prevDelay int       // the delay-based rate at the previous step [bit/s]
}

// newControl returns a control starting at initial [bit/s] within
// [minRate, maxRate].
func newControl(initial, minRate, maxRate int) control {
	return control{min: minRate, max: maxRate, rate: min(max(initial, minRate), maxRate)}
}

// update is one step at now with the signals s; it returns the estimate
// [bit/s]. It allocates nothing.
func (c *control) update(now time.Time, s signals) int {
	dt := time.Duration(0)
	if !c.last.IsZero() {
		dt = min(max(now.Sub(c.last), 0), time.Second)
	}
	c.last = now
	overuse := s.overuse ||
		(s.delay < c.prevDelay && float64(s.delay) < decreaseShare*float64(s.sentNow))
	c.prevDelay = s.delay
	lossy := s.loss > lossDecrease
	switch {
	case overuse || lossy:
		cut := c.rate
		if overuse {
			cut = min(cut, max(s.delay, int(overuseShare*float64(s.sent))))
		}
		if lossy && now.Sub(c.lossAt) >= lossStep {
			cut = int(float64(cut) * (1 - 0.5*s.loss))
			c.lossAt = now
		}
		if cut < c.rate {
			c.cut(now, cut)
		}
		c.calm = time.Time{}
	case s.fed.IsZero() || now.Sub(s.fed) > feedbackTimeout:
		c.calm = time.Time{} // no news of the link: hold
	default:
		if c.calm.IsZero() {
			c.calm = now
		}
		if now.Sub(c.calm) >= calmFor {
			c.rise(dt, s)
		}
	}
	c.rate = min(max(c.rate, c.min), c.max)
	return c.rate
}

// cut lowers the estimate to rate at now. A backoff that ends a calm
// stretch (or comes when the last one has been recovered from) starts a
// new episode, whose recovery level is set by the estimate before it;
// further cuts of the same episode (a burst of loss and delay takes a few
// steps) keep it. A backoff during a recovery thus lowers the level to
// where the link refused more.
func (c *control) cut(now time.Time, rate int) {
	if c.before == 0 || (!c.calm.IsZero() && now.Sub(c.calm) >= calmFor) {
		c.before = c.rate
	}
	c.rate = rate
}

// rise raises the estimate for a calm step of dt.
func (c *control) rise(dt time.Duration, s signals) {
	level := int(recoveryShare * float64(c.before))
	var next int
	if c.rate < level {
		next = min(int(float64(c.rate)*math.Pow(recoveryGrowth, dt.Seconds())), level)
	} else {
		next = int(float64(c.rate) * math.Pow(growth, dt.Seconds()))
	}
	next = max(next, s.delay)
	next = min(next, int(sentHeadroom*float64(s.sent))+sentSlack)
	c.rate = max(c.rate, next)
	if c.rate >= level {
		c.before = 0
	}
}

// sentWindow turns a running count of sent bytes into the recent sent
// rate: the rate over the last sentSpan, and the higher of that and the
// rate over the last sentLongSpan (or so: a ring of samples at least sentSpan/4 apart). The
// short span follows a rising estimate (the cameras follow it within a
// few hundred milliseconds); the long one bridges the gaps between a low
// rate's keyframes, when a stream that fills its budget on average sends
// little for a while.
type sentWindow struct {
	at    [sentSamples]time.Time
	bytes [sentSamples]uint64
	n     int // samples held
	next  int // where the next sample goes
}

const (
	sentSpan     = 500 * time.Millisecond
	sentLongSpan = 2 * time.Second
	sentSamples  = int(sentLongSpan/(sentSpan/4)) + 2
)

// rate records total, the bytes sent up to now, and returns the rate
// over the last sentSpan and the recent sent rate (the higher of that and
// the rate over the last sentLongSpan) [bit/s]; 0 with no earlier sample.
// It allocates nothing.
func (w *sentWindow) rate(now time.Time, total uint64) (last, recent int) {
	short, long := -1, -1
	for k := 1; k <= w.n; k++ {
		i := (w.next - k + sentSamples) % sentSamples
		age := now.Sub(w.at[i])
		if short < 0 && (age >= sentSpan || k == w.n) {
			short = i
		}
		long = i
		if age >= sentLongSpan {
			break
		}
	}
	last = w.since(short, now, total)
	recent = max(last, w.since(long, now, total))
	newest := (w.next - 1 + sentSamples) % sentSamples
	if w.n == 0 || now.Sub(w.at[newest]) >= sentSpan/4 {
		w.at[w.next], w.bytes[w.next] = now, total
		w.next = (w.next + 1) % sentSamples
		w.n = min(w.n+1, sentSamples)
	}
	return last, recent
}

// since is the rate from sample i to (now, total) [bit/s]; 0 for no sample.
func (w *sentWindow) since(i int, now time.Time, total uint64) int {
	if i < 0 {
		return 0
	}
	d := now.Sub(w.at[i])
	if d <= 0 || total < w.bytes[i] {
		return 0
	}
	return int(float64(total-w.bytes[i]) * 8 / d.Seconds())
}
