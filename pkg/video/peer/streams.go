package peer

import "sync"

// streams holds one value per stream of a session, by SSRC: an
// interceptor adds it when pion binds the stream, the session looks it up
// for its figures, and pion's unbind removes it. Safe for concurrent use;
// the zero value is empty.
type streams[T any] struct {
	mu sync.Mutex
	m  map[uint32]*T
}

// put holds v for stream ssrc, replacing any. v must be complete:
// others may get it at once.
func (s *streams[T]) put(ssrc uint32, v *T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = make(map[uint32]*T)
	}
	s.m[ssrc] = v
}

// get returns the value of stream ssrc, nil if none.
func (s *streams[T]) get(ssrc uint32) *T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[ssrc]
}

// remove forgets stream ssrc.
func (s *streams[T]) remove(ssrc uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, ssrc)
}
