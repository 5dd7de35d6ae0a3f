package kinematics

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestURDFAsUrdfdomReadsIt: what urdfdom (robot_state_publisher, MoveIt)
// refuses is refused, saying so; soft limits narrow the range.
func TestURDFAsUrdfdomReadsIt(t *testing.T) {
	const head = `<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/><child link="b"/>`
	for _, tc := range []struct {
		name, body string
		want       string // error text, or "" for success
		lo, hi     float64
		hlo, hhi   float64
	}{
		{"no effort", `<limit lower="-1" upper="1" velocity="1"/>`, "without effort: urdfdom", 0, 0, 0, 0},
		{"no velocity", `<limit lower="-1" upper="1" effort="1"/>`, "without velocity: urdfdom", 0, 0, 0, 0},
		{"bad effort", `<limit lower="-1" upper="1" effort="x" velocity="1"/>`, "effort limit", 0, 0, 0, 0},
		{"lower and upper default to 0", `<limit effort="1" velocity="1"/>`, "", 0, 0, 0, 0},
		{"hard limits", `<limit lower="-1" upper="1" effort="1" velocity="1"/>`, "", -1, 1, -1, 1},
		{"soft limits narrow", `<limit lower="-1" upper="1" effort="1" velocity="1"/><safety_controller soft_lower_limit="-0.8" soft_upper_limit="0.5" k_velocity="10"/>`, "", -0.8, 0.5, -1, 1},
		{"soft limits beyond the hard ones", `<limit lower="-1" upper="1" effort="1" velocity="1"/><safety_controller soft_lower_limit="-2" soft_upper_limit="2" k_velocity="10"/>`, "", -1, 1, -1, 1},
		{"missing soft limit is 0, as in urdfdom and MoveIt", `<limit lower="-1" upper="1" effort="1" velocity="1"/><safety_controller soft_lower_limit="-0.5" k_velocity="10"/>`, "", -0.5, 0, -1, 1},
		{"no k_velocity", `<limit lower="-1" upper="1" effort="1" velocity="1"/><safety_controller soft_lower_limit="-0.5" soft_upper_limit="0.5"/>`, "without k_velocity", 0, 0, 0, 0},
		{"soft range empty", `<limit lower="-1" upper="1" effort="1" velocity="1"/><safety_controller soft_lower_limit="2" soft_upper_limit="3" k_velocity="1"/>`, "leave nothing", 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseURDFString(head+tc.body+`</joint></robot>`, "", "")
			if tc.want != "" {
				if !errors.Is(err, ErrBadChain) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			j := c.Joints[0]
			if j.Lower != tc.lo || j.Upper != tc.hi || j.HardLower != tc.hlo || j.HardUpper != tc.hhi {
				t.Fatalf("limits [%g, %g], hard [%g, %g]; want [%g, %g], [%g, %g]", j.Lower, j.Upper, j.HardLower, j.HardUpper, tc.lo, tc.hi, tc.hlo, tc.hhi)
			}
		})
	}
}

// TestIKWithinSoftLimits: on an arm with safety controllers, every IK
// solution is within the soft limits; the same poses solved with the
// hard limits only often are not (the figure is logged).
func TestIKWithinSoftLimits(t *testing.T) {
	soft := loadURDF(t, "ur5_soft.urdf")
	hard := loadURDF(t, "ur5_like.urdf")
	ss := newSolver(t, soft, Config{})
	hs := newSolver(t, hard, Config{})
	rng := rand.New(rand.NewPCG(7, 7))
	n := soft.DOF()
	q, seed, sol := make([]float64, n), make([]float64, n), make([]float64, n)
	const poses = 500
	solved, between, hardSolved := 0, 0, 0
	for range poses {
		RandomJoints(soft, rng, q) // reachable within the soft limits
		target, _ := soft.FK(q)
		RandomJoints(hard, rng, seed)
		if _, err := ss.Solve(sol, target, seed); err == nil {
			solved++
			if err := soft.CheckJoints(sol, 0); err != nil {
				t.Fatalf("solution outside the soft limits: %v", err)
			}
		}
		if _, err := hs.Solve(sol, target, seed); err == nil {
			hardSolved++
			for i, j := range soft.Joints {
				if sol[i] < j.Lower || sol[i] > j.Upper {
					between++
					break
				}
			}
		}
	}
	if solved < poses*99/100 {
		t.Fatalf("solved %d of %d within the soft limits", solved, poses)
	}
	t.Logf("soft limits: %d/%d solved, all within; hard limits only: %d/%d solved, %.0f %% of them between the soft and the hard limits",
		solved, poses, hardSolved, poses, 100*float64(between)/math.Max(1, float64(hardSolved)))
	if between == 0 {
		t.Fatal("no hard-limit solution fell between the limits: the fixture does not exercise the soft limits")
	}
}
