package peer

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/rtp"
)

// pacer is the sessions' packet pacer (gcc.Pacer): a leaky bucket that
// spreads a burst (a keyframe's packets) over time at the estimate's rate
// times pacingFactor, as pion's LeakyBucketPacer does, but driven by
// events instead of a 5 ms ticker. A packet that finds the bucket with
// credit goes out at once from the caller's goroutine; the others wait in
// a queue that a timer drains when credit is due. A session that sends
// nothing wakes nothing, so ten viewers cost little more than one (the
// ticker's 200 wake-ups a second per session were most of a session's
// cost).
type pacer struct {
	mu      sync.Mutex
	writers map[uint32]interceptor.RTPWriter
	rate    float64   // bytes per second the bucket refills with
	credit  float64   // bytes that may go out now (negative: a debt)
	last    time.Time // when credit was last refilled
	queue   []paced   // waiting packets, oldest first
	queued  int       // their bytes
	timer   *time.Timer
	closed  bool
	now     func() time.Time
	after   func(time.Duration, func()) *time.Timer
}

// paced is a packet waiting in the queue: header and payload copied
// (the caller reuses its buffers), the attributes kept.
type paced struct {
	header  rtp.Header
	payload []byte
	attr    interceptor.Attributes
	resend  retainer
	at      time.Time // when it was queued
}

// retainer is the NACK responder's hold on a retransmitted packet
// (pion's rtpbuffer.Resend, an internal type, found by its methods): held
// while the packet waits, released when it went out or was dropped.
type retainer interface {
	Retain()
	Release(sent bool)
}

const (
	// pacingFactor lets the pacer send this much faster than the estimate
	// (pion's LeakyBucketPacer uses 1.5), so that the encoder's own rate
	// control, not the pacer's queue, follows the estimate.
	pacingFactor = 1.5
	// maxCredit is how long a quiet bucket saves credit for: a burst of
	// this much sending time goes out at once.
	maxCredit = 10 * time.Millisecond
	// maxQueue bounds the waiting packets (about 1.4 MB at full size);
	// beyond it the oldest is dropped, as a full network queue would.
	maxQueue = 1000
	// maxQueueDelay is the longest the queue is let to take to drain: a
	// burst larger than the rate drains in that time sends faster. The
	// pacer spreads bursts; it must not hold video for seconds, as it
	// would with a keyframe after a blackout, when the estimate has fallen
	// to its floor (libwebrtc's pacer bounds its queue time too).
	maxQueueDelay = 200 * time.Millisecond
)

// errPacerClosed is returned by Write after Close.
var errPacerClosed = errors.New("peer: pacer closed")

// newPacer returns a pacer at initialBitrate [bit/s], full of credit.
func newPacer(initialBitrate int) *pacer {
	p := &pacer{writers: map[uint32]interceptor.RTPWriter{}, now: time.Now, after: time.AfterFunc}
	p.rate = max(float64(initialBitrate), 1) * pacingFactor / 8
	return p
}

// AddStream registers the writer of the stream ssrc.
func (p *pacer) AddStream(ssrc uint32, w interceptor.RTPWriter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.writers[ssrc] = w
}

// SetTargetBitrate sets the estimate [bit/s].
func (p *pacer) SetTargetBitrate(bps int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refill(p.now())
	p.rate = max(float64(bps), 1) * pacingFactor / 8
}

// refill adds the credit earned since last, capped at maxCredit's worth
// (and at least one full packet, so that a low rate still sends whole
// packets without waiting). Holds mu.
func (p *pacer) refill(now time.Time) {
	ceiling := max(p.rate*maxCredit.Seconds(), 1500)
	if p.last.IsZero() {
		p.credit = ceiling // a new bucket starts full
	} else {
		p.credit = min(p.credit+p.pace(now)*now.Sub(p.last).Seconds(), ceiling)
	}
	p.last = now
}

// pace is the rate the bucket fills at now [bytes/s]: the target, or
// faster when the queue would otherwise not be out by maxQueueDelay after
// its oldest packet came. Holds mu.
func (p *pacer) pace(now time.Time) float64 {
	if len(p.queue) == 0 {
		return p.rate
	}
	left := max(p.queue[0].at.Add(maxQueueDelay).Sub(now), 5*time.Millisecond)
	return max(p.rate, float64(p.queued)/left.Seconds())
}

// Write sends the packet now if the bucket has credit and nothing waits;
// otherwise it queues a copy and makes sure a timer will send it.
func (p *pacer) Write(h *rtp.Header, payload []byte, attr interceptor.Attributes) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, errPacerClosed
	}
	size := h.MarshalSize() + len(payload)
	p.refill(p.now())
	if len(p.queue) == 0 && p.credit > 0 {
		p.credit -= float64(size)
		return p.send(h, payload, attr)
	}
	if len(p.queue) >= maxQueue {
		p.queued -= p.queue[0].header.MarshalSize() + len(p.queue[0].payload)
		p.release(&p.queue[0], false)
		p.queue = p.queue[1:]
	}
	p.queued += size
	q := paced{header: h.Clone(), payload: append([]byte(nil), payload...), attr: attr, at: p.now()}
	for _, v := range attr {
		if r, ok := v.(retainer); ok {
			r.Retain()
			q.resend = r
			break
		}
	}
	p.queue = append(p.queue, q)
	p.schedule()
	return size, nil
}

// send writes one packet to its stream's writer. Holds mu, which keeps
// the packets in order.
func (p *pacer) send(h *rtp.Header, payload []byte, attr interceptor.Attributes) (int, error) {
	w, ok := p.writers[h.SSRC]
	if !ok {
		return 0, fmt.Errorf("peer: pacer: no stream with SSRC %d", h.SSRC)
	}
	return w.Write(h, payload, attr)
}

// drain sends the waiting packets the credit allows; the timer calls it.
func (p *pacer) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.timer = nil
	if p.closed {
		return
	}
	p.refill(p.now())
	for len(p.queue) > 0 && p.credit > 0 {
		q := &p.queue[0]
		n := q.header.MarshalSize() + len(q.payload)
		p.credit -= float64(n)
		p.queued -= n
		_, err := p.send(&q.header, q.payload, q.attr)
		p.release(q, err == nil)
		p.queue[0] = paced{}
		p.queue = p.queue[1:]
	}
	if len(p.queue) == 0 {
		p.queue = p.queue[:0:0] // let the backing array go once the burst is out
		return
	}
	p.schedule()
}

// schedule arms the timer for when the credit will be positive again.
// Holds mu.
func (p *pacer) schedule() {
	if p.timer != nil {
		return
	}
	wait := time.Duration((1 - p.credit) / p.pace(p.now()) * float64(time.Second))
	p.timer = p.after(max(wait, time.Millisecond), p.drain)
}

func (p *pacer) release(q *paced, sent bool) {
	if q.resend != nil {
		q.resend.Release(sent)
		q.resend = nil
	}
}

// Close drops the waiting packets and stops the timer.
func (p *pacer) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	for i := range p.queue {
		p.release(&p.queue[i], false)
	}
	p.queue, p.queued = nil, 0
	return nil
}
