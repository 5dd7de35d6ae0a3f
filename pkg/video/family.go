package video

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Setting is what one encoder of a camera produces: a picture size and a
// frame-rate limit. The zero Setting is the camera's own (every frame at
// its size).
type Setting struct {
	Width, Height int     // [px], even; 0: the camera's size
	MaxFrameRate  float64 // [frames/s]; 0: every frame
}

// ErrTooManySettings: a camera already encodes Family's limit of settings.
var ErrTooManySettings = errors.New("too many settings")

// Family is one camera's H.264 streams: the stream of its own setting and
// those of smaller settings that viewers asked for, each made on first
// demand and kept until Close; a stream nobody watches encodes nothing.
// Feed it the camera's frames: it feeds every stream.
//
// Feed runs on the camera's goroutine; the other methods may be called
// from any goroutine.
type Family struct {
	own      *Stream
	cfg      Config // of the own stream: the template of the others
	max      int
	total    atomic.Int64 // viewers of every stream
	notifyMu sync.Mutex   // serialises cfg.OnViewers
	mu       sync.Mutex
	by       map[Setting]*Stream
	all      atomic.Pointer[[]*Stream] // the others, read by Feed without a lock
	closed   bool
	size     atomic.Uint64 // the last frame's width<<32 | height
}

// NewFamily returns the family of cfg's stream, with at most maxOthers
// streams of other settings. cfg.OnViewers, if set, hears the number of
// viewers of all the streams together (wire it to the camera's demand).
func NewFamily(cfg Config, maxOthers int) (*Family, error) {
	f := &Family{cfg: cfg, max: maxOthers}
	own, err := NewStream(f.member(cfg))
	if err != nil {
		return nil, err
	}
	f.own = own
	return f, nil
}

// member returns cfg with an OnViewers hook that keeps the family's total.
func (f *Family) member(cfg Config) Config {
	var last int64 // a stream's OnViewers calls are serialised
	cfg.OnViewers = func(n int) {
		total := f.total.Add(int64(n) - last)
		last = int64(n)
		if f.cfg.OnViewers != nil {
			f.notifyMu.Lock()
			defer f.notifyMu.Unlock()
			f.cfg.OnViewers(int(total))
		}
	}
	return cfg
}

// Source returns the stream of setting s: the camera's own for the zero
// Setting, else the one made for s (the first call makes it).
func (f *Family) Source(s Setting) (*Stream, error) {
	if s == (Setting{}) {
		return f.own, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, fmt.Errorf("video: %s: %w", f.cfg.Name, ErrClosed)
	}
	if st, ok := f.by[s]; ok {
		return st, nil
	}
	if len(f.by) >= f.max {
		return nil, fmt.Errorf("video: %s already encodes %d other settings, the most it may: ask for one of those or none: %w", f.cfg.Name, len(f.by), ErrTooManySettings)
	}
	cfg := f.cfg
	cfg.Name = fmt.Sprintf("%s %dx%d %g fps", f.cfg.Name, s.Width, s.Height, s.MaxFrameRate)
	cfg.Width, cfg.Height, cfg.MaxFrameRate = s.Width, s.Height, s.MaxFrameRate
	st, err := NewStream(f.member(cfg))
	if err != nil {
		return nil, err
	}
	if f.by == nil {
		f.by = map[Setting]*Stream{}
	}
	f.by[s] = st
	list := make([]*Stream, 0, len(f.by))
	for _, x := range f.by {
		list = append(list, x)
	}
	f.all.Store(&list)
	return st, nil
}

// Viewers returns the number of viewers of all the streams.
func (f *Family) Viewers() int { return int(f.total.Load()) }

// Feed feeds fr to every stream (see Stream.Feed).
func (f *Family) Feed(fr *Frame) {
	f.size.Store(uint64(fr.Width)<<32 | uint64(uint32(fr.Height)))
	f.own.Feed(fr)
	if p := f.all.Load(); p != nil {
		for _, s := range *p {
			s.Feed(fr)
		}
	}
}

// FrameSize returns the size of the last frame fed [px] (0, 0 before
// the first).
func (f *Family) FrameSize() (width, height int) {
	v := f.size.Load()
	return int(v >> 32), int(uint32(v))
}

// Stats returns the own stream's counters.
func (f *Family) Stats() Stats { return f.own.Stats() }

// Close closes every stream.
func (f *Family) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	f.all.Store(nil)
	err := f.own.Close()
	for _, s := range f.by {
		err = errors.Join(err, s.Close())
	}
	return err
}
