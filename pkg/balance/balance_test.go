package balance_test

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/balance"
)

// boxURDF is a 0.4 x 0.2 x 0.1 m box of 10 kg standing on the ground
// (its centre 0.05 m above base, which is on the ground), and a 10 kg
// point mass "load" at (lx, ly, 0.05) on a fixed joint.
func boxURDF(loadMass, lx, ly float64) string {
	load := ""
	if loadMass > 0 {
		load = `<link name="load"><inertial><mass value="` + ftoa(loadMass) + `"/></inertial></link>
		<joint name="load_joint" type="fixed"><parent link="base"/><child link="load"/>
		<origin xyz="` + ftoa(lx) + ` ` + ftoa(ly) + ` 0.05"/></joint>`
	}
	return `<robot name="box"><link name="base"/>
	<link name="body">
	  <collision><geometry><box size="0.4 0.2 0.1"/></geometry></collision>
	  <inertial><mass value="10"/></inertial>
	</link>
	<joint name="body_joint" type="fixed"><parent link="base"/><child link="body"/><origin xyz="0 0 0.05"/></joint>
	` + load + `</robot>`
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func boxModel(t testing.TB, loadMass, lx, ly float64) *balance.Model {
	t.Helper()
	m, err := balance.New(strings.NewReader(boxURDF(loadMass, lx, ly)), balance.Params{ContactLinks: []string{"body"}, GroundLink: "base"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const tol = 1e-9

// TestHandComputed checks the model against cases computed by hand.
func TestHandComputed(t *testing.T) {
	for _, tc := range []struct {
		name             string
		load, lx, ly     float64
		ground           balance.Ground
		com              [3]float64 // [m]
		margin           float64    // [m]
		front, left, rgt float64    // tip-over angles [rad] of the edges x = 0.2, y = 0.1, y = -0.1
	}{
		// The box alone: CoM at its centre 0.05 m up; the nearest edges
		// are the sides, 0.1 m away; tipping about the front edge takes
		// atan(0.2/0.05), about a side atan(0.1/0.05).
		{name: "box on its rectangle", com: [3]float64{0, 0, 0.05}, margin: 0.1,
			front: math.Atan2(0.2, 0.05), left: math.Atan2(0.1, 0.05), rgt: math.Atan2(0.1, 0.05)},
		// 10 kg more at y = 0.08: CoM y = 10*0.08/20 = 0.04, so the left
		// edge is 0.1 - 0.04 = 0.06 m away, the right 0.14 m.
		{name: "point mass offset left", load: 10, ly: 0.08, com: [3]float64{0, 0.04, 0.05}, margin: 0.06,
			front: math.Atan2(0.2, 0.05), left: math.Atan2(0.06, 0.05), rgt: math.Atan2(0.14, 0.05)},
		// 10 kg at x = 0.3, beyond the front edge: CoM x = 0.15, which is
		// 0.05 m behind the front edge (nearest: sides are 0.1 away).
		{name: "point mass ahead", load: 10, lx: 0.3, com: [3]float64{0.15, 0, 0.05}, margin: 0.05,
			front: math.Atan2(0.05, 0.05), left: math.Atan2(0.1, 0.05), rgt: math.Atan2(0.1, 0.05)},
		// Roll atan(2) (left side up): the projection along gravity moves
		// right by 0.05 * tan(roll) = 0.1, exactly onto the right edge.
		{name: "roll onto the right edge", ground: balance.Ground{Roll: math.Atan(2)}, com: [3]float64{0, 0, 0.05}, margin: 0,
			front: math.Atan2(0.2, 0.05), left: math.Atan2(0.1, 0.05) + math.Atan(2), rgt: 0},
		// Pitch atan(4) (nose down): 0.05 * 4 = 0.2 forward, onto the
		// front edge.
		{name: "pitch onto the front edge", ground: balance.Ground{Pitch: math.Atan(4)}, com: [3]float64{0, 0, 0.05}, margin: 0,
			front: 0, left: math.Atan2(0.1, 0.05), rgt: math.Atan2(0.1, 0.05)},
		// Pitch 45° nose down: 0.05 m forward; plus the load ahead (CoM x
		// 0.15): 0.2, the edge again.
		{name: "load ahead and a 45° slope", load: 10, lx: 0.3, ground: balance.Ground{Pitch: math.Pi / 4}, com: [3]float64{0.15, 0, 0.05}, margin: 0,
			front: 0, left: math.Atan2(0.1, 0.05), rgt: math.Atan2(0.1, 0.05)},
		// Pitch 60° nose down with the load ahead: the projection is at
		// 0.15 + 0.05 * tan 60° = 0.2366, 0.0366 m beyond the front edge.
		{name: "beyond the front edge", load: 10, lx: 0.3, ground: balance.Ground{Pitch: math.Pi / 3}, com: [3]float64{0.15, 0, 0.05}, margin: 0.2 - 0.15 - 0.05*math.Sqrt(3),
			front: math.Pi/4 - math.Pi/3, left: math.Atan2(0.1, 0.05), rgt: math.Atan2(0.1, 0.05)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := boxModel(t, tc.load, tc.lx, tc.ly)
			r := m.NewResult()
			if err := m.Evaluate(nil, tc.ground, r); err != nil {
				t.Fatal(err)
			}
			got := [3]float64{r.CoM.X, r.CoM.Y, r.CoM.Z}
			for i := range got {
				if math.Abs(got[i]-tc.com[i]) > tol {
					t.Fatalf("CoM %v, want %v", got, tc.com)
				}
			}
			if math.Abs(r.Margin-tc.margin) > tol {
				t.Errorf("margin %.12f m, want %.12f", r.Margin, tc.margin)
			}
			if len(r.Polygon) != 4 {
				t.Fatalf("polygon %v, want the 4 corners of the box", r.Polygon)
			}
			for _, e := range []struct {
				name string
				want float64
				on   func(a, b balance.Point) bool
			}{
				{"front", tc.front, func(a, b balance.Point) bool { return near(a[0], 0.2) && near(b[0], 0.2) }},
				{"left", tc.left, func(a, b balance.Point) bool { return near(a[1], 0.1) && near(b[1], 0.1) }},
				{"right", tc.rgt, func(a, b balance.Point) bool { return near(a[1], -0.1) && near(b[1], -0.1) }},
			} {
				found := false
				for i := range r.Polygon {
					if e.on(r.Polygon[i], r.Polygon[(i+1)%4]) {
						found = true
						if math.Abs(r.Tip[i]-e.want) > tol {
							t.Errorf("%s edge tip-over angle %.9f rad, want %.9f", e.name, r.Tip[i], e.want)
						}
					}
				}
				if !found {
					t.Errorf("no %s edge in %v", e.name, r.Polygon)
				}
			}
			if r.Assumed != "" {
				t.Errorf("assumed %q for masses no comment calls assumed", r.Assumed)
			}
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func servosila(t testing.TB) *balance.Model {
	t.Helper()
	f, err := os.Open("../../launch/urdf/servosila_engineer.urdf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := balance.New(f, balance.ServosilaParams())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// joints returns positions for the Servosila's joints from name -> rad.
func joints(t testing.TB, m *balance.Model, set map[string]float64) []float64 {
	q := make([]float64, len(m.Joints()))
	for n, v := range set {
		i := m.Joint(n)
		if i < 0 {
			t.Fatalf("no joint %q", n)
		}
		q[i] = v
	}
	return q
}

// TestServosila checks the Servosila's description: the CoM summed by
// hand from its inertials at zero joints (arm stretched forward), the
// track footprint, and what the arm and flippers do to the margin.
func TestServosila(t *testing.T) {
	m := servosila(t)
	// Masses [kg] and CoM x [m] at zero joints, from the URDF: chassis 28
	// at 0, tracks 2 x 3 at 0, flipper axle 0.5 at 0.1618, flippers 2 x 1
	// at 0.3118, laser 0.21 at 0.19, turret 2 at 0, upper arm 2 at 0.2,
	// forearm 1.5 at 0.575, head 1.5 at 0.81, cameras 3 x 0.05 at 0.87 and
	// 0.05 at 0.75, gripper base 0.4 at 0.92, jaw 0.15 at 0.94:
	// 44.46 kg, Σ m·x = 3.8989 kg m.
	const mass, comX = 44.46, 3.8989 / 44.46
	// Σ m·z = 28·0.03 + 0.21·0.1435 + 2·0.14 + (2 + 1.5 + 1.5)·0.18 +
	// 0.05·(0.21 + 0.17 + 0.17 + 0.21) + (0.4 + 0.15)·0.11 = 2.148635.
	const comZ = 2.148635 / 44.46
	// Tracks: 0.4837 m long, outer sides at ±(0.22 + 0.05): the flippers
	// at zero hang 0.03 m above the ground and do not count.
	const front, side = 0.4837 / 2, 0.27
	r := m.NewResult()
	if err := m.Evaluate(joints(t, m, nil), balance.Ground{}, r); err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Mass-mass) > 1e-9 || math.Abs(r.CoM.X-comX) > 1e-9 || math.Abs(r.CoM.Z-comZ) > 1e-9 {
		t.Fatalf("mass %.4f kg, CoM %+v; want %.2f kg at x %.6f z %.6f", r.Mass, r.CoM, mass, comX, comZ)
	}
	if len(r.Polygon) != 4 {
		t.Fatalf("polygon %v: want the tracks' rectangle", r.Polygon)
	}
	for _, p := range r.Polygon {
		if !near(math.Abs(p[0]), front) || !near(math.Abs(p[1]), side) {
			t.Fatalf("polygon %v: want x ±%.5f, y ±%.2f", r.Polygon, front, side)
		}
	}
	if want := front - comX; math.Abs(r.Margin-want) > 1e-9 {
		t.Errorf("margin %.6f m, want the front edge's %.6f", r.Margin, want)
	}
	if !strings.Contains(r.Assumed, "100%") {
		t.Errorf("assumed %q: every mass of the Servosila's URDF is assumed", r.Assumed)
	}

	// The arm stretched forward (zero) brings the CoM nearer the front
	// edge than the arm raised (shoulder up 90°).
	up := m.NewResult()
	if err := m.Evaluate(joints(t, m, map[string]float64{"shoulder": math.Pi / 2, "elbow": -math.Pi / 2}), balance.Ground{}, up); err != nil {
		t.Fatal(err)
	}
	if !(up.Margin > r.Margin+0.02) {
		t.Errorf("arm raised: margin %.4f m; stretched forward %.4f m: stretching should lower it", up.Margin, r.Margin)
	}
	// Waist turned 90° left: the arm over the left track; the CoM moves
	// left, the nearest edge is the left side.
	left := m.NewResult()
	if err := m.Evaluate(joints(t, m, map[string]float64{"waist": math.Pi / 2}), balance.Ground{}, left); err != nil {
		t.Fatal(err)
	}
	if !(left.CoM.Y > 0.05) || !(left.Margin < side-0.05) {
		t.Errorf("waist left: CoM %+v, margin %.4f", left.CoM, left.Margin)
	}
	// Flippers lowered 0.5 rad: their tips reach the ground ahead of the
	// tracks and move the front edge forward.
	fl := m.NewResult()
	if err := m.Evaluate(joints(t, m, map[string]float64{"flippers": -0.5}), balance.Ground{}, fl); err != nil {
		t.Fatal(err)
	}
	maxX := 0.0
	for _, p := range fl.Polygon {
		maxX = math.Max(maxX, p[0])
	}
	if !(maxX > front+0.1) || !(fl.Margin > r.Margin) {
		t.Errorf("flippers down: polygon %v, margin %.4f (tracks only %.4f)", fl.Polygon, fl.Margin, r.Margin)
	}
	// A nose-down slope of the tip-over angle of the front edge puts the
	// CoM on it.
	tip := r.Tip[r.Edge]
	on := m.NewResult()
	if err := m.Evaluate(joints(t, m, nil), balance.Ground{Pitch: tip}, on); err != nil {
		t.Fatal(err)
	}
	if math.Abs(on.Margin) > 1e-9 {
		t.Errorf("pitch %.4f rad (the front tip-over angle): margin %.12f, want 0", tip, on.Margin)
	}
}

func TestErrors(t *testing.T) {
	m := boxModel(t, 0, 0, 0)
	r := m.NewResult()
	if err := m.Evaluate([]float64{1}, balance.Ground{}, r); err == nil {
		t.Error("positions for joints the model has not: no error")
	}
	if err := m.Evaluate(nil, balance.Ground{Pitch: math.Pi / 2}, r); err == nil {
		t.Error("vertical ground: no error")
	}
	disconnected := strings.Replace(boxURDF(0, 0, 0), "</robot>", `<link name="loose"><inertial><mass value="5"/></inertial></link></robot>`, 1)
	if _, err := balance.New(strings.NewReader(disconnected), balance.Params{ContactLinks: []string{"body"}}); err == nil {
		t.Error("a link not connected to the root: no error")
	}
	for _, p := range []balance.Params{{}, {ContactLinks: []string{"nope"}}, {ContactLinks: []string{"base"}}, {ContactLinks: []string{"body"}, GroundLink: "nope"}} {
		if _, err := balance.New(strings.NewReader(boxURDF(0, 0, 0)), p); err == nil {
			t.Errorf("params %+v: no error", p)
		}
	}
}

// BenchmarkEvaluate is one evaluation of the Servosila: it allocates
// nothing.
func BenchmarkEvaluate(b *testing.B) {
	m := servosila(b)
	r := m.NewResult()
	q := joints(b, m, map[string]float64{"waist": 0.3, "shoulder": 0.4, "flippers": -0.3})
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Evaluate(q, balance.Ground{Pitch: 0.1, Roll: -0.05}, r); err != nil {
			b.Fatal(err)
		}
	}
}

func TestEvaluateAllocatesNothing(t *testing.T) {
	m := servosila(t)
	r := m.NewResult()
	q := joints(t, m, map[string]float64{"waist": 0.3, "flippers": -0.3})
	if n := testing.AllocsPerRun(100, func() { _ = m.Evaluate(q, balance.Ground{Pitch: 0.1}, r) }); n != 0 {
		t.Errorf("%v allocations per evaluation, want 0", n)
	}
}
