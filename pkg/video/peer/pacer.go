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
	rate    float64                // bytes per second the bucket refills with
	credit  float64                // bytes that may go out now (negative: a debt)
	last    time.Time              // when credit was last refilled
	queue   []paced                // waiting packets from head on, oldest first
	head    int                    // index of the oldest waiting packet in queue
	queued  int                    // their bytes
	free    [][]byte               // buffers of sent packets, for the next ones queued
	hdr     rtp.Header             // a queued packet's header being sent (its extensions reused)
	attr    interceptor.Attributes // handed inward with a packet that came without (cleared each time)
	timer   *time.Timer            // made at the first burst, then reset: no allocation per burst
	armed   bool                   // a drain is due
	closed  bool
	now     func() time.Time
	arm     func(time.Duration) // makes drain run after a delay (tests replace it)
}

// paced is a packet waiting in the queue: header and payload copied
// (the caller reuses its buffers) into one buffer that is reused once
// the packet went out, so a queued packet allocates nothing in the steady
// state; the attributes kept.
type paced struct {
	buf  []byte // the header marshaled, then the payload
	hlen int    // the header's bytes in buf
	pad  byte   // the header's PaddingSize (not in its marshaled form)
	attr interceptor.Attributes
	at   time.Time // when it was queued
}

// size is the packet's bytes on the wire (before SRTP).
func (q *paced) size() int { return len(q.buf) }

const (
	// pacingFactor lets the pacer send this much faster than the estimate
	// (pion's LeakyBucketPacer uses 1.5), so that the encoder's own rate
	// control, not the pacer's queue, follows the estimate.
	pacingFactor = 1.5
	// maxCredit is how long a quiet bucket saves credit for: a burst of
	// this much sending time goes out at once. 40 ms is libwebrtc's burst
	// interval (its PacingController's default): an ordinary picture
	// (about 22 ms of sending at 1.5 x the estimate) leaves whole, without
	// waiting for the timer, and only keyframes and pictures over the
	// estimate are spread. At 10 ms every picture's last packets waited
	// for a timer: a wake-up per picture and session, and up to 12 ms
	// more latency for each picture at 1 Mbit/s.
	maxCredit = 40 * time.Millisecond
	// maxBurst caps that credit in bytes (libwebrtc's 63 kB), so that a
	// high estimate does not let a burst overrun the socket's buffer.
	maxBurst = 63_000
	// maxQueue bounds the waiting packets (about 1.4 MB at full size);
	// beyond it the oldest is dropped, as a full network queue would.
	maxQueue = 1000
	// compactAfter is how many sent entries at the queue's front are let
	// to pile up, when they are half of it or more, before the waiting
	// ones are moved to its start.
	compactAfter = 64
	// maxQueueDelay is the longest the queue is let to take to drain: a
	// burst larger than the rate drains in that time sends faster. The
	// pacer spreads bursts; it must not hold video for seconds, as it
	// would with a keyframe after a blackout, when the estimate has fallen
	// to its floor (libwebrtc's pacer bounds its queue time too).
	maxQueueDelay = 200 * time.Millisecond
	// keepBuffers bounds the buffers kept for reuse (a frame's burst at
	// a few Mbit/s); those of a larger burst go to the collector.
	keepBuffers = 64
)

// errPacerClosed is returned by Write after Close.
var errPacerClosed = errors.New("peer: pacer closed")

// newPacer returns a pacer at initialBitrate [bit/s], full of credit.
func newPacer(initialBitrate int) *pacer {
	p := &pacer{writers: map[uint32]interceptor.RTPWriter{}, now: time.Now}
	p.arm = p.armTimer
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
// or maxBurst (and at least one full packet, so that a low rate still sends whole
// packets without waiting). Holds mu.
func (p *pacer) refill(now time.Time) {
	ceiling := max(min(p.rate*maxCredit.Seconds(), maxBurst), 1500)
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
	if p.waiting() == 0 {
		return p.rate
	}
	left := max(p.queue[p.head].at.Add(maxQueueDelay).Sub(now), 5*time.Millisecond)
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
	if p.waiting() == 0 && p.credit > 0 {
		p.credit -= float64(size)
		return p.send(h, payload, attr)
	}
	if p.waiting() >= maxQueue {
		p.pop(false)
	}
	q := paced{attr: attr, at: p.now(), pad: h.PaddingSize}
	if n := len(p.free); n > 0 && cap(p.free[n-1]) >= size {
		q.buf, p.free = p.free[n-1][:size], p.free[:n-1]
	} else {
		q.buf = make([]byte, size, max(size, rtpMTU+100))
	}
	hlen, err := h.MarshalTo(q.buf)
	if err != nil {
		p.free = append(p.free, q.buf)
		return 0, fmt.Errorf("peer: pacer: %w", err)
	}
	q.hlen = hlen
	copy(q.buf[hlen:], payload)
	p.queued += size
	p.queue = append(p.queue, q)
	p.schedule()
	return size, nil
}

// queuedBytes returns the bytes waiting (RTP header and payload).
func (p *pacer) queuedBytes() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.queued
}

// waiting is the number of queued packets. Holds mu.
func (p *pacer) waiting() int { return len(p.queue) - p.head }

// pop removes the oldest queued packet, sending it first if send is true,
// and keeps its buffer for reuse. Holds mu.
func (p *pacer) pop(send bool) {
	q := &p.queue[p.head]
	p.queued -= q.size()
	if send {
		p.credit -= float64(q.size())
		if _, err := p.hdr.Unmarshal(q.buf); err == nil {
			p.hdr.PaddingSize = q.pad
			_, _ = p.send(&p.hdr, q.buf[q.hlen:], q.attr)
		}
	}
	if len(p.free) < keepBuffers {
		p.free = append(p.free, q.buf[:0])
	}
	p.queue[p.head] = paced{}
	p.head++
	switch {
	case p.head == len(p.queue): // empty: reuse the array from its start
		p.queue, p.head = p.queue[:0], 0
		if cap(p.queue) > keepBuffers {
			p.queue = nil // let a large burst's array go
		}
	case p.head >= compactAfter && 2*p.head >= len(p.queue):
		// A queue that never empties (a stream above the estimate) would
		// otherwise keep every sent entry before head and grow for good.
		n := copy(p.queue, p.queue[p.head:])
		clear(p.queue[n:])
		p.queue, p.head = p.queue[:n], 0
	}
}

// send writes one packet to its stream's writer. Holds mu, which keeps
// the packets in order. A packet without attributes gets the pacer's one
// map, emptied: GCC sets its extension id in the attributes of every
// packet and would otherwise make a map for each (the interceptors
// inward read it during Write and keep nothing).
func (p *pacer) send(h *rtp.Header, payload []byte, attr interceptor.Attributes) (int, error) {
	w, ok := p.writers[h.SSRC]
	if !ok {
		return 0, fmt.Errorf("peer: pacer: no stream with SSRC %d", h.SSRC)
	}
	if attr == nil {
		if p.attr == nil {
			p.attr = make(interceptor.Attributes, 1)
		}
		clear(p.attr)
		attr = p.attr
	}
	return w.Write(h, payload, attr)
}

// drain sends the waiting packets the credit allows; the timer calls it.
func (p *pacer) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.armed = false
	if p.closed {
		return
	}
	p.refill(p.now())
	for p.waiting() > 0 && p.credit > 0 {
		p.pop(true)
	}
	if p.waiting() > 0 {
		p.schedule()
	}
}

// schedule arms the timer for when the credit will be positive again.
// Holds mu.
func (p *pacer) schedule() {
	if p.armed {
		return
	}
	p.armed = true
	wait := time.Duration((1 - p.credit) / p.pace(p.now()) * float64(time.Second))
	p.arm(max(wait, time.Millisecond))
}

// armTimer runs drain after d on the pacer's one timer. Holds mu.
func (p *pacer) armTimer(d time.Duration) {
	if p.timer == nil {
		p.timer = time.AfterFunc(d, p.drain)
		return
	}
	p.timer.Reset(d)
}

// Close drops the waiting packets and stops the timer.
func (p *pacer) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.timer != nil {
		p.timer.Stop()
	}
	p.armed = false
	p.queue, p.head, p.queued, p.free = nil, 0, 0, nil
	return nil
}
