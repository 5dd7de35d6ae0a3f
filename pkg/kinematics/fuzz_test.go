package kinematics

import (
	"math"
	"os"
	"strings"
	"testing"
)

// FuzzParseURDF: any robot description either parses into a chain whose
// FK and IK run without panicking and give finite results, or fails with
// ErrBadChain.
func FuzzParseURDF(f *testing.F) {
	for _, name := range []string{"ur5_like.urdf", "telescope7.urdf"} {
		data, err := os.ReadFile(urdfPath(name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	const head = `<robot name="r"><link name="a"/><link name="b"/>`
	f.Add(head + `<joint name="j" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="0 0 2"/><limit lower="-1" upper="1"/></joint></robot>`)
	f.Add(head + `<joint name="j" type="continuous"><parent link="a"/><child link="b"/><origin xyz="1 2 3" rpy="0.1 0.2 0.3"/></joint></robot>`)
	f.Add(head + `<joint name="j" type="revolute"><parent link="a"/><child link="b"/><limit lower="1e308" upper="1e308"/></joint></robot>`)
	f.Add(`<robot`)
	f.Fuzz(func(t *testing.T, urdf string) {
		c, err := ParseURDF(strings.NewReader(urdf), "", "")
		if err != nil {
			return
		}
		q := make([]float64, c.DOF())
		for i, j := range c.Joints {
			if j.Type != Continuous {
				q[i] = (j.Lower + j.Upper) / 2
			}
		}
		tip, err := c.FK(q)
		if err != nil {
			t.Fatal(err)
		}
		if tip.Validate() != nil {
			// Huge but finite URDF numbers can overflow; that must not
			// panic, and IK must refuse the target cleanly.
			s, _ := NewSolver(c, Config{MaxAttempts: 1, MaxIterations: 5})
			if _, err := s.Solve(make([]float64, c.DOF()), tip, nil); err == nil {
				t.Fatalf("IK accepted an invalid target %v", tip)
			}
			return
		}
		s, err := NewSolver(c, Config{MaxAttempts: 1, MaxIterations: 5})
		if err != nil {
			t.Fatal(err)
		}
		sol := make([]float64, c.DOF())
		_, _ = s.Solve(sol, tip, nil)
		for _, v := range sol {
			if math.IsNaN(v) {
				t.Fatalf("IK gave NaN for %v", tip)
			}
		}
	})
}
