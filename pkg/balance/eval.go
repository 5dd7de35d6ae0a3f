package balance

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/telebridge/telebridge/pkg/geom"
)

// Ground is the attitude of the ground under the robot [rad], REP 103:
// Pitch > 0 nose down, Roll > 0 left side up. Zero is flat ground.
type Ground struct {
	Pitch float64 `json:"pitch"`
	Roll  float64 `json:"roll"`
}

// Gravity returns the unit vector of gravity in the base frame.
func (g Ground) Gravity() r3.Vec {
	// R = Ry(pitch)·Rx(roll) carries base vectors to the world; gravity
	// in the base frame is Rᵀ·(0, 0, -1).
	sp, cp := math.Sincos(g.Pitch)
	sr, cr := math.Sincos(g.Roll)
	return r3.Vec{X: sp, Y: -cp * sr, Z: -cp * cr}
}

// Point is a point of the ground plane [m], base frame x and y.
type Point [2]float64

// Result is the balance at one instant. Make it with Model.NewResult and
// reuse it: Evaluate allocates nothing.
type Result struct {
	// Mass is the total mass [kg].
	Mass float64 `json:"mass"`
	// CoM is the centre of mass in the base frame [m].
	CoM r3.Vec `json:"com"`
	// Projection is where the line through the CoM along gravity meets
	// the ground plane, base frame [m] (its z is GroundZ).
	Projection r3.Vec `json:"projection"`
	// GroundZ is the height of the ground plane in the base frame [m].
	GroundZ float64 `json:"ground_z"`
	// Polygon is the support polygon in the ground plane, counter-
	// clockwise; edge i runs from Polygon[i] to Polygon[i+1] (the last
	// back to the first).
	Polygon []Point `json:"polygon"`
	// Margin is the signed distance [m] from Projection to the nearest
	// edge of the polygon: positive inside, negative outside.
	Margin float64 `json:"margin"`
	// Edge is the index of the nearest edge.
	Edge int `json:"edge"`
	// Tip is each edge's tip-over angle [rad]: how much more the ground
	// may tilt about that edge, its outside going down, before the CoM
	// passes over it (negative: it has).
	Tip []float64 `json:"tip"`
	// Assumed says which share of the mass is assumed ("" none).
	Assumed string `json:"assumed,omitempty"`

	tf  []geom.Transform
	pts []Point
}

// NewResult returns a Result with room for the model's evaluations.
func (m *Model) NewResult() *Result {
	n := len(m.contacts)
	return &Result{
		tf: make([]geom.Transform, len(m.nodes)), pts: make([]Point, 0, n),
		Polygon: make([]Point, 0, n+1), Tip: make([]float64, 0, n+1),
	}
}

// Evaluate computes the balance for joint positions q (indexed as
// Joints [rad or m]) on ground g into r. It allocates nothing. It fails
// when q has the wrong length or a non-finite value.
func (m *Model) Evaluate(q []float64, g Ground, r *Result) error {
	if len(q) != len(m.joints) {
		return fmt.Errorf("balance: %d joint positions for %d joints", len(q), len(m.joints))
	}
	for i, v := range q {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("balance: joint %q position %v", m.joints[i], v)
		}
	}
	if math.Abs(g.Pitch) >= math.Pi/2 || math.Abs(g.Roll) >= math.Pi/2 || math.IsNaN(g.Pitch) || math.IsNaN(g.Roll) {
		return fmt.Errorf("balance: ground pitch %v, roll %v rad: within ±π/2", g.Pitch, g.Roll)
	}
	if cap(r.tf) < len(m.nodes) || cap(r.pts) < len(m.contacts) {
		*r = *m.NewResult()
	}
	tf := m.forward(q, r.tf[:len(m.nodes)])
	var c r3.Vec
	for _, mp := range m.masses {
		c = r3.Add(c, r3.Scale(mp.mass, tf[mp.node].Apply(mp.at)))
	}
	c = r3.Scale(1/m.total, c)
	r.Mass, r.CoM, r.GroundZ, r.Assumed = m.total, c, m.groundZ, m.assumed
	grav := g.Gravity()
	t := (m.groundZ - c.Z) / grav.Z // grav.Z < 0 within ±π/2
	r.Projection = r3.Add(c, r3.Scale(t, grav))

	pts := r.pts[:0]
	for _, cp := range m.contacts {
		p := tf[cp.node].Apply(cp.at)
		if p.Z <= m.groundZ+m.tol {
			pts = append(pts, Point{p.X, p.Y})
		}
	}
	r.pts = pts
	r.Polygon = hull(pts, r.Polygon[:0])
	r.Margin, r.Edge = margin(r.Polygon, Point{r.Projection.X, r.Projection.Y})
	r.Tip = r.Tip[:0]
	h := c.Z - m.groundZ
	for i := range r.Polygon {
		a, b := r.Polygon[i], r.Polygon[(i+1)%len(r.Polygon)]
		ex, ey := b[0]-a[0], b[1]-a[1]
		l := math.Hypot(ex, ey)
		if l == 0 {
			r.Tip = append(r.Tip, math.NaN())
			continue
		}
		// Inward distance of the CoM's normal projection; outward normal.
		d := (ex*(c.Y-a[1]) - ey*(c.X-a[0])) / l
		nx, ny := ey/l, -ex/l
		out := grav.X*nx + grav.Y*ny
		r.Tip = append(r.Tip, math.Atan2(d, h)-math.Atan2(out, -grav.Z))
	}
	return nil
}

func lessPoint(a, b Point) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return cmp.Compare(a[1], b[1])
}

func cross(o, a, b Point) float64 {
	return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0])
}

// hull appends the convex hull of pts (sorted in place), counter-
// clockwise without collinear points, to out (Andrew's monotone chain).
func hull(pts []Point, out []Point) []Point {
	slices.SortFunc(pts, lessPoint)
	pts = slices.Compact(pts)
	if len(pts) < 3 {
		return append(out, pts...)
	}
	start := len(out)
	for _, p := range pts { // lower chain
		for len(out)-start >= 2 && cross(out[len(out)-2], out[len(out)-1], p) <= 0 {
			out = out[:len(out)-1]
		}
		out = append(out, p)
	}
	lower := len(out)
	for i := len(pts) - 2; i >= 0; i-- { // upper chain
		p := pts[i]
		for len(out)-lower >= 1 && cross(out[len(out)-2], out[len(out)-1], p) <= 0 {
			out = out[:len(out)-1]
		}
		out = append(out, p)
	}
	return out[:len(out)-1] // the last is the first
}

// margin returns the signed distance from p to the boundary of the
// counter-clockwise convex polygon poly (positive inside) and the index
// of the nearest edge. A polygon of one or two points has no inside.
func margin(poly []Point, p Point) (float64, int) {
	if len(poly) == 0 {
		return math.Inf(-1), -1
	}
	if len(poly) == 1 {
		return -math.Hypot(p[0]-poly[0][0], p[1]-poly[0][1]), 0
	}
	inside := len(poly) >= 3
	best, edge := math.Inf(1), 0
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		if cross(a, b, p) < 0 {
			inside = false
		}
		if d := segmentDistance(a, b, p); d < best {
			best, edge = d, i
		}
	}
	if !inside {
		return -best, edge
	}
	return best, edge
}

func segmentDistance(a, b, p Point) float64 {
	ex, ey := b[0]-a[0], b[1]-a[1]
	l2 := ex*ex + ey*ey
	t := 0.0
	if l2 > 0 {
		t = math.Max(0, math.Min(1, ((p[0]-a[0])*ex+(p[1]-a[1])*ey)/l2))
	}
	return math.Hypot(p[0]-a[0]-t*ex, p[1]-a[1]-t*ey)
}
