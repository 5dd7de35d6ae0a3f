package kinematics

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/geom"
)

const pi = math.Pi

// urdfPath returns where a test description lives: ur5_like.urdf is the
// repository's own (launch/urdf/, installed for ROS), the variants made
// for these tests are in testdata/.
func urdfPath(name string) string {
	if name == "ur5_like.urdf" {
		return "../../launch/urdf/" + name
	}
	return "testdata/" + name
}

func loadURDF(t testing.TB, name string) *Chain {
	t.Helper()
	f, err := os.Open(urdfPath(name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ParseURDF(f, "", "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// ur5DH is the standard DH table of the UR5-sized arm (ur5_like.urdf).
func ur5DH(t testing.TB) *Chain {
	t.Helper()
	rows := []DH{
		{Name: "shoulder_pan_joint", D: 0.089159, Alpha: pi / 2},
		{Name: "shoulder_lift_joint", A: -0.425},
		{Name: "elbow_joint", A: -0.39225},
		{Name: "wrist_1_joint", D: 0.10915, Alpha: pi / 2},
		{Name: "wrist_2_joint", D: 0.09465, Alpha: -pi / 2},
		{Name: "wrist_3_joint", D: 0.0823},
	}
	for i := range rows {
		rows[i].Lower, rows[i].Upper = -2*pi, 2*pi
	}
	c, err := FromDH("base_link", "tool0", rows)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func closeTo(got, want geom.Transform, tol float64) bool {
	d, r := geom.Distance(got, want)
	return d <= tol && r <= tol
}

// TestFKHandComputed checks FK against poses worked out on paper from the
// joint origins (see the comments for the derivations).
func TestFKHandComputed(t *testing.T) {
	ur5 := loadURDF(t, "ur5_like.urdf")
	tel := loadURDF(t, "telescope7.urdf")
	c30, s30 := math.Cos(pi/6), math.Sin(pi/6)
	// A DH arm: a revolute joint with a 0.5 m link, then a prismatic joint
	// sliding along the new z from an offset of 0.1 m.
	dh, err := FromDH("b", "t", []DH{
		{Type: Revolute, A: 0.5, Lower: -pi, Upper: pi},
		{Type: Prismatic, D: 0.1, Lower: 0, Upper: 0.5},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		chain *Chain
		q     []float64
		want  geom.Transform
	}{
		// UR5 at zero: the arm lies along -x (a2 + a3 = -0.81725); the
		// wrist offsets d4 and d6 point along -y; d1 up and d5 down.
		// The tool frame is the base turned +90 deg about x.
		{"ur5 zero", ur5, []float64{0, 0, 0, 0, 0, 0},
			geom.FromXYZEuler(-0.81725, -0.19145, 0.089159-0.09465, 0, 0, pi/2)},
		// Pan +90 deg: the zero pose turned about z, (x, y) -> (-y, x).
		{"ur5 pan 90", ur5, []float64{pi / 2, 0, 0, 0, 0, 0},
			geom.FromXYZEuler(0.19145, -0.81725, 0.089159-0.09465, pi/2, 0, pi/2)},
		// Shoulder lift -90 deg: upper arm and forearm point up
		// (z = d1 + 0.425 + 0.39225), d5 now points along -x. The tool
		// axes are x = -Z, y = X, z = -Y, i.e. ZYX angles (-90, 90, 0) deg.
		{"ur5 arm up", ur5, []float64{0, -pi / 2, 0, 0, 0, 0},
			geom.FromXYZEuler(-0.09465, -0.19145, 0.089159+0.81725, -pi/2, pi/2, 0)},
		// Turned 90 deg: the link ends at (0, 0.5); the slide adds 0.1+0.2 up.
		{"dh revolute and prismatic", dh, []float64{pi / 2, 0.2},
			geom.FromXYZEuler(0, 0.5, 0.3, pi/2, 0, 0)},
		// Telescope arm at zero: everything along the mount's x, which is
		// turned 30 deg: 0.05+0.55+0.12+0.45+0.08+0.06+0.12 = 1.43 m from
		// the mount at (0.2, 0, 0.1), 0.25+0.15 m up.
		{"telescope zero", tel, make([]float64, 7),
			geom.FromXYZEuler(0.2+1.43*c30, 1.43*s30, 0.5, pi/6, 0, 0)},
		// Fully extended telescope adds 0.4 m along the same line.
		{"telescope extended", tel, []float64{0, 0, 0, 0.4, 0, 0, 0},
			geom.FromXYZEuler(0.2+1.83*c30, 1.83*s30, 0.5, pi/6, 0, 0)},
		// Turret +90 deg: the arm points at 120 deg.
		{"telescope turret 90", tel, []float64{pi / 2, 0, 0, 0, 0, 0, 0},
			geom.FromXYZEuler(0.2+1.43*math.Cos(2*pi/3), 1.43*math.Sin(2*pi/3), 0.5, 2*pi/3, 0, 0)},
		// Shoulder -90 deg (pitch about y turns x up) with 0.3 m out:
		// 1.68 m straight up from the shoulder at 0.5 m.
		{"telescope arm up", tel, []float64{0, -pi / 2, 0, 0.3, 0, 0, 0},
			geom.FromXYZEuler(0.2+0.05*c30, 0.05*s30, 0.5+1.68, pi/6, -pi/2, 0)},
		// Wrist roll 90 deg then wrist pitch +90 deg: the pitch axis is
		// now the mount's z, so the last 0.18 m turns +90 deg in the plane.
		{"telescope wrist", tel, []float64{0, 0, 0, 0, pi / 2, pi / 2, 0},
			geom.FromXYZEuler(0.2+1.25*c30-0.18*s30, 1.25*s30+0.18*c30, 0.5, pi/6, 0, 0).Mul(
				geom.Rotation(geom.FromEulerZYX(0, 0, pi/2).Mul(geom.FromEulerZYX(0, pi/2, 0))))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.chain.FK(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if !closeTo(got, tc.want, 1e-12) {
				t.Fatalf("FK = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestURDFMatchesDH: the UR5 URDF was written from its DH table, so both
// chains must give the same pose everywhere.
func TestURDFMatchesDH(t *testing.T) {
	u, d := loadURDF(t, "ur5_like.urdf"), ur5DH(t)
	if u.Base != "world" || u.TipName != "tool0" || u.DOF() != 6 {
		t.Fatalf("chain %s -> %s with %d joints", u.Base, u.TipName, u.DOF())
	}
	rng := rand.New(rand.NewPCG(3, 4))
	q := make([]float64, 6)
	for range 200 {
		RandomJoints(d, rng, q)
		a, _ := u.FK(q)
		b, _ := d.FK(q)
		if !closeTo(a, b, 1e-12) {
			t.Fatalf("q %v: URDF %v, DH %v", q, a, b)
		}
	}
}

func TestJacobianMatchesFiniteDifferences(t *testing.T) {
	for _, name := range []string{"ur5_like.urdf", "telescope7.urdf"} {
		c := loadURDF(t, name)
		rng := rand.New(rand.NewPCG(5, 6))
		q := make([]float64, c.DOF())
		n := c.DOF()
		for range 20 {
			RandomJoints(c, rng, q)
			tip, jac, err := c.Jacobian(q, nil)
			if err != nil {
				t.Fatal(err)
			}
			const h = 1e-7
			for i := range n {
				qh := append([]float64(nil), q...)
				qh[i] += h
				th, _ := c.FK(qh)
				dv := [3]float64{(th.Translation.X - tip.Translation.X) / h, (th.Translation.Y - tip.Translation.Y) / h, (th.Translation.Z - tip.Translation.Z) / h}
				w := th.Rotation.Mul(tip.Rotation.Conj()).RotationVector()
				dw := [3]float64{w.X / h, w.Y / h, w.Z / h}
				for k := range 3 {
					if math.Abs(jac[k*n+i]-dv[k]) > 1e-5 || math.Abs(jac[(k+3)*n+i]-dw[k]) > 1e-5 {
						t.Fatalf("%s joint %d: column (%v %v) differs from finite differences (%v %v)", name, i,
							[]float64{jac[i], jac[n+i], jac[2*n+i]}, []float64{jac[3*n+i], jac[4*n+i], jac[5*n+i]}, dv, dw)
					}
				}
			}
		}
	}
}

func TestParseURDFChoosesLinks(t *testing.T) {
	data, err := os.ReadFile("testdata/telescope7.urdf")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseURDFString(string(data), "turret", "wrist_pitch_link")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.JointNames(), ","); got != "shoulder_joint,elbow_joint,telescope_joint,wrist_roll_joint,wrist_pitch_joint" {
		t.Fatalf("joints %s", got)
	}
	if c.Joints[2].Type != Prismatic || c.Joints[2].Unit() != "m" || c.Joints[0].MaxVelocity != 0.8 {
		t.Fatalf("joint data %+v", c.Joints[2])
	}
}

func TestParseURDFErrors(t *testing.T) {
	const head = `<robot name="r"><link name="a"/><link name="b"/>`
	for _, tc := range []struct{ name, urdf, base, tip, want string }{
		{"not xml", `<robot`, "", "", "urdf"},
		{"no joints", `<robot name="r"><link name="a"/></robot>`, "", "", "no joints"},
		{"floating", head + `<joint name="j" type="floating"><parent link="a"/><child link="b"/></joint></robot>`, "", "", "not supported"},
		{"revolute without limit", head + `<joint name="j" type="revolute"><parent link="a"/><child link="b"/></joint></robot>`, "", "", "without <limit>"},
		{"bad number", head + `<joint name="j" type="continuous"><parent link="a"/><child link="b"/><origin xyz="1 x 0"/></joint></robot>`, "", "", "bad number"},
		{"two numbers", head + `<joint name="j" type="continuous"><parent link="a"/><child link="b"/><axis xyz="1 0"/></joint></robot>`, "", "", "want 3 numbers"},
		{"zero axis", head + `<joint name="j" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 0 0"/></joint></robot>`, "", "", "axis"},
		{"lower above upper", head + `<joint name="j" type="prismatic"><parent link="a"/><child link="b"/><limit lower="1" upper="0" effort="1" velocity="1"/></joint></robot>`, "", "", "limits"},
		{"mimic", head + `<joint name="j" type="continuous"><parent link="a"/><child link="b"/><mimic joint="k"/></joint></robot>`, "", "", "mimic"},
		{"fixed only", head + `<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>`, "", "", "no moving joints"},
		{"unknown tip", head + `<joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint></robot>`, "", "c", "no link"},
		{"tip not below base", head + `<joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint></robot>`, "b", "a", "not below"},
		{"two roots", `<robot name="r"><joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint><joint name="k" type="continuous"><parent link="c"/><child link="d"/></joint></robot>`, "", "", "root links"},
		{"ambiguous tip", `<robot name="r"><joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint><joint name="k" type="continuous"><parent link="a"/><child link="c"/></joint></robot>`, "", "", "name the tip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseURDFString(tc.urdf, tc.base, tc.tip)
			if !errors.Is(err, ErrBadChain) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrBadChain mentioning %q", err, tc.want)
			}
		})
	}
}

func TestCheckJoints(t *testing.T) {
	c := loadURDF(t, "telescope7.urdf")
	for _, tc := range []struct {
		q    []float64
		want error
	}{
		{make([]float64, 7), nil},
		{make([]float64, 6), ErrJointCount},
		{[]float64{0, 0, 0, 0.41, 0, 0, 0}, ErrOutOfLimits},
		{[]float64{0, 0, 0, -0.01, 0, 0, 0}, ErrOutOfLimits},
		{[]float64{math.NaN(), 0, 0, 0, 0, 0, 0}, ErrOutOfLimits},
	} {
		if err := c.CheckJoints(tc.q, 0); !errors.Is(err, tc.want) {
			t.Errorf("%v: err = %v, want %v", tc.q, err, tc.want)
		}
	}
	if _, err := c.FK(make([]float64, 3)); !errors.Is(err, ErrJointCount) {
		t.Fatalf("FK short: %v", err)
	}
}

func TestFKAllocatesNothing(t *testing.T) {
	c := loadURDF(t, "telescope7.urdf")
	q := make([]float64, 7)
	jac := make([]float64, 42)
	if n := testing.AllocsPerRun(100, func() { _, _ = c.FK(q); _, _, _ = c.Jacobian(q, jac) }); n != 0 {
		t.Fatalf("FK+Jacobian allocate %v times", n)
	}
}

func BenchmarkFK(b *testing.B) {
	c := loadURDF(b, "telescope7.urdf")
	q := []float64{0.1, -0.2, 0.3, 0.1, 0.5, -0.6, 0.7}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = c.FK(q)
	}
}

// TestReachBoundsFK: no joint position within the limits puts the tool
// farther from the base than Reach, and the bound is useful: random poses
// come within 10 % of it (UR5-sized arm 1.037 of 1.098 m, telescope 2.308
// of 2.341 m).
func TestReachBoundsFK(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range []string{"ur5_like.urdf", "telescope7.urdf"} {
		c := loadURDF(t, name)
		reach := c.Reach()
		q := make([]float64, c.DOF())
		far := 0.0
		for range 20000 {
			RandomJoints(c, rng, q)
			tf, err := c.FK(q)
			if err != nil {
				t.Fatal(err)
			}
			d := math.Sqrt(tf.Translation.X*tf.Translation.X + tf.Translation.Y*tf.Translation.Y + tf.Translation.Z*tf.Translation.Z)
			if d > reach+1e-12 {
				t.Fatalf("%s: tool %.4f m from the base at %v, over the reach %.4f m", name, d, q, reach)
			}
			far = max(far, d)
		}
		t.Logf("%s: reach %.4f m, farthest of 20000 random poses %.4f m", name, reach, far)
		if far < 0.9*reach {
			t.Errorf("%s: Reach %.4f m is loose: no random pose beyond %.4f m", name, reach, far)
		}
	}
}
