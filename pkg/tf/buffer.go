package tf

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
)

// Errors callers branch on; the returned errors wrap them with the frame
// names and times involved.
var (
	// ErrUnknownFrame: a frame was never given a transform and is nobody's
	// parent.
	ErrUnknownFrame = errors.New("tf: unknown frame")
	// ErrNotConnected: the two frames are in different trees.
	ErrNotConnected = errors.New("tf: frames not connected")
	// ErrExtrapolation: the lookup time is outside the stored samples of a
	// dynamic transform on the path.
	ErrExtrapolation = errors.New("tf: extrapolation")
	// ErrLoop: the transform would make a frame its own ancestor.
	ErrLoop = errors.New("tf: transform would create a loop")
	// ErrBadTransform: empty frame names, a frame that is its own parent,
	// a zero stamp on a dynamic transform, or a non-finite or non-unit
	// transform.
	ErrBadTransform = errors.New("tf: bad transform")
)

// Config configures a Buffer. The zero value gives the defaults.
type Config struct {
	// CacheTime is how far back from its newest sample a dynamic transform
	// is kept [s]. Default 10 s.
	CacheTime time.Duration
	// MaxHistory is the most samples kept per dynamic frame, whatever
	// their age. Default 1000.
	MaxHistory int
}

// Stamped is the pose of Child in Parent at Stamp.
type Stamped struct {
	Parent, Child string
	Stamp         time.Time
	Transform     geom.Transform // T_parent_child
}

type sample struct {
	at time.Time
	t  geom.Transform
}

// frame is one child frame: its parent and how to find T_parent_child.
type frame struct {
	parent string
	static bool
	fixed  geom.Transform // when static
	hist   []sample       // when dynamic, sorted by time, oldest first
}

// Buffer stores the frame tree. Create it with New.
type Buffer struct {
	cfg    Config
	mu     sync.RWMutex
	frames map[string]*frame // by child name
	// parents counts children per parent name, so that a root frame (one
	// that is only ever a parent) is known too.
	parents map[string]int
}

// maxDepth bounds a walk up the tree; Set refuses loops, so this is only a
// guard against a corrupted tree.
const maxDepth = 10000

// New returns an empty buffer. It fails for a negative CacheTime or
// MaxHistory.
func New(cfg Config) (*Buffer, error) {
	if cfg.CacheTime < 0 || cfg.MaxHistory < 0 {
		return nil, fmt.Errorf("tf: new: negative cache time %v or history %d", cfg.CacheTime, cfg.MaxHistory)
	}
	if cfg.CacheTime == 0 {
		cfg.CacheTime = 10 * time.Second
	}
	if cfg.MaxHistory == 0 {
		cfg.MaxHistory = 1000
	}
	return &Buffer{cfg: cfg, frames: map[string]*frame{}, parents: map[string]int{}}, nil
}

// SetStatic records a transform that never changes: T_parent_child, valid
// at every time. It replaces anything known about child.
func (b *Buffer) SetStatic(parent, child string, t geom.Transform) error {
	if err := check(parent, child, t); err != nil {
		return fmt.Errorf("tf: set static %s -> %s: %w", parent, child, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := b.reparent(parent, child)
	if err != nil {
		return fmt.Errorf("tf: set static %s -> %s: %w", parent, child, err)
	}
	f.static, f.fixed, f.hist = true, t, f.hist[:0]
	return nil
}

// Set records a dynamic sample T_parent_child at s.Stamp. Samples may
// arrive out of order. If child had another parent or was static, its
// history restarts with this sample.
func (b *Buffer) Set(s Stamped) error {
	if err := check(s.Parent, s.Child, s.Transform); err != nil {
		return fmt.Errorf("tf: set %s -> %s: %w", s.Parent, s.Child, err)
	}
	if s.Stamp.IsZero() {
		return fmt.Errorf("tf: set %s -> %s: %w: zero stamp", s.Parent, s.Child, ErrBadTransform)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := b.reparent(s.Parent, s.Child)
	if err != nil {
		return fmt.Errorf("tf: set %s -> %s: %w", s.Parent, s.Child, err)
	}
	if f.static {
		f.static, f.hist = false, f.hist[:0]
	}
	b.insert(f, sample{at: s.Stamp, t: s.Transform})
	return nil
}

func check(parent, child string, t geom.Transform) error {
	if parent == "" || child == "" {
		return fmt.Errorf("%w: empty frame name", ErrBadTransform)
	}
	if parent == child {
		return fmt.Errorf("%w: frame is its own parent", ErrBadTransform)
	}
	if err := t.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrBadTransform, err)
	}
	return nil
}

// reparent returns the frame record of child with parent set, creating it
// if needed and refusing loops. The caller holds the write lock.
func (b *Buffer) reparent(parent, child string) (*frame, error) {
	f := b.frames[child]
	if f != nil && f.parent == parent {
		return f, nil
	}
	// Would child become its own ancestor?
	p := parent
	for range maxDepth {
		if p == child {
			return nil, ErrLoop
		}
		pf := b.frames[p]
		if pf == nil {
			break
		}
		p = pf.parent
	}
	if f == nil {
		f = &frame{}
		b.frames[child] = f
	} else {
		b.parents[f.parent]--
		if b.parents[f.parent] == 0 {
			delete(b.parents, f.parent)
		}
		f.hist = f.hist[:0]
	}
	f.parent = parent
	b.parents[parent]++
	return f, nil
}

// insert adds s in time order and trims the history by age and count.
func (b *Buffer) insert(f *frame, s sample) {
	i := sort.Search(len(f.hist), func(i int) bool { return !f.hist[i].at.Before(s.at) })
	switch {
	case i < len(f.hist) && f.hist[i].at.Equal(s.at):
		f.hist[i] = s // same stamp: the newer message wins
	default:
		f.hist = append(f.hist, sample{})
		copy(f.hist[i+1:], f.hist[i:])
		f.hist[i] = s
	}
	newest := f.hist[len(f.hist)-1].at
	drop := 0
	for drop < len(f.hist)-1 && newest.Sub(f.hist[drop].at) > b.cfg.CacheTime {
		drop++
	}
	if over := len(f.hist) - b.cfg.MaxHistory; over > drop {
		drop = over
	}
	if drop > 0 {
		n := copy(f.hist, f.hist[drop:])
		f.hist = f.hist[:n]
	}
}

// Frames returns the names of all known frames, sorted.
func (b *Buffer) Frames() []string {
	b.mu.RLock()
	defer b.mu.RUnlock()
	names := make([]string, 0, len(b.frames)+1)
	for n := range b.frames {
		names = append(names, n)
	}
	for n := range b.parents {
		if b.frames[n] == nil {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Parent returns the parent of frame, and false for a root or unknown
// frame.
func (b *Buffer) Parent(frame string) (string, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if f := b.frames[frame]; f != nil {
		return f.parent, true
	}
	return "", false
}
