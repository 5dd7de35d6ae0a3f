package direct

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// MaxVariants is how many settings besides its own a camera encodes at
// most (each a separate encoder while watched).
const MaxVariants = 4

// variants are a camera's H.264 streams of other settings than its own
// (smaller pictures or fewer frames), made on a page's demand and kept
// until the camera stops; a variant nobody watches encodes nothing.
type variants struct {
	mu     sync.Mutex
	by     map[peer.Setting]*video.Stream
	all    atomic.Pointer[[]*video.Stream] // read by the camera goroutine without a lock
	closed bool
}

// list returns the variants to feed (the camera goroutine, lock-free).
func (v *variants) list() []*video.Stream {
	if p := v.all.Load(); p != nil {
		return *p
	}
	return nil
}

// get returns the stream of setting s, made with open the first time.
func (v *variants) get(s peer.Setting, open func() (*video.Stream, error)) (*video.Stream, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return nil, fmt.Errorf("camera stopped")
	}
	if st, ok := v.by[s]; ok {
		return st, nil
	}
	if len(v.by) >= MaxVariants {
		return nil, fmt.Errorf("camera already encodes %d other settings (at most %d): ask for one of those or none", len(v.by), MaxVariants)
	}
	st, err := open()
	if err != nil {
		return nil, err
	}
	if v.by == nil {
		v.by = map[peer.Setting]*video.Stream{}
	}
	v.by[s] = st
	list := make([]*video.Stream, 0, len(v.by))
	for _, x := range v.by {
		list = append(list, x)
	}
	v.all.Store(&list)
	return st, nil
}

// close closes every variant (the camera stopped).
func (v *variants) close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.closed = true
	for _, st := range v.by {
		_ = st.Close()
	}
	v.all.Store(nil)
}
