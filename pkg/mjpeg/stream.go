package mjpeg

import (
	"errors"
	"fmt"
	"image/jpeg"
	"sync"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

// Config configures a Stream. The zero value of every field means its
// default.
type Config struct {
	// Rate is the most JPEG frames per second a stream publishes [Hz];
	// frames the camera delivers faster are skipped before any copy.
	// Range (0, 120], default 10.
	Rate float64
	// Quality is the JPEG quality of encoded frames, 1..100, default 75.
	// Passed-through MJPG/JPEG frames keep the camera's quality.
	Quality int
	// MaxWidth bounds the width of encoded frames [px]: the image is
	// downscaled by a box filter of 2x, 4x, ... (at most 16x) until its
	// width is at most MaxWidth. 0 (default) keeps the native size (half
	// size for Bayer, see Encodings). Passed-through frames are never
	// scaled.
	MaxWidth int
	// WriteTimeout bounds the write of one frame to one viewer [s]: a
	// viewer whose connection takes longer (a stalled client) is
	// disconnected, so it stops counting as a viewer. Default 10 s.
	WriteTimeout time.Duration
	// SnapshotTimeout bounds how long Snapshot waits for a fresh frame
	// when none is recent [s]. Default 3 s.
	SnapshotTimeout time.Duration
}

// Defaults and limits of Config.
const (
	DefaultRate            = 10.0
	DefaultQuality         = 75
	DefaultWriteTimeout    = 10 * time.Second
	DefaultSnapshotTimeout = 3 * time.Second
	MaxRate                = 120.0 // [Hz]
)

// ErrBadConfig is wrapped by NewStream's errors.
var ErrBadConfig = errors.New("bad config")

// ErrClosed is returned for requests to a closed Stream.
var ErrClosed = errors.New("stream closed")

func (c Config) normalize() (Config, error) {
	if c.Rate == 0 {
		c.Rate = DefaultRate
	}
	if !(c.Rate > 0 && c.Rate <= MaxRate) { // also rejects NaN
		return c, fmt.Errorf("rate %v Hz: want (0, %v]: %w", c.Rate, MaxRate, ErrBadConfig)
	}
	if c.Quality == 0 {
		c.Quality = DefaultQuality
	}
	if c.Quality < 1 || c.Quality > 100 {
		return c, fmt.Errorf("quality %d: want 1..100: %w", c.Quality, ErrBadConfig)
	}
	if c.MaxWidth < 0 || c.MaxWidth > maxSize {
		return c, fmt.Errorf("max width %d px: want 0..%d: %w", c.MaxWidth, maxSize, ErrBadConfig)
	}
	if c.WriteTimeout == 0 {
		c.WriteTimeout = DefaultWriteTimeout
	}
	if c.WriteTimeout < 0 {
		return c, fmt.Errorf("write timeout %v: want > 0: %w", c.WriteTimeout, ErrBadConfig)
	}
	if c.SnapshotTimeout == 0 {
		c.SnapshotTimeout = DefaultSnapshotTimeout
	}
	if c.SnapshotTimeout < 0 {
		return c, fmt.Errorf("snapshot timeout %v: want > 0: %w", c.SnapshotTimeout, ErrBadConfig)
	}
	return c, nil
}

// Stats are a Stream's counters and measurements. Counts are since
// NewStream.
type Stats struct {
	Name    string
	Viewers int // open MJPEG responses and waiting snapshots now

	FramesIn uint64 // frames fed, watched or not
	Encoded  uint64 // frames published to viewers (encoded or passed through)
	Passed   uint64 // of Encoded, MJPG/JPEG frames passed through untouched
	Skipped  uint64 // frames skipped by the rate limit (no copy)
	Dropped  uint64 // frames copied but replaced by a newer one before the encoder took them
	Bad      uint64 // frames rejected: unknown encoding, inconsistent size, not a JPEG
	LastErr  error  // why the last bad frame was rejected; nil if none was

	InputEncoding string // encoding of the last frame fed while watched
	InputWidth    int    // [px]
	InputHeight   int    // [px]
	Width         int    // of the published JPEGs [px]
	Height        int    // [px]

	FPS         float64       // published frames per second over the last ~16 frames [Hz]; 0 when none for 2 s
	BytesPerSec float64       // JPEG bytes per second over the same frames [B/s]
	LastBytes   int           // size of the last JPEG [bytes]
	LastEncode  time.Duration // conversion + encoding time of the last encoded frame (wall time: on a loaded machine it includes waiting for a core)
	MeanEncode  time.Duration // mean of the same over every encoded frame (passthrough excluded)
}

// raw is a frame copied out of the camera's buffer for the encoder.
type raw struct {
	p                   *pixFormat
	width, height, step int
	stamp               time.Time
	data                []byte
}

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
	conv converter
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

// pub is one published frame, for the FPS and bytes/s measurement.
type pub struct {
	at    time.Time
	bytes int
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

// encodeLoop is the encoder goroutine: it takes the pending frame,
// converts and encodes it, publishes it, and exits when nobody watches.
func (s *Stream) encodeLoop() {
	for {
		s.mu.Lock()
		for !s.pendingReady && s.nViewers > 0 && !s.closed {
			s.wake.Wait()
		}
		if s.nViewers == 0 || s.closed {
			s.encoding = false
			s.pendingReady = false
			s.mu.Unlock()
			return
		}
		s.pending, s.work = s.work, s.pending
		s.pendingReady = false
		s.mu.Unlock()
		s.encodeOne(&s.work)
	}
}

// encodeOne turns r into a JPEG and publishes it. Runs on the encoder.
func (s *Stream) encodeOne(r *raw) {
	if r.p.kind == kindJPEG {
		s.publish(r.data, r.stamp, r.width, r.height, 0, true)
		return
	}
	start := time.Now()
	f, w, h := outSize(r.p, r.width, r.height, s.cfg.MaxWidth)
	img := s.conv.convert(r.p, r.data, r.width, r.height, r.step, f, w, h)
	s.enc.b = s.enc.b[:0]
	if err := jpeg.Encode(&s.enc, img, &s.opts); err != nil {
		// image/jpeg fails only on images larger than 65535 px, which
		// checkFrame excludes; count it like a bad frame all the same.
		s.mu.Lock()
		s.bad++
		s.lastErr = fmt.Errorf("mjpeg: %s: encode: %w", s.name, err)
		s.mu.Unlock()
		return
	}
	s.publish(s.enc.b, r.stamp, w, h, time.Since(start), false)
}

// publish makes jpg (copied) the latest frame and wakes every viewer.
func (s *Stream) publish(jpg []byte, stamp time.Time, w, h int, took time.Duration, passed bool) {
	now := s.now()
	s.outMu.Lock()
	s.out = append(s.out[:0], jpg...)
	s.outStamp, s.outW, s.outH = stamp, w, h
	s.outSeq++
	s.encoded++
	if passed {
		s.passed++
	} else {
		s.lastEnc = took
		s.sumEnc += took
		s.nEnc++
	}
	copy(s.ring[1:], s.ring[:len(s.ring)-1])
	s.ring[0] = pub{at: now, bytes: len(jpg)}
	s.ringN = min(s.ringN+1, len(s.ring))
	s.outMu.Unlock()

	s.mu.Lock()
	for v := range s.set {
		select {
		case v.wake <- struct{}{}:
		default: // it has not taken the previous one yet: latest wins
		}
	}
	s.mu.Unlock()
}

// Latest returns a copy of the latest published JPEG and the capture time
// of its frame, or false if none was published yet. It does not make
// anyone watch: with no viewer the image may be old (see Snapshot).
func (s *Stream) Latest() ([]byte, time.Time, bool) {
	s.outMu.RLock()
	defer s.outMu.RUnlock()
	if s.outSeq == 0 {
		return nil, time.Time{}, false
	}
	return append([]byte(nil), s.out...), s.outStamp, true
}

// latestInto copies the latest JPEG into buf if it is newer than seq and
// returns the buffer, its sequence number and capture time.
func (s *Stream) latestInto(buf []byte, seq uint64) ([]byte, uint64, time.Time, bool) {
	s.outMu.RLock()
	defer s.outMu.RUnlock()
	if s.outSeq == seq {
		return buf, seq, time.Time{}, false
	}
	return append(buf[:0], s.out...), s.outSeq, s.outStamp, true
}

// OnViewers sets fn to be called with the number of viewers whenever it
// changes, and once at once with the current number. Calls are
// serialised and the last call always carries the current number, so fn
// can drive camera.Camera.SetSubscribers(n, 0). fn runs on the goroutine
// of the request that changed the count and must not block.
func (s *Stream) OnViewers(fn func(n int)) {
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	s.onViewers = fn
	s.notified = int(s.viewers.Load())
	if fn != nil {
		fn(s.notified)
	}
}

func (s *Stream) notify() {
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	n := int(s.viewers.Load())
	if s.onViewers != nil && n != s.notified {
		s.notified = n
		s.onViewers(n)
	}
}

// Viewers returns the number of viewers now: open MJPEG responses and
// snapshots waiting for a frame.
func (s *Stream) Viewers() int { return int(s.viewers.Load()) }

// viewer is one watcher; wake is signalled (never blocking) on each new
// frame.
type viewer struct {
	wake chan struct{}
}

// addViewer registers a viewer and starts the encoder if it is not
// running. It fails with ErrClosed after Close.
func (s *Stream) addViewer() (*viewer, error) {
	v := &viewer{wake: make(chan struct{}, 1)}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, fmt.Errorf("mjpeg: %s: %w", s.name, ErrClosed)
	}
	s.set[v] = struct{}{}
	s.nViewers++
	s.viewers.Store(int32(s.nViewers))
	if !s.encoding {
		s.encoding = true
		go s.encodeLoop()
	}
	s.mu.Unlock()
	s.notify()
	return v, nil
}

// removeViewer unregisters v; the encoder exits when the last one leaves.
func (s *Stream) removeViewer(v *viewer) {
	s.mu.Lock()
	if _, ok := s.set[v]; ok {
		delete(s.set, v)
		s.nViewers--
		s.viewers.Store(int32(s.nViewers))
		s.wake.Broadcast()
	}
	s.mu.Unlock()
	s.notify()
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

// Stats returns the stream's counters and measurements.
func (s *Stream) Stats() Stats {
	st := Stats{Name: s.name, Viewers: s.Viewers(), FramesIn: s.framesIn.Load()}
	s.mu.Lock()
	st.Skipped, st.Dropped, st.Bad, st.LastErr = s.skipped, s.dropped, s.bad, s.lastErr
	st.InputEncoding, st.InputWidth, st.InputHeight = s.inEnc, s.inW, s.inH
	s.mu.Unlock()
	now := s.now()
	s.outMu.RLock()
	defer s.outMu.RUnlock()
	st.Encoded, st.Passed = s.encoded, s.passed
	st.Width, st.Height = s.outW, s.outH
	st.LastEncode = s.lastEnc
	if s.nEnc > 0 {
		st.MeanEncode = s.sumEnc / time.Duration(s.nEnc)
	}
	if s.ringN > 0 {
		st.LastBytes = s.ring[0].bytes
	}
	// Rates over the recorded frames: n-1 intervals between the newest and
	// the oldest; none when the newest is older than 2 s.
	if s.ringN >= 2 && now.Sub(s.ring[0].at) < 2*time.Second {
		span := s.ring[0].at.Sub(s.ring[s.ringN-1].at).Seconds()
		if span > 0 {
			bytes := 0
			for _, p := range s.ring[:s.ringN-1] {
				bytes += p.bytes
			}
			st.FPS = float64(s.ringN-1) / span
			st.BytesPerSec = float64(bytes) / span
		}
	}
	return st
}

// jpegBuf is the encoder's output: a reused byte slice that image/jpeg
// writes into directly (it has Flush and WriteByte, so jpeg.Encode adds
// no bufio.Writer of its own).
type jpegBuf struct{ b []byte }

func (j *jpegBuf) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }
func (j *jpegBuf) WriteByte(c byte) error      { j.b = append(j.b, c); return nil }
func (j *jpegBuf) Flush() error                { return nil }
