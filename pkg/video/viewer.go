package video

import (
	"fmt"
)

// MaxDepth is the largest queue a viewer may ask for [access units].
const MaxDepth = 1000

// viewer is one subscriber of a Stream. Its fields are guarded by the
// stream's mutex.
type viewer struct {
	s       *Stream
	ch      chan AccessUnit
	want    int  // WantBitrate [bit/s]; 0 = no opinion
	needKey bool // deliver nothing until the next keyframe
	lagging bool // needKey because this viewer fell behind (drops counted)
	closed  bool
}

var _ Source = (*Stream)(nil)

// Subscribe adds a viewer whose channel holds up to depth access units
// (1..MaxDepth). The first viewer starts the encoder; a later one waits
// for the next keyframe, which it asks for.
func (s *Stream) Subscribe(depth int) (Viewer, error) {
	if depth < 1 || depth > MaxDepth {
		return nil, fmt.Errorf("video: stream %s: viewer depth %d: want 1..%d: %w", s.cfg.Name, depth, MaxDepth, ErrBadConfig)
	}
	v := &viewer{s: s, ch: make(chan AccessUnit, depth), needKey: true}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, fmt.Errorf("video: stream %s: %w", s.cfg.Name, ErrClosed)
	}
	s.viewers[v] = struct{}{}
	if s.run == nil { // a fresh encoder starts with an IDR picture anyway
		r := &run{work: make(chan *I420, 1), stop: make(chan struct{}), done: make(chan struct{})}
		s.run = r
		s.keyWanted.Store(false)
		go s.encode(r)
	} else {
		s.keyWanted.Store(true)
	}
	s.updateTargetLocked()
	s.mu.Unlock()
	s.notifyViewers()
	return v, nil
}

// updateTargetLocked sets the encoder's target: the lowest WantBitrate
// among the viewers that said one, else Config.Bitrate, clamped.
func (s *Stream) updateTargetLocked() {
	low := 0
	for v := range s.viewers {
		if v.want > 0 && (low == 0 || v.want < low) {
			low = v.want
		}
	}
	if low == 0 {
		low = s.cfg.Bitrate
	}
	s.target.Store(int64(s.clamp(low)))
}

// offer delivers au unless the viewer waits for a keyframe or its queue is
// full; a full queue drops au and everything up to the next keyframe.
// Called with the stream's mutex held.
func (v *viewer) offer(au AccessUnit) {
	if v.closed {
		return
	}
	if v.needKey {
		if !au.Key {
			if v.lagging {
				v.s.c.drops.Add(1)
			}
			return
		}
		v.needKey, v.lagging = false, false
	}
	select {
	case v.ch <- au:
	default:
		v.needKey, v.lagging = true, true
		v.s.c.drops.Add(1)
	}
}

func (v *viewer) closeLocked() {
	if !v.closed {
		v.closed = true
		close(v.ch)
	}
}

func (v *viewer) AccessUnits() <-chan AccessUnit { return v.ch }

func (v *viewer) WantBitrate(bps int) {
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	v.want = max(bps, 0)
	if !v.closed {
		v.s.updateTargetLocked()
	}
}

func (v *viewer) RequestKeyFrame() {
	v.s.c.keyReq.Add(1)
	v.s.keyWanted.Store(true)
}

func (v *viewer) Close() {
	s := v.s
	s.mu.Lock()
	if v.closed {
		s.mu.Unlock()
		return
	}
	v.closeLocked()
	delete(s.viewers, v)
	n := len(s.viewers)
	var r *run
	if n == 0 {
		r, s.run = s.run, nil
	}
	s.updateTargetLocked()
	s.mu.Unlock()
	if r != nil {
		close(r.stop) // the encoder goroutine closes the encoder
	}
	s.notifyViewers()
}

// notifyViewers tells Config.OnViewers the viewer count. Calls are
// serialized and each reads the count when it runs, so the last call
// always carries the current count, however Subscribe and Close
// interleave (a camera is never left off while someone watches).
func (s *Stream) notifyViewers() {
	if s.cfg.OnViewers == nil {
		return
	}
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	s.mu.Lock()
	n := len(s.viewers)
	s.mu.Unlock()
	s.cfg.OnViewers(n)
}
