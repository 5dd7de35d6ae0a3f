package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func runParamsCmd(t *testing.T, args ...string) (code int, out, errOut string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), args, stdio{in: strings.NewReader(""), out: &o, err: &e})
	return code, o.String(), e.String()
}

func TestParamsCommand(t *testing.T) {
	const data = "../../pkg/rosparam/testdata/"
	cases := []struct {
		name string
		args []string
		code int
		out  string // expected stdout, or a substring of stderr when code != 0
	}{
		{"check only", []string{"params", data + "base.yaml", data + "overlay.yaml"}, 0,
			"ok: 3 node pattern(s): /** /drv /**/drv\n"},
		{"resolve", []string{"params", "-node", "/drv", data + "base.yaml", "--ros-args", "-p", "drv:c:=7", "--params-file", data + "overlay.yaml"}, 0,
			// "drv" (the -p prefix) is its own entry after "/drv": its c wins.
			"/drv:\n  ros__parameters:\n    a: 10\n    b: 2\n    c: 7\n    d: 30\n"},
		{"relative node", []string{"params", "-node", "robot1/drv", data + "matching.yaml"}, 0,
			"/robot1/drv:\n  ros__parameters:\n    from_all: 1\n    from_any_drv: 2\n    from_robot1_any: 5\n    from_robot1_drv: 4\n    shared: robot1_drv\n"},
		{"bad file", []string{"params", data + "nope.yaml"}, 1, "params file"},
		{"bad rule", []string{"params", "--ros-args", "-p", "a:=[1, x]"}, 1, "holds an element"},
		{"nothing", []string{"params"}, 2, "no parameter file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runParamsCmd(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, c.code, errOut)
			}
			if c.code == 0 && out != c.out {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, c.out)
			}
			if c.code != 0 && !strings.Contains(errOut, c.out) {
				t.Errorf("stderr %q does not mention %q", errOut, c.out)
			}
		})
	}
}
