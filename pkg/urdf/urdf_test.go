package urdf_test

import (
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/urdf"
)

func TestDecode(t *testing.T) {
	const doc = `<robot name="r">
  <link name="base"/>
  <link name="arm"><inertial><mass value="1.5"/><inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/></inertial></link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.1" rpy="0 0 1.57"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/>
    <safety_controller soft_lower_limit="-0.9" soft_upper_limit="0.9" k_velocity="1"/>
  </joint>
  <joint name="j2" type="fixed"><parent link="arm"/><child link="tool"/><mimic joint="j1"/></joint>
</robot>`
	r, err := urdf.Decode(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	j := r.Joints[0]
	switch {
	case r.Name != "r" || len(r.Links) != 2 || len(r.Joints) != 2:
		t.Fatalf("robot %q: %d links, %d joints", r.Name, len(r.Links), len(r.Joints))
	case r.Links[0].Inertial != nil || r.Links[1].Inertial.Mass.Value != "1.5" || r.Links[1].Inertial.Inertia.IZZ != "3":
		t.Fatalf("inertials %+v %+v", r.Links[0].Inertial, r.Links[1].Inertial)
	case j.Parent.Link != "base" || j.Child.Link != "arm" || j.Origin.RPY != "0 0 1.57" || j.Axis.XYZ != "0 0 1":
		t.Fatalf("joint %+v", j)
	case j.Limit.Effort != "10" || j.Limit.Velocity != "2" || j.Safety.SoftLower != "-0.9" || j.Safety.KPosition != "":
		t.Fatalf("limits %+v %+v", j.Limit, j.Safety)
	case j.Mimic != nil || r.Joints[1].Mimic.Joint != "j1" || r.Joints[1].Limit != nil:
		t.Fatalf("mimic %+v, %+v", j.Mimic, r.Joints[1])
	}
	if _, err := urdf.Decode(strings.NewReader("<robot>")); err == nil {
		t.Fatal("a truncated document decoded")
	}
}

func TestNumbers(t *testing.T) {
	tests := []struct {
		in      string
		want    float64 // NumberOr with default 7
		wantErr bool
	}{
		{"1.5", 1.5, false},
		{" -2e-3 ", -0.002, false},
		{"", 7, false},
		{"   ", 7, false},
		{"NaN", 0, true},
		{"inf", 0, true},
		{"1,5", 0, true},
	}
	for _, tc := range tests {
		got, err := urdf.NumberOr(tc.in, 7)
		if (err != nil) != tc.wantErr || (err == nil && got != tc.want) {
			t.Errorf("NumberOr(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
	if _, err := urdf.Number(""); err == nil {
		t.Error("Number accepted an empty attribute")
	}
}

func TestVec3(t *testing.T) {
	def := [3]float64{1, 0, 0}
	tests := []struct {
		in      string
		want    [3]float64
		wantErr bool
	}{
		{"0 0 1", [3]float64{0, 0, 1}, false},
		{"  0.1\t-0.2  3 ", [3]float64{0.1, -0.2, 3}, false},
		{"", def, false},
		{"1 2", [3]float64{}, true},
		{"1 2 3 4", [3]float64{}, true},
		{"1 x 3", [3]float64{}, true},
	}
	for _, tc := range tests {
		got, err := urdf.Vec3(tc.in, def)
		if (err != nil) != tc.wantErr || (err == nil && got != tc.want) {
			t.Errorf("Vec3(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}
