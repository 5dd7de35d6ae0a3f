package launchtest

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/console/graph"
	jognode "github.com/telebridge/telebridge/pkg/jog/node"
)

// remaps returns a node's remappings as "from:=to".
func remaps(n node) []string {
	var out []string
	for _, p := range n.Remappings {
		out = append(out, strings.Join(p, ":="))
	}
	return out
}

// twist_mux:=true starts twist_mux in the robot's namespace with the
// shipped configuration, its output on the robot's cmd_vel, and the
// console (console:=true) on the operator's input.
func TestTwistMuxLaunch(t *testing.T) {
	for _, file := range []string{"servosila.launch.py", "furbot.launch.py"} {
		r := launch(t, "robot_state_publisher", file, "namespace:=r1")
		if _, ok := r.node("twist_mux"); ok {
			t.Errorf("%s: twist_mux without twist_mux:=true", file)
		}
		r = launch(t, "robot_state_publisher", file, "namespace:=r1", "twist_mux:=true", "console:=true")
		mux, ok := r.node("twist_mux")
		if !ok || mux.Package != "twist_mux" || mux.Executable != "twist_mux" || mux.Namespace != "r1" {
			t.Fatalf("%s: twist_mux %+v", file, mux)
		}
		if f, _ := mux.Parameters[0].(string); filepath.Base(f) != "twist_mux.yaml" {
			t.Errorf("%s: twist_mux parameters %v", file, mux.Parameters)
		}
		if got := remaps(mux); !slices.Equal(got, []string{"cmd_vel_out:=cmd_vel"}) {
			t.Errorf("%s: twist_mux remappings %v", file, got)
		}
		con, ok := r.node(graph.NodeName)
		if v, _ := con.param("twist_mux"); !ok || v != true {
			t.Errorf("%s: console twist_mux = %v", file, v)
		}
	}
}

// jog.launch.py: robot_state_publisher with the arm's URDF; namespace puts
// the nodes, jog_server's interfaces, arm_sim's joint_states and the
// default trajectory topic under it; use_sim_time is not offered (the
// deadman runs on the wall clock, jog_server refuses simulated time).
func TestJogLaunchNamespace(t *testing.T) {
	r := launch(t, "robot_state_publisher", "jog.launch.py", "sim:=true")
	checkStatePublisher(t, r, "ur5_like.urdf", "", "")
	srv, _ := r.node(jognode.Name)
	if v, _ := srv.param(jognode.ParamInterfaceNamespace); v != "" || srv.Namespace != "" {
		t.Errorf("default: jog_server namespace %q, interface_namespace %v", srv.Namespace, v)
	}
	if v, set := srv.param("use_sim_time"); set {
		t.Errorf("jog_server is given use_sim_time %v", v)
	}
	// On top of a robot's own launch file (servosila_arm.sh): no second
	// robot_state_publisher.
	if r := launch(t, "robot_state_publisher", "jog.launch.py", "description:=false"); len(r.Logs) != 1 || !strings.Contains(r.Logs[0], "description:=false") {
		t.Errorf("description:=false: logs %q", r.Logs)
	} else if _, ok := r.node("robot_state_publisher"); ok {
		t.Error("description:=false started robot_state_publisher")
	}

	r = launch(t, "robot_state_publisher", "jog.launch.py", "sim:=true", "namespace:=arm2", "frame_prefix:=arm2/", "console:=true")
	checkStatePublisher(t, r, "ur5_like.urdf", "/arm2", "arm2/")
	srv, _ = r.node(jognode.Name)
	sim, _ := r.node("arm_sim")
	traj := "/arm2" + jognode.TrajectoryTopic
	if v, _ := srv.param(jognode.ParamInterfaceNamespace); v != "/arm2" || srv.Namespace != "/arm2" {
		t.Errorf("jog_server namespace %q, interface_namespace %v", srv.Namespace, v)
	}
	if a, b := first(srv.param(jognode.ParamTrajectoryTopic)), first(sim.param(jognode.ParamTrajectoryTopic)); a != traj || b != traj {
		t.Errorf("trajectory_topic: jog_server %v, arm_sim %v, want %s", a, b, traj)
	}
	if got := remaps(sim); sim.Namespace != "/arm2" || !slices.Equal(got, []string{"/joint_states:=/arm2/joint_states"}) {
		t.Errorf("arm_sim namespace %q remappings %v", sim.Namespace, got)
	}
	// The parameters file is re-keyed for the namespaced node.
	f, _ := srv.Parameters[0].(string)
	b, err := os.ReadFile(f)
	if err != nil || !strings.HasPrefix(string(b), "/arm2/jog_server:") || !strings.Contains(string(b), "heartbeat_timeout") {
		t.Errorf("jog_server parameters file %s: %v\n%.200s", f, err, b)
	}
	_ = os.Remove(f)
	con, _ := r.node(graph.NodeName)
	if v, _ := con.param("jog_namespace"); v != "/arm2" {
		t.Errorf("console jog_namespace %v", v)
	}
	if slices.Contains(r.Arguments["jog.launch.py"], "use_sim_time") {
		t.Error("jog.launch.py offers use_sim_time")
	}
}

func first(v any, _ bool) any { return v }

// Every package a launch file starts or looks up is a dependency in
// package.xml (Nav2's, in the example that needs a Nav2 install, aside).
func TestPackageXMLExecDepends(t *testing.T) {
	root := repo(t)
	b, err := os.ReadFile(filepath.Join(root, "package.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Depend     []string `xml:"depend"`
		ExecDepend []string `xml:"exec_depend"`
	}
	if err := xml.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{"telebridge": true}
	for _, d := range append(pkg.Depend, pkg.ExecDepend...) {
		have[d] = true
	}
	uses := regexp.MustCompile(`(?:package=|get_package_share_directory\()"([a-z0-9_]+)"`)
	files, _ := filepath.Glob(filepath.Join(root, "launch", "*.py"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uses.FindAllStringSubmatch(string(src), -1) {
			if p := m[1]; !have[p] && !strings.HasPrefix(p, "nav2_") {
				t.Errorf("%s uses %s, which package.xml does not declare", filepath.Base(f), p)
			}
		}
		if strings.Contains(string(src), "import yaml") && !have["python3-yaml"] {
			t.Errorf("%s imports yaml: python3-yaml is not an exec_depend", filepath.Base(f))
		}
	}
}

// nav2_example.launch.py twist_mux:=true: the robot with twist_mux, Nav2's
// controller on cmd_vel_nav (below the operator's cmd_vel_teleop).
func TestNav2ExampleTwistMux(t *testing.T) {
	nav2 := "robot_state_publisher,nav2_controller,nav2_lifecycle_manager,nav2_regulated_pure_pursuit_controller"
	for _, robot := range []string{"servosila", "furbot"} {
		r := launch(t, nav2, "nav2_example.launch.py", "robot:="+robot, "twist_mux:=true")
		ctl, _ := r.node("controller_server")
		if _, ok := r.node("twist_mux"); !ok || !slices.Equal(remaps(ctl), []string{"cmd_vel:=cmd_vel_nav"}) {
			t.Errorf("%s twist_mux:=true: twist_mux started %v, controller_server remappings %v", robot, ok, remaps(ctl))
		}
		r = launch(t, nav2, "nav2_example.launch.py", "robot:="+robot)
		ctl, _ = r.node("controller_server")
		if _, ok := r.node("twist_mux"); ok || len(remaps(ctl)) != 0 {
			t.Errorf("%s: twist_mux started %v, controller_server remappings %v", robot, ok, remaps(ctl))
		}
	}
}
