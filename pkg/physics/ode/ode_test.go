package ode_test

import (
	"errors"
	"math"
	"os"
	"sync"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/telebridge/telebridge/pkg/physics/ode"
)

// lib loads ODE or skips the test with the one-line reason (CI installs
// libode-dev through scripts/debian-packages.sh, so it runs there).
func lib(t testing.TB) *ode.Lib {
	t.Helper()
	l, err := ode.Load()
	if errors.Is(err, ode.ErrMissing) && os.Getenv("TELEBRIDGE_PHYSICS_TESTS") != "required" {
		t.Skipf("no ODE here (TELEBRIDGE_PHYSICS_TESTS=required makes this a failure): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLayout checks the Go structs against offsetof/sizeof printed by a C
// program compiled against /usr/include/ode of libode-dev 0.16.2 (double).
func TestLayout(t *testing.T) {
	var s ode.SurfaceParameters
	var g ode.ContactGeom
	var c ode.Contact
	for _, tc := range []struct {
		name      string
		got, want uintptr
	}{
		{"sizeof dSurfaceParameters", unsafe.Sizeof(s), 120},
		{"sizeof dContactGeom", unsafe.Sizeof(g), 96},
		{"sizeof dContact", unsafe.Sizeof(c), 248},
		{"sizeof dMass", unsafe.Sizeof(ode.Mass{}), 136},
		{"sizeof dJointFeedback", unsafe.Sizeof(ode.Feedback{}), 128},
		{"mu", unsafe.Offsetof(s.Mu), 8},
		{"mu2", unsafe.Offsetof(s.Mu2), 16},
		{"rho", unsafe.Offsetof(s.Rho), 24},
		{"bounce", unsafe.Offsetof(s.Bounce), 48},
		{"bounce_vel", unsafe.Offsetof(s.BounceVel), 56},
		{"soft_erp", unsafe.Offsetof(s.SoftERP), 64},
		{"soft_cfm", unsafe.Offsetof(s.SoftCFM), 72},
		{"motion1", unsafe.Offsetof(s.Motion1), 80},
		{"motion2", unsafe.Offsetof(s.Motion2), 88},
		{"motionN", unsafe.Offsetof(s.MotionN), 96},
		{"slip1", unsafe.Offsetof(s.Slip1), 104},
		{"slip2", unsafe.Offsetof(s.Slip2), 112},
		{"normal", unsafe.Offsetof(g.Normal), 32},
		{"depth", unsafe.Offsetof(g.Depth), 64},
		{"g1", unsafe.Offsetof(g.G1), 72},
		{"g2", unsafe.Offsetof(g.G2), 80},
		{"side1", unsafe.Offsetof(g.Side1), 88},
		{"side2", unsafe.Offsetof(g.Side2), 92},
		{"geom", unsafe.Offsetof(c.Geom), 120},
		{"fdir1", unsafe.Offsetof(c.FDir1), 216},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %d, C says %d", tc.name, tc.got, tc.want)
		}
	}
}

func TestLoadChecksPrecision(t *testing.T) {
	l := lib(t)
	l2, err := ode.Load()
	if err != nil || l2 != l {
		t.Fatalf("second Load = %p, %v; want the same library", l2, err)
	}
	t.Logf("configuration: %s", l.Config)
}

// scene is a minimal world for the binding tests: one space, a plane at
// z = 0 and a contact callback with a fixed surface.
type scene struct {
	l       *ode.Lib
	w       ode.World
	s       ode.Space
	g       ode.JointGroup
	surface ode.SurfaceParameters
	buf     [8]ode.ContactGeom
	c       ode.Contact
}

var (
	cbOnce  sync.Once
	cb      uintptr
	current *scene // the scene being stepped (tests run one at a time)
)

func near(_, a, b uintptr) {
	sc := current
	ga, gb := ode.Geom(a), ode.Geom(b)
	n := sc.l.Collide(ga, gb, sc.buf[:])
	for i := 0; i < n; i++ {
		sc.c = ode.Contact{Surface: sc.surface, Geom: sc.buf[i]}
		j := sc.l.JointCreateContact(sc.w, sc.g, &sc.c)
		sc.l.JointAttach(j, sc.l.GeomBody(ga), sc.l.GeomBody(gb))
	}
}

func newScene(t testing.TB, mu float64) *scene {
	l := lib(t)
	cbOnce.Do(func() { cb = purego.NewCallback(near) })
	sc := &scene{l: l, w: l.WorldCreate(), s: l.SimpleSpaceCreate(0), g: l.JointGroupCreate()}
	sc.surface = ode.SurfaceParameters{Mu: mu}
	l.WorldSetGravity(sc.w, 0, 0, -9.81)
	l.CreatePlane(sc.s, 0, 0, 1, 0)
	t.Cleanup(func() {
		l.JointGroupDestroy(sc.g)
		l.SpaceDestroy(sc.s)
		l.WorldDestroy(sc.w)
	})
	return sc
}

func (sc *scene) step(dt float64) {
	current = sc
	sc.l.SpaceCollide(sc.s, 0, cb)
	sc.l.WorldQuickStep(sc.w, dt)
	sc.l.JointGroupEmpty(sc.g)
}

func (sc *scene) body(mass float64, geom ode.Geom, i11, i22, i33 float64) ode.Body {
	b := sc.l.BodyCreate(sc.w)
	var m ode.Mass
	sc.l.MassSetParameters(&m, mass, 0, 0, 0, i11, i22, i33, 0, 0, 0)
	sc.l.BodySetMass(b, &m)
	sc.l.GeomSetBody(geom, b)
	return b
}

// A ball dropped on the plane comes to rest with its centre at its radius
// (within ODE's default contact softness).
func TestBallRestsAtRadius(t *testing.T) {
	sc := newScene(t, 1)
	const r = 0.1
	b := sc.body(1, sc.l.CreateSphere(sc.s, r), 0.004, 0.004, 0.004)
	sc.l.BodySetPosition(b, 0, 0, 0.5)
	for range 2000 {
		sc.step(0.001)
	}
	p := sc.l.BodyPosition(b)
	if math.Abs(p[2]-r) > 2e-3 || math.Abs(p[0]) > 1e-9 || math.Abs(p[1]) > 1e-9 {
		t.Fatalf("ball at %v after 2 s, want (0, 0, %g) +- 2 mm", p, r)
	}
	if v := sc.l.BodyLinearVel(b); math.Abs(v[2]) > 1e-3 {
		t.Fatalf("ball still moving at %v m/s", v)
	}
}

// A box launched along x at v0 on a plane with friction mu stops after
// v0^2 / (2 mu g) (Coulomb friction; mass cancels).
func TestBoxSlidesAsCoulombSays(t *testing.T) {
	for _, mu := range []float64{0.2, 0.5} {
		sc := newScene(t, mu)
		sc.surface.Mode = ode.ContactApprox1 // friction scales with the normal force
		b := sc.body(2, sc.l.CreateBox(sc.s, 0.2, 0.2, 0.1), 0.008, 0.008, 0.013)
		sc.l.BodySetPosition(b, 0, 0, 0.05)
		for range 200 { // settle
			sc.step(0.001)
		}
		const v0 = 2.0
		sc.l.BodySetLinearVel(b, v0, 0, 0)
		for range 3000 {
			sc.step(0.001)
		}
		want := v0 * v0 / (2 * mu * 9.81)
		got := sc.l.BodyPosition(b)[0]
		if math.Abs(got-want) > 0.02*want {
			t.Errorf("mu %g: box slid %.4f m, Coulomb says %.4f m", mu, got, want)
		}
		if v := sc.l.BodyLinearVel(b); math.Hypot(v[0], v[1]) > 1e-3 {
			t.Errorf("mu %g: box still sliding at %v m/s", mu, v)
		}
	}
}

func BenchmarkBallStep(b *testing.B) {
	sc := newScene(b, 1)
	bd := sc.body(1, sc.l.CreateSphere(sc.s, 0.1), 0.004, 0.004, 0.004)
	sc.l.BodySetPosition(bd, 0, 0, 0.1)
	b.ReportAllocs()
	for b.Loop() {
		sc.step(0.001)
	}
}

func BenchmarkBodyPosition(b *testing.B) {
	sc := newScene(b, 1)
	bd := sc.body(1, sc.l.CreateSphere(sc.s, 0.1), 0.004, 0.004, 0.004)
	b.ReportAllocs()
	for b.Loop() {
		sc.l.BodyPosition(bd)
	}
}

func BenchmarkHingeParam(b *testing.B) {
	sc := newScene(b, 1)
	j := sc.l.JointCreateHinge(sc.w)
	b.ReportAllocs()
	for b.Loop() {
		sc.l.JointSetHingeParam(j, ode.ParamVel, 1)
	}
}
