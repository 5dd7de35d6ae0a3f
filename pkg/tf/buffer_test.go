package tf

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/geom"
	"gonum.org/v1/gonum/spatial/r3"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func mustNew(t testing.TB) *Buffer {
	t.Helper()
	b, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func assertPose(t *testing.T, name string, got geom.Transform, want geom.Transform) {
	t.Helper()
	if d, r := geom.Distance(got, want); d > 1e-9 || r > 1e-9 {
		t.Errorf("%s: got %v, want %v", name, got, want)
	}
}

// tree builds
//
//	base -> A (static, x+1)
//	A -> B (static, rotated 90 deg about z, then z+2)
//	base -> arm (dynamic: x from 0 at t0 to 1 at t0+1s, yaw 0 -> 90 deg)
//	arm -> tool (static, x+0.5)
//	other -> lonely (a separate tree)
func tree(t *testing.T) *Buffer {
	t.Helper()
	b := mustNew(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.SetStatic("base", "A", geom.Translation(1, 0, 0)))
	must(b.SetStatic("A", "B", geom.FromXYZEuler(0, 0, 2, math.Pi/2, 0, 0)))
	must(b.Set(Stamped{Parent: "base", Child: "arm", Stamp: t0, Transform: geom.Identity()}))
	must(b.Set(Stamped{Parent: "base", Child: "arm", Stamp: t0.Add(time.Second), Transform: geom.FromXYZEuler(1, 0, 0, math.Pi/2, 0, 0)}))
	must(b.SetStatic("arm", "tool", geom.Translation(0.5, 0, 0)))
	must(b.SetStatic("other", "lonely", geom.Identity()))
	return b
}

func TestLookup(t *testing.T) {
	b := tree(t)
	half := t0.Add(500 * time.Millisecond)
	for _, tc := range []struct {
		name           string
		target, source string
		at             time.Time
		want           geom.Transform
	}{
		{"same frame", "A", "A", t0, geom.Identity()},
		{"root frame to itself", "base", "base", time.Time{}, geom.Identity()},
		{"parent to child", "base", "A", t0, geom.Translation(1, 0, 0)},
		{"child to parent", "A", "base", t0, geom.Translation(-1, 0, 0)},
		{"two static hops", "base", "B", time.Time{}, geom.FromXYZEuler(1, 0, 2, math.Pi/2, 0, 0)},
		{"inverse of two hops", "B", "base", t0, geom.FromXYZEuler(1, 0, 2, math.Pi/2, 0, 0).Inverse()},
		{"dynamic at first sample", "base", "tool", t0, geom.Translation(0.5, 0, 0)},
		// At the end arm is at x=1 yawed 90 deg, so tool's 0.5 m is along y.
		{"dynamic at last sample", "base", "tool", t0.Add(time.Second), geom.FromXYZEuler(1, 0.5, 0, math.Pi/2, 0, 0)},
		// Halfway: x=0.5, yaw 45 deg (slerp), tool 0.5 m along the 45 deg line.
		{"interpolated", "base", "tool", half, geom.FromXYZEuler(0.5+0.5*math.Sqrt2/2, 0.5*math.Sqrt2/2, 0, math.Pi/4, 0, 0)},
		{"latest common time", "base", "tool", time.Time{}, geom.FromXYZEuler(1, 0.5, 0, math.Pi/2, 0, 0)},
		{"across branches", "A", "tool", t0, geom.Translation(-0.5, 0, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := b.Lookup(tc.target, tc.source, tc.at)
			if err != nil {
				t.Fatal(err)
			}
			assertPose(t, tc.name, got, tc.want)
		})
	}
}

func TestLookupErrors(t *testing.T) {
	b := tree(t)
	for _, tc := range []struct {
		name           string
		target, source string
		at             time.Time
		want           error
	}{
		{"unknown source", "base", "nowhere", t0, ErrUnknownFrame},
		{"unknown target", "nowhere", "A", t0, ErrUnknownFrame},
		{"unknown same frame", "nowhere", "nowhere", t0, ErrUnknownFrame},
		{"disconnected", "base", "lonely", t0, ErrNotConnected},
		{"before history", "base", "tool", t0.Add(-time.Millisecond), ErrExtrapolation},
		{"after history", "A", "tool", t0.Add(time.Second + time.Nanosecond), ErrExtrapolation},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.Lookup(tc.target, tc.source, tc.at)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if b.CanTransform(tc.target, tc.source, tc.at) {
				t.Fatal("CanTransform true")
			}
		})
	}
}

func TestSetErrors(t *testing.T) {
	b := tree(t)
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"loop", b.SetStatic("tool", "base", geom.Identity()), ErrLoop},
		{"self", b.SetStatic("A", "A", geom.Identity()), ErrBadTransform},
		{"empty", b.SetStatic("", "x", geom.Identity()), ErrBadTransform},
		{"nan", b.SetStatic("base", "x", geom.Translation(math.NaN(), 0, 0)), ErrBadTransform},
		{"zero quaternion", b.SetStatic("base", "x", geom.Transform{}), ErrBadTransform},
		{"zero stamp", b.Set(Stamped{Parent: "base", Child: "y", Transform: geom.Identity()}), ErrBadTransform},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	// The failed loop left the tree as it was.
	if _, err := b.Lookup("base", "tool", t0); err != nil {
		t.Fatal(err)
	}
}

func TestReparentAndFrames(t *testing.T) {
	b := tree(t)
	if err := b.SetStatic("other", "A", geom.Identity()); err != nil {
		t.Fatal(err)
	}
	if p, _ := b.Parent("A"); p != "other" {
		t.Fatalf("parent of A = %q", p)
	}
	if _, err := b.Lookup("base", "B", t0); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("after reparent: %v", err)
	}
	got := fmt.Sprint(b.Frames())
	if want := "[A B arm base lonely other tool]"; got != want {
		t.Fatalf("Frames() = %s, want %s", got, want)
	}
}

func TestBoundedHistory(t *testing.T) {
	b, err := New(Config{CacheTime: time.Second, MaxHistory: 5})
	if err != nil {
		t.Fatal(err)
	}
	// 100 samples 10 ms apart, in reverse order to exercise sorted insert.
	for i := 99; i >= 0; i-- {
		if err := b.Set(Stamped{Parent: "w", Child: "c", Stamp: t0.Add(time.Duration(i) * 10 * time.Millisecond), Transform: geom.Translation(float64(i), 0, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(b.frames["c"].hist); n > 5 {
		t.Fatalf("%d samples kept, want at most 5", n)
	}
	// The count bound drops the oldest: 95..99 remain.
	if _, err := b.Lookup("w", "c", t0.Add(940*time.Millisecond)); !errors.Is(err, ErrExtrapolation) {
		t.Fatalf("sample 94 still there: %v", err)
	}
	got, err := b.Lookup("w", "c", t0.Add(965*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	assertPose(t, "interpolated", got, geom.Translation(96.5, 0, 0))

	// Age bound: samples more than CacheTime older than the newest go.
	b2, _ := New(Config{CacheTime: time.Second})
	for i := range 300 {
		_ = b2.Set(Stamped{Parent: "w", Child: "c", Stamp: t0.Add(time.Duration(i) * 10 * time.Millisecond), Transform: geom.Identity()})
	}
	if _, err := b2.Lookup("w", "c", t0.Add(time.Second)); !errors.Is(err, ErrExtrapolation) {
		t.Fatalf("old sample still there: %v", err)
	}
	if _, err := b2.Lookup("w", "c", t0.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
}

func TestStaticToDynamic(t *testing.T) {
	b := mustNew(t)
	_ = b.SetStatic("w", "c", geom.Translation(1, 0, 0))
	_ = b.Set(Stamped{Parent: "w", Child: "c", Stamp: t0, Transform: geom.Translation(2, 0, 0)})
	if _, err := b.Lookup("w", "c", t0.Add(time.Second)); !errors.Is(err, ErrExtrapolation) {
		t.Fatalf("dynamic frame answered outside its sample: %v", err)
	}
	got, _ := b.Lookup("w", "c", time.Time{})
	assertPose(t, "latest", got, geom.Translation(2, 0, 0))
}

func TestConcurrentUse(t *testing.T) {
	b := tree(t)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				if g%2 == 0 {
					_ = b.Set(Stamped{Parent: "base", Child: "arm", Stamp: t0.Add(time.Duration(i+2) * time.Millisecond), Transform: geom.Identity()})
				} else if _, err := b.Lookup("B", "tool", time.Time{}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestLookupAllocatesNothing(t *testing.T) {
	b := tree(t)
	at := t0.Add(300 * time.Millisecond)
	if n := testing.AllocsPerRun(100, func() { _, _ = b.Lookup("B", "tool", at) }); n != 0 {
		t.Fatalf("Lookup allocates %v times", n)
	}
}

func BenchmarkLookup(b *testing.B) {
	buf := mustNew(b)
	_ = buf.SetStatic("base", "A", geom.Translation(1, 0, 0))
	_ = buf.SetStatic("A", "B", geom.Translation(0, 1, 0))
	for i := range 100 {
		_ = buf.Set(Stamped{Parent: "base", Child: "arm", Stamp: t0.Add(time.Duration(i) * 10 * time.Millisecond), Transform: geom.FromXYZEuler(float64(i), 0, 0, 0.01*float64(i), 0, 0)})
	}
	_ = buf.SetStatic("arm", "tool", geom.Translation(0.5, 0, 0))
	at := t0.Add(555 * time.Millisecond)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := buf.Lookup("B", "tool", at); err != nil {
			b.Fatal(err)
		}
	}
}

// The seed's worked example, through the buffer: base -> A is (1,0,0), the
// extra frame is (-2,0,2) in A, the goal (0,0,0.01) in that frame.
func ExampleBuffer_Lookup() {
	b, _ := New(Config{})
	_ = b.SetStatic("base", "A", geom.FromXYZEuler(1, 0, 0, 0, 0, 0))
	baseToA, _ := b.Lookup("base", "A", time.Time{})
	goal := baseToA.Mul(geom.FromXYZEuler(-2, 0, 2, 0, 0, 0)).Mul(geom.FromXYZEuler(0, 0, 0.01, 0, 0, 0))
	fmt.Println(goal)
	p := goal.Apply(r3.Vec{})
	fmt.Printf("%.2f %.2f %.2f\n", p.X, p.Y, p.Z)
	// Output:
	// xyz=(-1 0 2.01) ezyx=(0 0 0)
	// -1.00 0.00 2.01
}
