package balance_test

import (
	"os"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/balance"
)

// FuzzNew feeds arbitrary robot descriptions (robot_description arrives
// over the ROS graph) to New and evaluates what it accepts at random
// joints: never a panic.
func FuzzNew(f *testing.F) {
	f.Add(boxURDF(10, 0.3, 0), "body", 0.1, 0.2)
	f.Add(boxURDF(0, 0, 0), "body", -1.0, 0.0)
	if b, err := os.ReadFile("../../launch/urdf/servosila_engineer.urdf"); err == nil {
		f.Add(string(b), "left_track_link", 0.5, 1.0)
	}
	f.Add(`<robot name="c"><link name="a"><collision><geometry><cylinder radius="0.3" length="0.2"/></geometry></collision><inertial><mass value="1"/></inertial></link></robot>`, "a", 0.0, 0.0)
	f.Add(`<robot name="l"><link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="b"/><child link="a"/></joint><joint name="k" type="revolute"><parent link="a"/><child link="b"/></joint></robot>`, "a", 0.0, 0.0)
	f.Fuzz(func(t *testing.T, doc, contact string, q, pitch float64) {
		m, err := balance.New(strings.NewReader(doc), balance.Params{ContactLinks: []string{contact}})
		if err != nil {
			return
		}
		pos := make([]float64, len(m.Joints()))
		for i := range pos {
			pos[i] = q
		}
		r := m.NewResult()
		_ = m.Evaluate(pos, balance.Ground{Pitch: pitch}, r)
	})
}
