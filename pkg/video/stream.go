package video

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/bulkcpu"
	"github.com/telebridge/telebridge/pkg/video/framecode"
)

// ErrClosed: the stream was closed.
var ErrClosed = errors.New("stream closed")

// Stream is one camera's encoded video, a Source: the first viewer starts
// the encoder, the last one's Close stops it, and every viewer gets the
// same access units. Feed it the camera's frames.
//
// Feed runs on the camera's goroutine; every other method may be called
// from any goroutine.
type Stream struct {
	cfg  Config
	conv Converter // Feed's goroutine only
	free chan *I420

	notifyMu sync.Mutex // serializes OnViewers calls
	mu       sync.Mutex
	viewers  map[*viewer]struct{}
	run      *run // nil while nobody watches
	closed   bool
	lastErr  string

	split     AUSplitter // pass-through, Feed's goroutine only
	emitSplit func([]byte, bool)
	feedTime  time.Time

	lastEnc string    // Feed's goroutine only
	full    I420      // Feed's goroutine only: the frame before shrinking
	scaler  Scaler    // Feed's goroutine only
	dec     decimator // Feed's goroutine only

	keyWanted atomic.Bool
	target    atomic.Int64
	counter   atomic.Uint32 // frame counter of the frame code
	c         counters
}

// run is one watched period: an encoder goroutine and its work queue.
type run struct {
	work chan *I420
	stop chan struct{}
	done chan struct{}
}

// NewStream checks cfg, fills its defaults and returns a stream with no
// viewer. Without libx264 (H264Unavailable) it fails with an error wrapping
// ErrNoH264 unless cfg.PassThrough.
func NewStream(cfg Config) (*Stream, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Stream{cfg: cfg, viewers: map[*viewer]struct{}{}, free: make(chan *I420, 3)}
	for i := 0; i < cap(s.free); i++ {
		s.free <- new(I420)
	}
	if cfg.MaxFrameRate != 0 {
		s.dec.period = time.Duration(float64(time.Second) / cfg.MaxFrameRate)
	}
	s.target.Store(int64(s.clamp(cfg.Bitrate)))
	s.emitSplit = s.publishPassThrough
	return s, nil
}

func (s *Stream) clamp(bps int) int { return min(max(bps, s.cfg.MinBitrate), s.cfg.MaxBitrate) }

// Feed takes one camera frame (the camera's frame function; f and its
// data are lent for the call). While nobody watches it only counts the
// frame. Otherwise it converts the frame into a free picture buffer and
// hands it to the encoder goroutine; when the encoder is still busy with
// earlier pictures the frame is skipped (counted). It allocates nothing
// after warm-up, except for JPEG input and pass-through access units.
func (s *Stream) Feed(f *Frame) {
	s.c.in.Add(1)
	if f.Encoding != s.lastEnc {
		s.lastEnc = f.Encoding
		s.c.enc.Store(f.Encoding)
	}
	s.mu.Lock()
	r := s.run
	s.mu.Unlock()
	if r == nil {
		s.c.idle.Add(1)
		return
	}
	if s.cfg.PassThrough {
		if f.Encoding != EncodingH264 {
			s.fail(fmt.Errorf("video: stream %s: pass-through of %q frames: %w", s.cfg.Name, f.Encoding, ErrUnknownEncoding))
			return
		}
		s.feedTime = f.Capture
		s.split.Push(f.Data, s.emitSplit)
		return
	}
	if !s.dec.keep(f.Capture) {
		s.c.decimated.Add(1)
		return
	}
	var pic *I420
	select {
	case pic = <-s.free:
	default:
		s.c.skipped.Add(1)
		return
	}
	if err := s.convert(f, pic); err != nil {
		s.free <- pic
		s.fail(err)
		return
	}
	if s.cfg.FrameCode {
		framecode.StampPlanar(pic.Y, pic.U, pic.V, pic.Width, pic.Height, framecode.New(pic.Capture, uint16(s.counter.Add(1)-1)))
	}
	sent := false
	s.mu.Lock()
	if s.run == r { // a detached run's queue is never fed: its goroutine may have drained it already
		select {
		case r.work <- pic:
			sent = true
		default:
		}
	}
	s.mu.Unlock()
	if !sent {
		s.free <- pic
		s.c.skipped.Add(1)
	}
}

// convert turns f into pic at the configured size: directly when the
// frame is no larger, else through s.full and the scaler.
func (s *Stream) convert(f *Frame, pic *I420) error {
	if s.cfg.Width == 0 || f.Width <= s.cfg.Width && f.Height <= s.cfg.Height {
		return s.conv.Convert(f, pic)
	}
	if err := s.conv.Convert(f, &s.full); err != nil {
		return err
	}
	w, h := min(s.cfg.Width, s.full.Width), min(s.cfg.Height, s.full.Height)
	if err := pic.Resize(w, h); err != nil {
		return err
	}
	return s.scaler.Scale(pic, &s.full)
}

func (s *Stream) fail(err error) {
	s.c.bad.Add(1)
	s.mu.Lock()
	s.lastErr = err.Error()
	s.mu.Unlock()
}

func (s *Stream) publishPassThrough(au []byte, key bool) {
	s.c.pass.Add(1)
	s.publish(AccessUnit{Data: au, Capture: s.feedTime, Duration: s.frameDuration(), Key: key})
}

func (s *Stream) frameDuration() time.Duration {
	return time.Duration(float64(time.Second) / s.cfg.FrameRate)
}

// encode is the encoder goroutine of one watched period: it owns the
// encoder, opens it at the first picture's size (again when the size
// changes), forces merged keyframe requests, follows the target bitrate
// and publishes every access unit.
func (s *Stream) encode(r *run) {
	defer close(r.done)
	var enc Encoder
	var w, h, applied int
	var lastForced time.Time
	defer func() {
		if enc != nil {
			_ = enc.Close()
		}
		for { // hand back pictures still queued
			select {
			case p := <-r.work:
				s.free <- p
			default:
				return
			}
		}
	}()
	for {
		var pic *I420
		select {
		case <-r.stop:
			return
		case pic = <-r.work:
		}
		if enc == nil || pic.Width != w || pic.Height != h {
			if enc != nil {
				_ = enc.Close()
			}
			var err error
			applied = int(s.target.Load())
			enc, err = s.cfg.NewEncoder(EncoderConfig{Width: pic.Width, Height: pic.Height, FrameRate: s.cfg.FrameRate, Bitrate: applied, KeyInterval: s.cfg.KeyInterval})
			if err != nil {
				s.free <- pic
				s.fail(err)
				s.stopAll(r)
				return
			}
			s.c.opens.Add(1)
			w, h = pic.Width, pic.Height
			s.c.width.Store(int64(w))
			s.c.height.Store(int64(h))
		}
		if t := int(s.target.Load()); t != applied {
			if err := enc.SetBitrate(t); err != nil {
				s.fail(err)
			}
			applied = t
		}
		now := time.Now()
		force := false
		if s.keyWanted.Load() && now.Sub(lastForced) >= s.cfg.KeyMerge {
			s.keyWanted.Store(false)
			force, lastForced = true, now
			s.c.forced.Add(1)
		}
		bulkcpu.Acquire() // video leaves a processor to the operator's commands (pkg/bulkcpu)
		au, key, err := enc.Encode(pic, force)
		bulkcpu.Release()
		capture := pic.Capture
		s.free <- pic
		if err != nil {
			s.fail(err)
			continue
		}
		if key {
			s.keyWanted.Store(false) // any IDR answers the requests made before it
		}
		s.publish(AccessUnit{Data: au, Capture: capture, Duration: s.frameDuration(), Key: key})
	}
}

// publish counts an access unit and offers it to every viewer.
func (s *Stream) publish(au AccessUnit) {
	s.c.encoded.Add(1)
	s.c.bytes.Add(uint64(len(au.Data)))
	if au.Key {
		s.c.keys.Add(1)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for v := range s.viewers {
		v.offer(au)
	}
}

// stopAll ends a run whose encoder failed: every viewer's channel is
// closed (the Source stopped) and the viewers are dropped.
func (s *Stream) stopAll(r *run) {
	s.mu.Lock()
	for v := range s.viewers {
		v.closeLocked()
		delete(s.viewers, v)
	}
	if s.run == r {
		s.run = nil
	}
	s.mu.Unlock()
	s.notifyViewers()
}

// Close stops the encoder and closes every viewer's channel. Feed and
// Subscribe fail or do nothing afterwards.
func (s *Stream) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	r := s.run
	s.run = nil
	for v := range s.viewers {
		v.closeLocked()
		delete(s.viewers, v)
	}
	s.mu.Unlock()
	if r != nil {
		close(r.stop)
		<-r.done
	}
	s.notifyViewers()
	return nil
}

// Wait blocks until ctx ends, then closes the stream: a convenience for
// running a stream beside its camera.
func (s *Stream) Wait(ctx context.Context) error {
	<-ctx.Done()
	return s.Close()
}
