package mjpeg

import "fmt"

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
