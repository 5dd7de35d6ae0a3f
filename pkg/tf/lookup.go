package tf

import (
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
)

// Lookup returns T_target_source at time at: the pose of source in target,
// mapping source coordinates into target. A zero at means the latest time
// at which every dynamic transform on the path has a sample (static-only
// paths are valid at any time). Errors wrap ErrUnknownFrame,
// ErrNotConnected or ErrExtrapolation. Lookup allocates nothing on success.
func (b *Buffer) Lookup(target, source string, at time.Time) (geom.Transform, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, name := range [2]string{target, source} {
		if !b.known(name) {
			return geom.Transform{}, fmt.Errorf("tf: lookup %s -> %s: %w %q", target, source, ErrUnknownFrame, name)
		}
	}
	if target == source {
		return geom.Identity(), nil
	}
	common, ok := b.commonAncestor(target, source)
	if !ok {
		return geom.Transform{}, fmt.Errorf("tf: lookup %s -> %s: %w", target, source, ErrNotConnected)
	}
	if at.IsZero() {
		at = b.latestCommon(source, common, b.latestCommon(target, common, time.Time{}))
	}
	cs, err := b.toAncestor(source, common, at)
	if err != nil {
		return geom.Transform{}, fmt.Errorf("tf: lookup %s -> %s: %w", target, source, err)
	}
	ct, err := b.toAncestor(target, common, at)
	if err != nil {
		return geom.Transform{}, fmt.Errorf("tf: lookup %s -> %s: %w", target, source, err)
	}
	return ct.Inverse().Mul(cs), nil
}

// CanTransform reports whether Lookup(target, source, at) would succeed.
func (b *Buffer) CanTransform(target, source string, at time.Time) bool {
	_, err := b.Lookup(target, source, at)
	return err == nil
}

func (b *Buffer) known(name string) bool {
	return b.frames[name] != nil || b.parents[name] > 0
}

func (b *Buffer) depth(name string) int {
	d := 0
	for f := b.frames[name]; f != nil && d < maxDepth; f = b.frames[f.parent] {
		d++
	}
	return d
}

func (b *Buffer) parentOf(name string) string {
	if f := b.frames[name]; f != nil {
		return f.parent
	}
	return ""
}

// commonAncestor returns the deepest frame that is an ancestor of (or
// equal to) both a and b, walking without allocating.
func (b *Buffer) commonAncestor(x, y string) (string, bool) {
	dx, dy := b.depth(x), b.depth(y)
	for dx > dy {
		x, dx = b.parentOf(x), dx-1
	}
	for dy > dx {
		y, dy = b.parentOf(y), dy-1
	}
	for x != y {
		if dx == 0 {
			return "", false
		}
		x, y, dx = b.parentOf(x), b.parentOf(y), dx-1
	}
	return x, true
}

// latestCommon folds into t (zero: none yet) the newest sample time of
// every dynamic transform from name up to ancestor, keeping the earliest.
func (b *Buffer) latestCommon(name, ancestor string, t time.Time) time.Time {
	for name != ancestor {
		f := b.frames[name]
		if !f.static && len(f.hist) > 0 {
			if newest := f.hist[len(f.hist)-1].at; t.IsZero() || newest.Before(t) {
				t = newest
			}
		}
		name = f.parent
	}
	return t
}

// toAncestor returns T_ancestor_name at time at (zero: static-only path).
func (b *Buffer) toAncestor(name, ancestor string, at time.Time) (geom.Transform, error) {
	acc := geom.Identity()
	for name != ancestor {
		f := b.frames[name]
		t, err := f.at(at)
		if err != nil {
			return geom.Transform{}, fmt.Errorf("%s -> %s: %w", f.parent, name, err)
		}
		acc = t.Mul(acc)
		name = f.parent
	}
	return acc, nil
}

// at returns T_parent_child at time at, interpolating between samples.
func (f *frame) at(at time.Time) (geom.Transform, error) {
	if f.static {
		return f.fixed, nil
	}
	n := len(f.hist)
	if n == 0 {
		return geom.Transform{}, fmt.Errorf("%w: no samples", ErrExtrapolation)
	}
	first, last := f.hist[0].at, f.hist[n-1].at
	if at.Before(first) {
		return geom.Transform{}, fmt.Errorf("%w: %v is %v before the oldest sample", ErrExtrapolation, at.Format(time.RFC3339Nano), first.Sub(at))
	}
	if at.After(last) {
		return geom.Transform{}, fmt.Errorf("%w: %v is %v after the newest sample", ErrExtrapolation, at.Format(time.RFC3339Nano), at.Sub(last))
	}
	// Binary search for the first sample at or after at.
	lo, hi := 0, n-1
	for lo < hi {
		mid := (lo + hi) / 2
		if f.hist[mid].at.Before(at) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	s1 := f.hist[lo]
	if lo == 0 || s1.at.Equal(at) {
		return s1.t, nil
	}
	s0 := f.hist[lo-1]
	frac := float64(at.Sub(s0.at)) / float64(s1.at.Sub(s0.at))
	return geom.Interpolate(s0.t, s1.t, frac), nil
}
