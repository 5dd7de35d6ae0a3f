package crawler

import (
	"testing"

	lurdf "github.com/telebridge/telebridge/launch/urdf"
)

// FuzzTree: any URDF text gives a tree or an error, and walking a tree
// (poses, bodies, inertials, shapes) never panics or loops.
func FuzzTree(f *testing.F) {
	f.Add(lurdf.ServosilaEngineer)
	f.Add(`<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 0"/></joint></robot>`)
	f.Add(`<robot><link name="a"/><link name="b"/><link name="c"/><joint name="x" type="fixed"><parent link="b"/><child link="c"/></joint><joint name="y" type="fixed"><parent link="c"/><child link="b"/></joint></robot>`)
	f.Add(`<robot><link name="a"><inertial><mass value="nan"/><origin rpy="1 2"/></inertial><visual><geometry><box size="1 1"/></geometry></visual></link></robot>`)
	f.Fuzz(func(t *testing.T, doc string) {
		tr, err := parseTree(doc)
		if err != nil {
			return
		}
		q := map[string]float64{}
		moving := map[string]bool{}
		for _, j := range tr.joints {
			q[j.Name] = 0.3
			moving[j.Name] = j.Type == "revolute"
		}
		pose, err := tr.poses(q)
		if err != nil {
			return
		}
		for _, name := range tr.order() {
			tr.bodyRoot(name, moving)
			l := tr.links[name]
			if _, _, err := inertial(l); err != nil {
				continue
			}
			if _, err := boxShapes(l, pose[name]); err != nil {
				continue
			}
		}
	})
}
