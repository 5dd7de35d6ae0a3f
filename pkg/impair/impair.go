package impair

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Direction names one direction of the link.
type Direction int

// The directions of the link.
const (
	Up   Direction = iota // client (driver) to upstream (robot, simulator)
	Down                  // upstream to client
)

// String returns "up" or "down".
func (d Direction) String() string {
	if d == Up {
		return "up"
	}
	return "down"
}

// GilbertElliott is a two-state burst loss model: the chain moves from
// Good to Bad with probability P and from Bad to Good with probability R
// at each packet, and loses a packet with probability LossGood in Good and
// LossBad in Bad. The mean burst (Bad period) is 1/R packets; the long-run
// share of packets in Bad is P/(P+R).
type GilbertElliott struct {
	P, R              float64 // transition probabilities per packet [0, 1]
	LossGood, LossBad float64 // loss probability in each state [0, 1]
}

// Window is a blackout: every packet of the direction is dropped from
// From to To after the proxy started [s].
type Window struct {
	From, To time.Duration
}

// Impairment is what happens to the packets of one direction. The zero
// value forwards everything unchanged at once.
type Impairment struct {
	// Loss is the probability that a packet is dropped [0, 1].
	Loss float64
	// Burst, when set, adds Gilbert-Elliott burst loss.
	Burst *GilbertElliott
	// Delay is added to every packet [s].
	Delay time.Duration
	// Jitter adds a uniform random delay in [0, Jitter) [s]; packets may
	// then arrive out of order, as on a real link.
	Jitter time.Duration
	// Wander, when > 0, makes the jitter a slowly varying delay instead of
	// an independent draw per packet: every Wander a new level in
	// [0, Jitter) is reached, linearly from the previous one, so packets
	// close in time get nearly the same delay and none overtakes another
	// (the proxy also keeps such a direction in order), as on Wi-Fi,
	// whose delay follows retries and rate changes rather than each
	// packet [s]. The levels are a function of the seed and the time since
	// the start, not of the packets, so they take no draws.
	Wander time.Duration
	// Duplicate is the probability that a packet is sent twice (the copy
	// with its own jitter) [0, 1].
	Duplicate float64
	// Reorder is the probability that a packet is held back by
	// ReorderDelay so that later packets overtake it [0, 1].
	Reorder float64
	// ReorderDelay is the extra delay of a reordered packet [s]; default
	// 20 ms.
	ReorderDelay time.Duration
	// Truncate is the probability that a packet is cut to a random length
	// shorter than its own (possibly empty) [0, 1].
	Truncate float64
	// BitFlip is the probability that a packet gets FlipBits random bits
	// inverted [0, 1].
	BitFlip float64
	// FlipBits is how many bits a corrupted packet gets flipped; default 1.
	FlipBits int
	// Blackouts are scheduled windows that drop everything.
	Blackouts []Window
}

// ErrConfig is returned for an invalid configuration.
var ErrConfig = errors.New("impair: invalid configuration")

func prob(name string, p float64) error {
	if !(p >= 0 && p <= 1) {
		return fmt.Errorf("%w: %s %v is not a probability", ErrConfig, name, p)
	}
	return nil
}

// Validate checks probabilities, durations and windows.
func (im *Impairment) Validate() error {
	for _, c := range []struct {
		n string
		p float64
	}{{"loss", im.Loss}, {"duplicate", im.Duplicate}, {"reorder", im.Reorder}, {"truncate", im.Truncate}, {"bit flip", im.BitFlip}} {
		if err := prob(c.n, c.p); err != nil {
			return err
		}
	}
	if b := im.Burst; b != nil {
		for _, c := range []struct {
			n string
			p float64
		}{{"burst P", b.P}, {"burst R", b.R}, {"burst loss good", b.LossGood}, {"burst loss bad", b.LossBad}} {
			if err := prob(c.n, c.p); err != nil {
				return err
			}
		}
	}
	if im.Delay < 0 || im.Jitter < 0 || im.ReorderDelay < 0 || im.Wander < 0 {
		return fmt.Errorf("%w: negative delay, jitter, wander or reorder delay", ErrConfig)
	}
	if im.FlipBits < 0 {
		return fmt.Errorf("%w: negative flip bits %d", ErrConfig, im.FlipBits)
	}
	for _, w := range im.Blackouts {
		if w.From < 0 || w.To < w.From {
			return fmt.Errorf("%w: blackout window %v..%v", ErrConfig, w.From, w.To)
		}
	}
	return nil
}

func (im Impairment) withDefaults() Impairment {
	if im.ReorderDelay == 0 {
		im.ReorderDelay = 20 * time.Millisecond
	}
	if im.FlipBits == 0 {
		im.FlipBits = 1
	}
	return im
}

// Fate is the decision about one packet.
type Fate uint8

// Fates of a packet (Decision.Fate).
const (
	Forward    Fate = iota // sent (possibly delayed, cut, flipped, duplicated)
	LostRandom             // dropped by the independent loss
	LostBurst              // dropped by the burst loss chain
	LostBlack              // dropped in a blackout
	numFates
)

// Decision is what a Chain decided for one packet.
type Decision struct {
	Fate  Fate          // delivered, or lost and why
	Delay time.Duration // total delay of the packet [s]
	Dup   bool          // a copy is sent too, after DupAt
	DupAt time.Duration // delay of the copy [s]
	Reord bool          // held back by ReorderDelay
	Cut   int           // new length when >= 0 (truncated); -1 keeps it
	Flips [8]int        // bit indexes to flip (the first NFlip), modulo the length
	NFlip int           // how many of Flips apply
	Burst bool          // the burst chain is in its Bad state
}

// Chain draws the decisions of one direction from its own generator. It
// is a plain value for one goroutine; the proxy keeps one per direction.
type Chain struct {
	im   Impairment
	rng  *rand.Rand
	seed uint64
	bad  bool // Gilbert-Elliott state
}

// NewChain returns the decision chain of im seeded by seed. It validates
// im.
func NewChain(im Impairment, seed uint64) (*Chain, error) {
	if err := im.Validate(); err != nil {
		return nil, err
	}
	return &Chain{im: im.withDefaults(), seed: seed, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}, nil
}

// Set replaces the impairment; the generator and burst state go on.
func (c *Chain) Set(im Impairment) error {
	if err := im.Validate(); err != nil {
		return err
	}
	c.im = im.withDefaults()
	return nil
}

// Impairment returns the impairment in use (defaults filled).
func (c *Chain) Impairment() Impairment { return c.im }

// InBlackout reports whether elapsed (time since the start) falls in a
// scheduled window.
func (c *Chain) InBlackout(elapsed time.Duration) bool {
	for _, w := range c.im.Blackouts {
		if elapsed >= w.From && elapsed < w.To {
			return true
		}
	}
	return false
}

// Wandering reports whether the jitter is a slowly varying delay (Wander
// set): the caller then adds WanderDelay to each packet's Delay and keeps
// the packets in order.
func (c *Chain) Wandering() bool { return c.im.Wander > 0 && c.im.Jitter > 0 }

// WanderDelay returns the slowly varying part of the delay at elapsed
// (time since the start) [s], in [0, Jitter): linear between levels drawn
// every Wander from the seed. Zero unless Wandering. It allocates nothing.
func (c *Chain) WanderDelay(elapsed time.Duration) time.Duration {
	if !c.Wandering() || elapsed < 0 {
		return 0
	}
	k := uint64(elapsed / c.im.Wander)
	f := float64(elapsed%c.im.Wander) / float64(c.im.Wander)
	a, b := level(c.seed, k), level(c.seed, k+1)
	return time.Duration((a + (b-a)*f) * float64(c.im.Jitter))
}

// level is the wander level number k of seed, uniform in [0, 1): a
// splitmix64 hash, so any level is found without the ones before it.
func level(seed, k uint64) float64 {
	z := seed*0x9e3779b97f4a7c15 + (k+1)*0xbf58476d1ce4e5b9
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

// Decide draws the fate of one packet of n bytes. Every packet consumes
// the same number of draws whatever its fate, so one decision never
// shifts the ones after it. It allocates nothing.
func (c *Chain) Decide(n int) Decision {
	im := &c.im
	// Fixed draw order: burst transition, burst loss, loss, jitter,
	// duplicate, duplicate jitter, reorder, truncate, truncate length,
	// flip, flip positions.
	var u [11]float64
	for i := range u {
		u[i] = c.rng.Float64()
	}
	var flipPos [8]uint64
	for i := range flipPos {
		flipPos[i] = c.rng.Uint64()
	}
	d := Decision{Cut: -1}
	if b := im.Burst; b != nil {
		if c.bad {
			c.bad = !(u[0] < b.R)
		} else {
			c.bad = u[0] < b.P
		}
		d.Burst = c.bad
		lp := b.LossGood
		if c.bad {
			lp = b.LossBad
		}
		if u[1] < lp {
			d.Fate = LostBurst
			return d
		}
	}
	if u[2] < im.Loss {
		d.Fate = LostRandom
		return d
	}
	d.Delay = im.Delay
	if im.Wander == 0 { // wandering jitter is added by the caller (WanderDelay)
		d.Delay += time.Duration(u[3] * float64(im.Jitter))
	}
	if u[4] < im.Duplicate {
		d.Dup = true
		d.DupAt = d.Delay
		if im.Wander == 0 {
			d.DupAt = im.Delay + time.Duration(u[5]*float64(im.Jitter))
		}
	}
	if u[6] < im.Reorder {
		d.Reord = true
		d.Delay += im.ReorderDelay
	}
	if u[7] < im.Truncate && n > 0 {
		d.Cut = int(math.Floor(u[8] * float64(n))) // [0, n-1]
	}
	if u[9] < im.BitFlip && n > 0 {
		d.NFlip = min(im.FlipBits, len(d.Flips))
		for i := 0; i < d.NFlip; i++ {
			d.Flips[i] = int(flipPos[i] % uint64(8*n))
		}
	}
	return d
}

// Apply applies the truncation and bit flips of d to pkt in place and
// returns the packet to send (a prefix of pkt).
func (d *Decision) Apply(pkt []byte) []byte {
	if d.Cut >= 0 && d.Cut < len(pkt) {
		pkt = pkt[:d.Cut]
	}
	for i := 0; i < d.NFlip; i++ {
		bit := d.Flips[i]
		if bit/8 < len(pkt) { // a flip beyond a cut is lost with the bytes
			pkt[bit/8] ^= 1 << (bit % 8)
		}
	}
	return pkt
}
