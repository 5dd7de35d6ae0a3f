package mjpeg

import (
	"fmt"
	"image/jpeg"
	"sync"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

// Stream encodes the frames of one camera to JPEG while someone watches
// and serves them as MJPEG. Feed runs on the camera's capture goroutine;
// every method may be called from any goroutine.
//
// Concurrency: Feed, when a frame is due, copies it into a reused buffer
// (a memcpy of the raw image, ~0.1 ms for 640x480 YUYV) and returns; one
// encoder goroutine, alive only while someone watches, converts and
// encodes it (milliseconds) and publishes the JPEG. So the capture
// goroutine never waits for an encoder, and a camera buffer is never held
// past Feed. If the encoder is still busy when the next due frame comes,
// the copied frame not yet taken is replaced (latest wins, counted in
// Stats.Dropped).
type Stream struct {
	name    string
	cfg     Config
	period  time.Duration
	opts    jpeg.Options
	now     func() time.Time // injectable clock of the rate limit and FPS
	viewers atomic.Int32     // mirror of nViewers for Feed's lock-free check

	framesIn atomic.Uint64

	// mu guards the hand-over from Feed to the encoder, the viewer set and
	// the counters below.
	mu           sync.Mutex
	wake         *sync.Cond // the encoder waits on it
	next         time.Time  // rate limit: earliest due time of the next frame
	pending      raw
	pendingReady bool
	encoding     bool // an encoder goroutine runs
	nViewers     int
	set          map[*viewer]struct{}
	closed       bool
	done         chan struct{} // closed by Close
	skipped      uint64
	dropped      uint64
	bad          uint64
	lastErr      error
	inEnc        string
	inW, inH     int

	// Encoder-owned (only the one encoder goroutine touches them; the
	// hand-over of that role goes through mu).
	work raw
	conv Converter
	enc  jpegBuf

	// outMu guards the published JPEG and the output measurements.
	outMu    sync.RWMutex
	out      []byte
	outStamp time.Time
	outSeq   uint64
	outW     int
	outH     int
	encoded  uint64
	passed   uint64
	lastEnc  time.Duration
	sumEnc   time.Duration
	nEnc     uint64
	ring     [16]pub
	ringN    int

	notifyMu  sync.Mutex // serialises OnViewers calls
	onViewers func(int)
	notified  int
}

// NewStream returns a stream named name (it appears in Stats and errors)
// with cfg validated and defaults filled. A stream starts with no viewer:
// Feed costs nothing until ServeHTTP or Snapshot is called.
func NewStream(name string, cfg Config) (*Stream, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, fmt.Errorf("mjpeg: stream %s: %w", name, err)
	}
	s := &Stream{
		name:   name,
		cfg:    cfg,
		period: time.Duration(float64(time.Second) / cfg.Rate),
		opts:   jpeg.Options{Quality: cfg.Quality},
		now:    time.Now,
		set:    map[*viewer]struct{}{},
		done:   make(chan struct{}),
	}
	s.wake = sync.NewCond(&s.mu)
	return s, nil
}

// Name returns the stream's name.
func (s *Stream) Name() string { return s.name }

// Config returns the stream's configuration, defaults filled.
func (s *Stream) Config() Config { return s.cfg }

// Feed takes one camera frame; it is a camera.FrameFunc and runs on the
// capture goroutine, which lends f and its Data only for the call.
//
// With no viewer it counts the frame and returns: no copy, no allocation.
// With viewers it checks the frame (a bad one is counted in Stats.Bad with
// the reason in Stats.LastErr, never a panic), skips it if it comes sooner
// than the rate allows, else copies it into a reused buffer for the
// encoder goroutine and returns. Feed is safe for concurrent use, but the
// rate limit expects the frames of one camera, in capture order.
func (s *Stream) Feed(f *camera.Frame) {
	s.framesIn.Add(1)
	if s.viewers.Load() == 0 {
		return
	}
	p, n, err := checkFrame(f.Encoding, f.Compressed, int(f.Width), int(f.Height), int(f.Step), len(f.Data))
	if err == nil && p.kind == kindJPEG && !isJPEG(f.Data) {
		err = fmt.Errorf("jpeg frame starts % x, not ff d8: %w", f.Data[:2], ErrBadFrame)
	}
	if err == nil && p.kind == kindGray16 && f.IsBigEndian != 0 {
		p = &mono16BE
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.bad++
		s.lastErr = fmt.Errorf("mjpeg: %s: feed: %w", s.name, err)
		return
	}
	if s.nViewers == 0 || s.closed {
		return
	}
	if !s.due(s.now()) {
		s.skipped++
		return
	}
	if s.pendingReady {
		s.dropped++
	}
	r := &s.pending
	r.p, r.width, r.height, r.step, r.stamp = p, int(f.Width), int(f.Height), int(f.Step), f.Header.Stamp
	r.data = append(r.data[:0], f.Data[:n]...)
	s.pendingReady = true
	s.inEnc, s.inW, s.inH = f.Encoding, int(f.Width), int(f.Height)
	s.wake.Signal()
}

// due applies the rate limit at time now: a frame is due when it comes no
// more than a quarter period before the scheduled time (camera jitter
// must not halve the rate), and the schedule advances by one period from
// the previous one, not from now, so the mean rate is Rate. After an idle
// gap the schedule restarts from now. Called with mu held.
func (s *Stream) due(now time.Time) bool {
	if !s.next.IsZero() && now.Before(s.next.Add(-s.period/4)) {
		return false
	}
	if s.next.IsZero() || now.Sub(s.next) > s.period {
		s.next = now.Add(s.period)
	} else {
		s.next = s.next.Add(s.period)
	}
	return true
}

// Close ends every viewer's response, stops the encoder and refuses new
// viewers (503). Feed keeps counting frames and does nothing else.
// Close is idempotent.
func (s *Stream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.done)
		s.wake.Broadcast()
	}
	return nil
}
