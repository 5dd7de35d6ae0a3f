package urdftest

import (
	"encoding/xml"
	"strings"
	"testing"
)

// Check accepts a minimal valid description and names each rule a broken
// one violates.
func TestCheck(t *testing.T) {
	const inertial = `<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>`
	valid := `<robot name="r"><link name="base"/><link name="a">` + inertial + `</link>
<joint name="j" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>`
	tests := []struct {
		name, old, new, want string
	}{
		{"valid", "", "", ""},
		{"duplicate link", `<link name="a">`, `<link name="base"/><link name="a">`, "duplicate name"},
		{"no effort", ` effort="1"`, ``, "without effort"},
		{"no velocity", ` velocity="1"`, ``, "incomplete <limit>"},
		{"lower above upper", `lower="-1" upper="1"`, `lower="1" upper="-1"`, "above upper"},
		{"zero mass", `<mass value="1"/>`, `<mass value="0"/>`, "not positive"},
		{"zero moment", `izz="1"`, `izz="0"`, "must be positive"},
		{"triangle", `izz="1"`, `izz="3"`, "triangle"},
		{"unknown child", `<child link="a"/>`, `<child link="b"/>`, "is not a link"},
		{"inertial on root", `<link name="base"/>`, `<link name="base">` + inertial + `</link>`, "root link"},
		{"bad type", `type="revolute"`, `type="hinge"`, "type"},
		{"zero axis", `<axis xyz="0 0 1"/>`, `<axis xyz="0 0 0"/>`, "bad axis"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := valid
			if tc.old != "" {
				if !strings.Contains(doc, tc.old) {
					t.Fatalf("%q not in the document", tc.old)
				}
				doc = strings.Replace(doc, tc.old, tc.new, 1)
			}
			var r Robot
			if err := xml.Unmarshal([]byte(doc), &r); err != nil {
				t.Fatal(err)
			}
			err := r.Check()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("valid document refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
}
