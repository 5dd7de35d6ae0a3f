package launchtest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/vizconfig"
	"gopkg.in/yaml.v3"
)

// rvizNode returns the rviz2 node of a launch and its -d and -f arguments.
func rvizNode(t *testing.T, r result) (n node, config, fixed string, ok bool) {
	t.Helper()
	for _, x := range r.Nodes {
		if x.Package != "rviz2" {
			continue
		}
		if x.Executable != "rviz2" || len(x.Arguments) != 4 || x.Arguments[0] != "-d" || x.Arguments[2] != "-f" {
			t.Fatalf("rviz2 node %+v", x)
		}
		config, _ = x.Arguments[1].(string)
		fixed, _ = x.Arguments[3].(string)
		return x, config, fixed, true
	}
	return node{}, "", "", false
}

func yamlOf(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// rviz:=true starts rviz2 on the robot's installed configuration with its
// fixed frame; under a namespace and a frame prefix, on a copy whose
// topics and frames are exactly what vizconfig writes for that namespace
// and prefix. Without rviz2 installed, a message says so; rviz:=false
// (the default) starts nothing and says nothing.
func TestRVizLaunch(t *testing.T) {
	params, err := os.ReadFile(filepath.Join(repo(t), "params", "camera_publisher.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	robots, err := vizconfig.Robots(params)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]vizconfig.Robot{}
	for _, r := range robots {
		byName[r.Name] = r
	}
	for _, c := range []struct {
		file, robot string
		fixed       string // -f without a prefix
		namespaced  bool   // the file takes namespace and frame_prefix
	}{
		{"servosila.launch.py", "servosila", "odom", true},
		{"furbot.launch.py", "furbot", "odom", true},
		{"jog.launch.py", "arm", "base_link", false}, // jog.launch.py's fixed_frame
	} {
		const installed = "robot_state_publisher,rviz2"
		r := launch(t, installed, c.file)
		if _, _, _, ok := rvizNode(t, r); ok || len(r.Logs) != 0 {
			t.Errorf("%s: rviz2 without rviz:=true, logs %q", c.file, r.Logs)
		}
		r = launch(t, installed, c.file, "rviz:=true")
		n, config, fixed, ok := rvizNode(t, r)
		if !ok {
			t.Fatalf("%s rviz:=true: no rviz2 among %+v", c.file, r.Nodes)
		}
		if filepath.Base(config) != c.robot+".rviz" || filepath.Base(filepath.Dir(config)) != "rviz" || fixed != c.fixed || n.Namespace != "" {
			t.Errorf("%s rviz:=true: -d %s -f %s in namespace %q", c.file, config, fixed, n.Namespace)
		}
		// The harness's share directory is gone; it links rviz/ of the repository.
		if _, err := os.Stat(filepath.Join(repo(t), "rviz", c.robot+".rviz")); err != nil {
			t.Errorf("%s: %v", c.file, err)
		}
		if v, _ := n.param("use_sim_time"); v != "false" {
			t.Errorf("%s: rviz2 use_sim_time %v", c.file, v)
		}
		r = launch(t, "robot_state_publisher", c.file, "rviz:=true")
		if _, _, _, ok := rvizNode(t, r); ok || len(r.Logs) != 1 || !strings.Contains(r.Logs[0], "rviz2 is not installed") {
			t.Errorf("%s rviz:=true without rviz2: logs %q", c.file, r.Logs)
		}
		if !c.namespaced {
			continue
		}
		r = launch(t, installed, c.file, "rviz:=true", "namespace:=robot1", "frame_prefix:=robot1/")
		n, config, fixed, ok = rvizNode(t, r)
		if !ok {
			t.Fatalf("%s: no rviz2", c.file)
		}
		got, err := os.ReadFile(config)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(config); err != nil {
			t.Error(err)
		}
		want, err := vizconfig.RViz(byName[c.robot].Namespaced("robot1", "robot1/"))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(yamlOf(t, got), yamlOf(t, want)) {
			t.Errorf("%s namespace:=robot1 frame_prefix:=robot1/: the configuration rviz2 gets is not vizconfig's for that namespace:\n%s", c.file, got)
		}
		if fixed != "robot1/"+c.fixed || n.Namespace != "robot1" {
			t.Errorf("%s: -f %s, namespace %q", c.file, fixed, n.Namespace)
		}
	}
}
