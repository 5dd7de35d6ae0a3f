package raycast

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"
)

// node is one node of a bounding-volume hierarchy: a leaf when count > 0
// (prims[first:first+count]), else an inner node whose children are at
// first and first+1.
type node struct {
	min, max     r3.Vec
	first, count int32
}

// leafSize is the most primitives in a leaf.
const leafSize = 4

// stackDepth bounds traversal; a median split of up to 2^40 primitives
// stays below it.
const stackDepth = 64

// bvh is a hierarchy over prims plus the unbounded planes.
type bvh struct {
	prims  []prim
	nodes  []node
	planes []prim
	min    r3.Vec
	max    r3.Vec
}

func vmin(a, b r3.Vec) r3.Vec {
	return r3.Vec{X: math.Min(a.X, b.X), Y: math.Min(a.Y, b.Y), Z: math.Min(a.Z, b.Z)}
}

func vmax(a, b r3.Vec) r3.Vec {
	return r3.Vec{X: math.Max(a.X, b.X), Y: math.Max(a.Y, b.Y), Z: math.Max(a.Z, b.Z)}
}

func axis(v r3.Vec, a int) float64 {
	switch a {
	case 0:
		return v.X
	case 1:
		return v.Y
	}
	return v.Z
}

// build sorts prims into a hierarchy, splitting each node where the
// surface area heuristic (binned into sahBins along each axis) says rays
// will test the fewest primitives.
func (b *bvh) build() {
	b.nodes = b.nodes[:0]
	if len(b.prims) == 0 {
		return
	}
	b.nodes = append(b.nodes, node{})
	b.split(0, 0, len(b.prims), 0)
	b.min, b.max = b.nodes[0].min, b.nodes[0].max
}

// sahBins is the number of candidate split planes per axis, plus one.
const sahBins = 16

// area is half the surface of a box (the constant factor cancels).
func area(mn, mx r3.Vec) float64 {
	e := r3.Sub(mx, mn)
	return e.X*e.Y + e.Y*e.Z + e.Z*e.X
}

func (b *bvh) split(ni, lo, hi, depth int) {
	mn, mx := b.prims[lo].min, b.prims[lo].max
	cmn, cmx := centre(&b.prims[lo]), centre(&b.prims[lo])
	for i := lo + 1; i < hi; i++ {
		mn, mx = vmin(mn, b.prims[i].min), vmax(mx, b.prims[i].max)
		c := centre(&b.prims[i])
		cmn, cmx = vmin(cmn, c), vmax(cmx, c)
	}
	b.nodes[ni].min, b.nodes[ni].max = mn, mx
	n := hi - lo
	// The traversal stack holds at most depth+1 entries: stop well short.
	if n <= leafSize || depth >= stackDepth-8 {
		b.nodes[ni].first, b.nodes[ni].count = int32(lo), int32(n)
		return
	}
	bestCost, bestAxis, bestBin := math.Inf(1), -1, 0
	for a := range 3 {
		c0, c1 := axis(cmn, a), axis(cmx, a)
		if c1-c0 <= 0 {
			continue
		}
		var cnt [sahBins]int
		var bmn, bmx [sahBins]r3.Vec
		for i := lo; i < hi; i++ {
			k := binOf(axis(centre(&b.prims[i]), a), c0, c1)
			if cnt[k] == 0 {
				bmn[k], bmx[k] = b.prims[i].min, b.prims[i].max
			} else {
				bmn[k], bmx[k] = vmin(bmn[k], b.prims[i].min), vmax(bmx[k], b.prims[i].max)
			}
			cnt[k]++
		}
		// Sweep from the right, then from the left.
		var rArea [sahBins]float64
		var rCnt [sahBins]int
		var amn, amx r3.Vec
		acc := 0
		for k := sahBins - 1; k > 0; k-- {
			if cnt[k] > 0 {
				if acc == 0 {
					amn, amx = bmn[k], bmx[k]
				} else {
					amn, amx = vmin(amn, bmn[k]), vmax(amx, bmx[k])
				}
				acc += cnt[k]
			}
			rCnt[k], rArea[k] = acc, area(amn, amx)
		}
		acc = 0
		for k := 0; k < sahBins-1; k++ {
			if cnt[k] > 0 {
				if acc == 0 {
					amn, amx = bmn[k], bmx[k]
				} else {
					amn, amx = vmin(amn, bmn[k]), vmax(amx, bmx[k])
				}
				acc += cnt[k]
			}
			if acc == 0 || rCnt[k+1] == 0 {
				continue
			}
			if cost := area(amn, amx)*float64(acc) + rArea[k+1]*float64(rCnt[k+1]); cost < bestCost {
				bestCost, bestAxis, bestBin = cost, a, k
			}
		}
	}
	mid := lo
	if bestAxis >= 0 {
		c0, c1 := axis(cmn, bestAxis), axis(cmx, bestAxis)
		for i := lo; i < hi; i++ {
			if binOf(axis(centre(&b.prims[i]), bestAxis), c0, c1) <= bestBin {
				b.prims[i], b.prims[mid] = b.prims[mid], b.prims[i]
				mid++
			}
		}
	}
	if mid == lo || mid == hi { // all centres in one bin: split by count
		part := b.prims[lo:hi]
		a := 0
		if e := r3.Sub(cmx, cmn); e.Y > e.X && e.Y >= e.Z {
			a = 1
		} else if e.Z > e.X && e.Z > e.Y {
			a = 2
		}
		sort.Slice(part, func(i, j int) bool { return axis(centre(&part[i]), a) < axis(centre(&part[j]), a) })
		mid = (lo + hi) / 2
	}
	left := len(b.nodes)
	b.nodes = append(b.nodes, node{}, node{})
	b.nodes[ni].first, b.nodes[ni].count = int32(left), 0
	b.split(left, lo, mid, depth+1)
	b.split(left+1, mid, hi, depth+1)
}

func binOf(c, c0, c1 float64) int {
	k := int(float64(sahBins) * (c - c0) / (c1 - c0))
	return min(max(k, 0), sahBins-1)
}

func centre(p *prim) r3.Vec { return r3.Scale(0.5, r3.Add(p.min, p.max)) }

// slab tests the ray (origin o, inverse direction inv) against a box and
// returns whether it enters it before tmax. An axis the ray is parallel to
// (inv infinite) only asks whether the origin lies within the box's extent
// on it: the plain formula would give 0*Inf = NaN for an origin on a face.
func slab(o, inv, mn, mx r3.Vec, tmax float64) bool {
	tn, tf := 0.0, tmax
	return slab1(o.X, inv.X, mn.X, mx.X, &tn, &tf) &&
		slab1(o.Y, inv.Y, mn.Y, mx.Y, &tn, &tf) &&
		slab1(o.Z, inv.Z, mn.Z, mx.Z, &tn, &tf)
}

func slab1(o, inv, mn, mx float64, tn, tf *float64) bool {
	if math.IsInf(inv, 0) {
		return o >= mn && o <= mx
	}
	t1, t2 := (mn-o)*inv, (mx-o)*inv
	if t1 > t2 {
		t1, t2 = t2, t1
	}
	if t1 > *tn {
		*tn = t1
	}
	if t2 < *tf {
		*tf = t2
	}
	return *tn <= *tf
}

// cast returns the nearest hit closer than tmax (index into prims or
// planes, with isPlane), its distance and normal in the hierarchy's frame.
func (b *bvh) cast(o, d r3.Vec, tmax float64) (hit *prim, t float64, n r3.Vec) {
	t = tmax
	for i := range b.planes {
		if tt, nn, ok := b.planes[i].intersect(o, d, t); ok {
			hit, t, n = &b.planes[i], tt, nn
		}
	}
	if len(b.nodes) == 0 {
		return hit, t, n
	}
	inv := r3.Vec{X: 1 / d.X, Y: 1 / d.Y, Z: 1 / d.Z}
	var stack [stackDepth]int32
	sp := 0
	stack[sp] = 0
	sp++
	for sp > 0 {
		sp--
		nd := &b.nodes[stack[sp]]
		if !slab(o, inv, nd.min, nd.max, t) {
			continue
		}
		if nd.count > 0 {
			for i := nd.first; i < nd.first+nd.count; i++ {
				if tt, nn, ok := b.prims[i].intersect(o, d, t); ok {
					hit, t, n = &b.prims[i], tt, nn
				}
			}
			continue
		}
		if sp+2 > stackDepth {
			continue // cannot happen with a median split; never overflow
		}
		// Visit the nearer child first so far ones are culled by t.
		l, r := nd.first, nd.first+1
		if axisNear(d, &b.nodes[l], &b.nodes[r]) {
			l, r = r, l
		}
		stack[sp], stack[sp+1] = r, l
		sp += 2
	}
	return hit, t, n
}

// axisNear reports whether node r lies before node l along d.
func axisNear(d r3.Vec, l, r *node) bool {
	cl, cr := r3.Add(l.min, l.max), r3.Add(r.min, r.max)
	return r3.Dot(r3.Sub(cr, cl), d) < 0
}
