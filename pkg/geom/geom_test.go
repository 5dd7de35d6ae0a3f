package geom

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

const eps = 1e-12

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func vecNear(t *testing.T, name string, got, want r3.Vec, tol float64) {
	t.Helper()
	if !near(got.X, want.X, tol) || !near(got.Y, want.Y, tol) || !near(got.Z, want.Z, tol) {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

func matMul(a, b [3][3]float64) (c [3][3]float64) {
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

func rz(a float64) [3][3]float64 {
	s, c := math.Sincos(a)
	return [3][3]float64{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}
}
func ry(a float64) [3][3]float64 {
	s, c := math.Sincos(a)
	return [3][3]float64{{c, 0, s}, {0, 1, 0}, {-s, 0, c}}
}
func rx(a float64) [3][3]float64 {
	s, c := math.Sincos(a)
	return [3][3]float64{{1, 0, 0}, {0, c, -s}, {0, s, c}}
}

// TestEulerZYXIsIntrinsic checks the quaternion against the matrix product
// Rz(rz) Ry(ry) Rx(rx) written out by hand.
func TestEulerZYXIsIntrinsic(t *testing.T) {
	for _, a := range [][3]float64{
		{0, 0, 0}, {math.Pi / 2, 0, 0}, {0, math.Pi / 2, 0}, {0, 0, math.Pi / 2},
		{0.3, -0.7, 1.2}, {-2.5, 1.1, -3}, {3, -1.5, 0.1},
	} {
		want := matMul(matMul(rz(a[0]), ry(a[1])), rx(a[2]))
		got := FromEulerZYX(a[0], a[1], a[2]).Matrix()
		for i := range 3 {
			for j := range 3 {
				if !near(got[i][j], want[i][j], 1e-12) {
					t.Fatalf("angles %v: matrix %v, want %v", a, got, want)
				}
			}
		}
	}
}

func TestEulerRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		a := [3]float64{(r.Float64()*2 - 1) * math.Pi, (r.Float64()*2 - 1) * math.Pi / 2 * 0.999, (r.Float64()*2 - 1) * math.Pi}
		q := FromEulerZYX(a[0], a[1], a[2])
		z, y, x := q.EulerZYX()
		if p := FromEulerZYX(z, y, x); q.AngleTo(p) > 1e-9 {
			t.Fatalf("angles %v -> %v %v %v: rotation differs by %g", a, z, y, x, q.AngleTo(p))
		}
		if !near(z, a[0], 1e-7) || !near(y, a[1], 1e-7) || !near(x, a[2], 1e-7) {
			t.Fatalf("angles %v came back as %v %v %v", a, z, y, x)
		}
	}
	// Gimbal lock: the rotation survives even if the angles change.
	q := FromEulerZYX(0.4, math.Pi/2, 0.1)
	z, y, x := q.EulerZYX()
	if p := FromEulerZYX(z, y, x); q.AngleTo(p) > 1e-9 {
		t.Fatalf("gimbal lock: rotation differs by %g", q.AngleTo(p))
	}
}

func TestRotateMatchesMatrix(t *testing.T) {
	q := FromEulerZYX(0.3, -0.4, 2)
	m := q.Matrix()
	v := r3.Vec{X: 1, Y: -2, Z: 0.5}
	want := r3.Vec{
		X: m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		Y: m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		Z: m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
	vecNear(t, "rotate", q.Rotate(v), want, eps)
	vecNear(t, "rotate z 90", AxisAngle(r3.Vec{Z: 1}, math.Pi/2).Rotate(r3.Vec{X: 1}), r3.Vec{Y: 1}, eps)
}

func TestTransformAlgebra(t *testing.T) {
	a := FromXYZEuler(1, 2, 3, 0.1, 0.2, 0.3)
	b := FromXYZEuler(-1, 0.5, 0, 1, -0.5, 2)
	p := r3.Vec{X: 0.3, Y: -0.2, Z: 0.9}
	vecNear(t, "compose", a.Mul(b).Apply(p), a.Apply(b.Apply(p)), 1e-12)
	vecNear(t, "inverse", a.Inverse().Apply(a.Apply(p)), p, 1e-12)
	if d, r := Distance(a.Mul(a.Inverse()), Identity()); d > 1e-12 || r > 1e-7 {
		t.Fatalf("a * a^-1 is %v from identity", a.Mul(a.Inverse()))
	}
	// Translation then rotation: the worked example's pattern.
	got := Translation(1, 0, 0).Mul(Translation(-2, 0, 2)).Mul(Translation(0, 0, 0.01))
	vecNear(t, "chain", got.Translation, r3.Vec{X: -1, Z: 2.01}, 1e-15)
}

func TestSlerp(t *testing.T) {
	q0 := IdentityQuat()
	q1 := AxisAngle(r3.Vec{Z: 1}, 2)
	for _, f := range []float64{0, 0.25, 0.5, 1} {
		got := Slerp(q0, q1, f)
		if want := AxisAngle(r3.Vec{Z: 1}, 2*f); got.AngleTo(want) > 1e-9 {
			t.Errorf("slerp %g: %v, want %v", f, got, want)
		}
	}
	// Shortest arc: -q is the same rotation.
	neg := Quat{W: -q1.W, X: -q1.X, Y: -q1.Y, Z: -q1.Z}
	if got := Slerp(q0, neg, 0.5); got.AngleTo(AxisAngle(r3.Vec{Z: 1}, 1)) > 1e-9 {
		t.Errorf("slerp to -q went the long way: %v", got)
	}
	tr := Interpolate(Translation(0, 0, 0), FromXYZEuler(2, 0, 0, 1, 0, 0), 0.5)
	vecNear(t, "interpolate", tr.Translation, r3.Vec{X: 1}, eps)
}

func TestRotationVector(t *testing.T) {
	for _, v := range []r3.Vec{{}, {X: 1e-9}, {X: 1}, {Y: -2}, {X: 1, Y: 1, Z: 1}, {Z: math.Pi - 1e-6}} {
		vecNear(t, "log(exp)", FromRotationVector(v).RotationVector(), v, 1e-9)
	}
}

func TestValidate(t *testing.T) {
	if err := Identity().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tr := range []Transform{
		{Rotation: Quat{}},
		{Translation: r3.Vec{X: math.NaN()}, Rotation: IdentityQuat()},
		{Rotation: Quat{W: 2}},
		{Translation: r3.Vec{Y: math.Inf(1)}, Rotation: IdentityQuat()},
	} {
		if err := tr.Validate(); err == nil {
			t.Errorf("%v: no error", tr)
		}
	}
}

func ExampleTransform_Mul() {
	baseToA := FromXYZEuler(1, 0, 0, 0, 0, 0)
	aToFrame := FromXYZEuler(-2, 0, 2, 0, 0, 0)
	goalInFrame := FromXYZEuler(0, 0, 0.01, 0, 0, 0)
	fmt.Println(baseToA.Mul(aToFrame).Mul(goalInFrame).String())
	// Output: xyz=(-1 0 2.01) ezyx=(0 0 0)
}
