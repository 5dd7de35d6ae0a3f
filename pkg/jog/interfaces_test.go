package jog_test

import (
	"bufio"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/jog"
)

// fields reads the request (or, after ---, the response) fields of a ROS
// interface file as "name type" pairs.
func fields(t *testing.T, path string, response bool) [][2]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	inResponse := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "#"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "---" {
			inResponse = true
			continue
		}
		if line == "" || inResponse != response {
			continue
		}
		w := strings.Fields(line)
		if len(w) != 2 {
			t.Fatalf("%s: line %q", path, line)
		}
		out = append(out, [2]string{w[1], w[0]})
	}
	return out
}

func goName(snake string) string {
	var b strings.Builder
	for _, part := range strings.Split(snake, "_") {
		switch part {
		case "rx", "ry", "rz":
			b.WriteString(strings.ToUpper(part))
		default:
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

var rosToGo = map[string]reflect.Kind{
	"bool": reflect.Bool, "float64": reflect.Float64, "string": reflect.String,
	"float64[]": reflect.Slice, "telebridge_interfaces/EulerPose": reflect.Struct,
}

// TestRequestTypesMirrorInterfaces: every field of the .srv/.msg files has
// a Go field of the same name and kind, and no Go field is extra, so the
// ROS node only copies.
func TestRequestTypesMirrorInterfaces(t *testing.T) {
	for _, tc := range []struct {
		path     string
		response bool
		v        any
	}{
		{"../../interfaces/srv/StartJointMove.srv", false, jog.JointMoveRequest{}},
		{"../../interfaces/srv/StartCartesianMove.srv", false, jog.CartesianMoveRequest{}},
		{"../../interfaces/srv/StartJointMove.srv", true, jog.Response{}},
		{"../../interfaces/srv/StartCartesianMove.srv", true, jog.Response{}},
		{"../../interfaces/srv/SetFloat.srv", true, jog.Response{}},
		{"../../interfaces/msg/EulerPose.msg", false, jog.EulerPose{}},
	} {
		typ := reflect.TypeOf(tc.v)
		fs := fields(t, tc.path, tc.response)
		if len(fs) != typ.NumField() {
			t.Errorf("%s: %d fields, %s has %d", tc.path, len(fs), typ, typ.NumField())
		}
		for _, f := range fs {
			gf, ok := typ.FieldByName(goName(f[0]))
			if !ok {
				t.Errorf("%s: field %s has no %s.%s", tc.path, f[0], typ, goName(f[0]))
				continue
			}
			if rosToGo[f[1]] != gf.Type.Kind() {
				t.Errorf("%s: %s is %s, Go field is %s", tc.path, f[0], f[1], gf.Type)
			}
		}
	}
	if fs := fields(t, "../../interfaces/srv/SetFloat.srv", false); len(fs) != 1 || fs[0] != [2]string{"data", "float64"} {
		t.Errorf("SetFloat request %v", fs)
	}
}
