package launchtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/internal/testkit/urdftest"
	"github.com/telebridge/telebridge/pkg/console/graph"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	jognode "github.com/telebridge/telebridge/pkg/jog/node"
	servosilanode "github.com/telebridge/telebridge/pkg/servosila/node"
	"gopkg.in/yaml.v3"
)

// python is Debian's interpreter (the launch files are ROS 2's Python, not
// pyenv's).
const python = "/usr/bin/python3"

type node struct {
	Package    string `json:"package"`
	Executable string `json:"executable"`
	Name       string `json:"name"`
	Namespace  string `json:"namespace"`
	Parameters []any  `json:"parameters"`
	// Remappings are the node's [from, to] pairs.
	Remappings [][]string `json:"remappings"`
	Arguments  []any      `json:"arguments"`
}

// param returns the value of parameter name in the node's parameter dicts
// (the last one wins, as in ROS), and whether a file was given too.
func (n node) param(name string) (v any, ok bool) {
	for _, p := range n.Parameters {
		if m, isMap := p.(map[string]any); isMap {
			if x, has := m[name]; has {
				v, ok = x, true
			}
		}
	}
	return v, ok
}

type result struct {
	Nodes     []node           `json:"nodes"`
	Processes []map[string]any `json:"processes"`
	Logs      []string         `json:"logs"`
	Includes  []string         `json:"includes"`
	// Arguments are the declared launch arguments of each file.
	Arguments map[string][]string `json:"arguments"`
}

func (r result) node(name string) (node, bool) {
	for _, n := range r.Nodes {
		if n.Name == name {
			return n, true
		}
	}
	return node{}, false
}

func repo(t *testing.T) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// launch evaluates launch/<file> with installed (besides telebridge) and
// the name:=value arguments.
func launch(t *testing.T, installed, file string, args ...string) result {
	t.Helper()
	if _, err := os.Stat(python); err != nil {
		t.Skipf("%s not found: the launch files cannot be evaluated here", python)
	}
	// cameras.launch.py reads its parameter file with PyYAML, as ROS 2's
	// Python has it (Debian python3-yaml).
	if out, err := exec.Command(python, "-c", "import yaml").CombinedOutput(); err != nil {
		t.Skipf("%s has no PyYAML (%v: %s): the launch files cannot be evaluated here", python, err, out)
	}
	root := repo(t)
	cmd := exec.Command(python, append([]string{filepath.Join("testdata", "harness.py"), root, installed, filepath.Join(root, "launch", file)}, args...)...)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", file, args, err, stderr.String())
	}
	var r result
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("%s: %v\n%s", file, err, stdout.String())
	}
	return r
}

func description(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(urdftest.Path(file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkStatePublisher: robot_state_publisher runs in the namespace with the
// description's text and the frame prefix.
func checkStatePublisher(t *testing.T, r result, urdf, namespace, prefix string) {
	t.Helper()
	rsp, ok := r.node("robot_state_publisher")
	if !ok {
		t.Fatalf("no robot_state_publisher: %+v", r)
	}
	if rsp.Package != "robot_state_publisher" || rsp.Namespace != namespace {
		t.Errorf("robot_state_publisher %+v", rsp)
	}
	if d, _ := rsp.param("robot_description"); d != description(t, urdf) {
		t.Errorf("robot_description is not %s", urdf)
	}
	if p, _ := rsp.param("frame_prefix"); p != prefix {
		t.Errorf("frame_prefix %v, want %q", p, prefix)
	}
}

func TestServosilaLaunch(t *testing.T) {
	r := launch(t, "robot_state_publisher", "servosila.launch.py", "namespace:=robot1", "frame_prefix:=robot1/")
	drv, ok := r.node(servosilanode.Name)
	if !ok || len(r.Nodes) != 2 || len(r.Processes) != 0 {
		t.Fatalf("want the driver and robot_state_publisher only: %+v", r)
	}
	def := servosilanode.DefaultConfig()
	for name, want := range map[string]string{"odom_frame": "robot1/" + def.OdomFrame, "base_frame": "robot1/" + def.BaseFrame, "robot_address": "10.42.0.1:10000"} {
		if v, _ := drv.param(name); v != want {
			t.Errorf("servosila_driver %s = %v, want %q", name, v, want)
		}
	}
	if drv.Namespace != "robot1" {
		t.Errorf("driver namespace %q", drv.Namespace)
	}
	checkStatePublisher(t, r, servosilanode.DescriptionFile, "robot1", "robot1/")

	// Defaults: no namespace, no prefix; sim:=true adds the simulator and
	// points the driver at it.
	r = launch(t, "robot_state_publisher", "servosila.launch.py", "sim:=true")
	drv, _ = r.node(servosilanode.Name)
	if v, _ := drv.param("odom_frame"); v != def.OdomFrame || len(r.Processes) != 1 {
		t.Errorf("sim:=true: odom_frame %v, processes %v", v, r.Processes)
	}
	if v, _ := drv.param("robot_address"); v != "127.0.0.1:10000" {
		t.Errorf("sim:=true: driver at %v", v)
	}
	checkStatePublisher(t, r, servosilanode.DescriptionFile, "", "")

	// sim_port moves the simulator and the driver together.
	r = launch(t, "robot_state_publisher", "servosila.launch.py", "sim:=true", "sim_port:=10500")
	drv, _ = r.node(servosilanode.Name)
	if v, _ := drv.param("robot_address"); v != "127.0.0.1:10500" || len(r.Processes) != 1 ||
		!strings.Contains(fmt.Sprint(r.Processes[0]["cmd"]), "--listen 127.0.0.1:10500") {
		t.Errorf("sim_port:=10500: driver at %v, processes %v", v, r.Processes)
	}
}

// Without robot_state_publisher, or with description:=false, the robot
// runs alone and the launch says why.
func TestLaunchWithoutDescription(t *testing.T) {
	for _, file := range []string{"servosila.launch.py", "furbot.launch.py"} {
		for _, c := range []struct {
			installed, arg, log string
		}{
			{"", "sim:=false", "robot_state_publisher is not installed"},
			{"robot_state_publisher", "description:=false", "description:=false"},
		} {
			r := launch(t, c.installed, file, c.arg)
			if _, ok := r.node("robot_state_publisher"); ok || len(r.Nodes) == 0 {
				t.Errorf("%s %s (installed %q): nodes %+v", file, c.arg, c.installed, r.Nodes)
			}
			if len(r.Logs) != 1 || !strings.Contains(r.Logs[0], c.log) {
				t.Errorf("%s %s: logs %q, want one saying %q", file, c.arg, r.Logs, c.log)
			}
		}
	}
}

func TestFurbotLaunch(t *testing.T) {
	r := launch(t, "robot_state_publisher", "furbot.launch.py", "namespace:=f1", "frame_prefix:=f1/")
	for _, name := range []string{furbotnode.BridgeName, furbotnode.TwistName, furbotnode.OdometryName} {
		n, ok := r.node(name)
		if !ok || n.Namespace != "f1" {
			t.Errorf("%s: %+v", name, n)
		}
	}
	odom, _ := r.node(furbotnode.OdometryName)
	bridge, _ := r.node(furbotnode.BridgeName)
	def := furbotnode.DefaultOdomNodeConfig()
	for _, c := range []struct {
		n          node
		name, want string
	}{
		{odom, "odom_frame", "f1/" + def.OdomFrame},
		{odom, "base_frame", "f1/" + def.BaseFrame},
		{bridge, "base_frame", "f1/" + def.BaseFrame},
	} {
		if v, _ := c.n.param(c.name); v != c.want {
			t.Errorf("%s %s = %v, want %q", c.n.Name, c.name, v, c.want)
		}
	}
	checkStatePublisher(t, r, furbotnode.DescriptionFile, "f1", "f1/")
}

// Every camera's frame id is an optical frame of the Servosila
// description, and cameras.launch.py prefixes it.
func TestCameraFrames(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repo(t), "params", "camera_publisher.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]struct {
		Params map[string]any `yaml:"ros__parameters"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	params := doc["camera_publisher"].Params
	robot, err := urdftest.Load(urdftest.Path(servosilanode.DescriptionFile))
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]bool{}
	for _, l := range robot.Links {
		links[l.Name] = true
	}
	cams, _ := params["cameras"].([]any)
	if len(cams) != 4 {
		t.Fatalf("cameras %v", params["cameras"])
	}
	r := launch(t, "", "cameras.launch.py", "frame_prefix:=robot1/", "namespace:=robot1")
	pub, ok := r.node("camera_publisher")
	if !ok || pub.Namespace != "robot1" {
		t.Fatalf("camera_publisher: %+v", r.Nodes)
	}
	for _, c := range cams {
		name := c.(string)
		cam, _ := params[name].(map[string]any)
		frame, _ := cam["frame_id"].(string)
		if !links[frame] || !strings.HasSuffix(frame, "_optical_frame") {
			t.Errorf("camera %s: frame_id %q is not an optical frame of %s", name, frame, servosilanode.DescriptionFile)
		}
		if v, _ := pub.param(name + ".frame_id"); v != "robot1/"+frame {
			t.Errorf("camera %s: launched with frame_id %v, want %q", name, v, "robot1/"+frame)
		}
	}
	// The robot's own launch publishes the description: not twice.
	if _, ok := r.node("robot_state_publisher"); ok {
		t.Error("cameras.launch.py starts robot_state_publisher by default")
	}
}

func TestNav2ExampleLaunch(t *testing.T) {
	nav2 := "robot_state_publisher,nav2_controller,nav2_lifecycle_manager,nav2_regulated_pure_pursuit_controller"
	for _, robot := range []string{"servosila", "furbot"} {
		r := launch(t, nav2, "nav2_example.launch.py", "robot:="+robot)
		ctl, ok := r.node("controller_server")
		lm, ok2 := r.node("lifecycle_manager_navigation")
		if !ok || !ok2 || ctl.Package != "nav2_controller" || lm.Package != "nav2_lifecycle_manager" {
			t.Fatalf("%s: Nav2 nodes %+v", robot, r.Nodes)
		}
		want := "nav2_" + robot + ".yaml"
		if f, _ := ctl.Parameters[0].(string); filepath.Base(f) != want {
			t.Errorf("%s: controller_server parameters %v, want %s", robot, ctl.Parameters, want)
		}
		if len(r.Includes) != 1 || r.Includes[0] != robot+".launch.py" || len(r.Processes) != 1 {
			t.Errorf("%s: includes %v, processes %v (want the robot's launch with its simulator)", robot, r.Includes, r.Processes)
		}
		r = launch(t, "robot_state_publisher", "nav2_example.launch.py", "robot:="+robot)
		if _, ok := r.node("controller_server"); ok || len(r.Logs) != 1 || !strings.Contains(r.Logs[0], "Nav2 is not started") {
			t.Errorf("%s without Nav2: nodes %+v, logs %q", robot, r.Nodes, r.Logs)
		}
	}
}

// simPrint returns the simulator's --print argument (the one process).
func simPrint(t *testing.T, r result) string {
	t.Helper()
	if len(r.Processes) != 1 {
		t.Fatalf("processes %v, want the simulator", r.Processes)
	}
	cmd, _ := r.Processes[0]["cmd"].([]any)
	for _, a := range cmd {
		if s, ok := a.(string); ok && strings.HasPrefix(s, "--print=") {
			return strings.TrimPrefix(s, "--print=")
		}
	}
	t.Fatalf("simulator command %v has no --print=", cmd)
	return ""
}

// The simulators print their truth every 200 ms by default; sim_print
// (which nav2_example.launch.py passes on) sets the interval, one argument
// of the simulator's command line.
func TestSimPrint(t *testing.T) {
	for _, c := range []struct {
		file string
		args []string
		want string
	}{
		{"servosila.launch.py", []string{"sim:=true"}, "200ms"},
		{"furbot.launch.py", []string{"sim:=true"}, "200ms"},
		{"servosila.launch.py", []string{"sim:=true", "sim_print:=50ms"}, "50ms"},
		{"furbot.launch.py", []string{"sim:=true", "sim_print:=50ms"}, "50ms"},
		{"nav2_example.launch.py", []string{"robot:=servosila", "sim_print:=50ms"}, "50ms"},
		{"nav2_example.launch.py", []string{"robot:=furbot", "sim_print:=50ms"}, "50ms"},
		{"nav2_example.launch.py", []string{"robot:=furbot"}, "200ms"},
	} {
		if got := simPrint(t, launch(t, "robot_state_publisher", c.file, c.args...)); got != c.want {
			t.Errorf("%s %v: --print=%s, want %s", c.file, c.args, got, c.want)
		}
	}
}

// nav2_example.launch.py passes the simulator ports on to the robot's
// launch, so that its runs keep apart from other test runs too.
func TestNav2ExampleSimPorts(t *testing.T) {
	for _, c := range []struct {
		robot string
		args  []string
		want  []string // in the simulator's command line
	}{
		{"servosila", []string{"sim_port:=21510"}, []string{"127.0.0.1:21510"}},
		{"furbot", []string{"sim_vehicle_port:=21511", "sim_bridge_port:=21512"}, []string{"127.0.0.1:21511", "127.0.0.1:21512"}},
		{"servosila", nil, []string{"127.0.0.1:10000"}},
		{"furbot", nil, []string{"127.0.0.1:18004", "127.0.0.1:18003"}},
	} {
		r := launch(t, "robot_state_publisher", "nav2_example.launch.py", append([]string{"robot:=" + c.robot}, c.args...)...)
		if len(r.Processes) != 1 {
			t.Fatalf("%s %v: processes %v", c.robot, c.args, r.Processes)
		}
		cmd, _ := r.Processes[0]["cmd"].([]any)
		line := ""
		for _, a := range cmd {
			s, _ := a.(string)
			line += " " + s
		}
		for _, w := range c.want {
			if !strings.Contains(line, " "+w) {
				t.Errorf("%s %v: simulator command %q lacks %s", c.robot, c.args, line, w)
			}
		}
	}
}

// console:=true on a robot's launch file includes console.launch.py with
// that robot's panel only, in the robot's namespace, on console_listen,
// with the console's own parameters file (an include inherits the
// including file's params_file otherwise); without it, no console.
func TestConsoleInclude(t *testing.T) {
	for _, c := range []struct {
		file string
		args []string
		want map[string]any // operator_console parameters
	}{
		{"servosila.launch.py", []string{"namespace:=robot1", "console_listen:=127.0.0.1:9000"},
			map[string]any{"servosila": true, "furbot": false, "jog": false, "servosila_namespace": "robot1", "listen": "127.0.0.1:9000"}},
		{"furbot.launch.py", []string{"namespace:=f1", "sim:=true"},
			map[string]any{"servosila": false, "furbot": true, "jog": false, "furbot_namespace": "f1", "listen": "127.0.0.1:8080"}},
		{"jog.launch.py", []string{"sim:=true", "fixed_frame:=base", "flange_frame:=flange", "params_file:=/p/jog.yaml"},
			map[string]any{"servosila": false, "furbot": false, "jog": true, "jog_base_link": "base", "jog_tip_link": "flange",
				"jog_params_file": "/p/jog.yaml"}},
	} {
		r := launch(t, "robot_state_publisher", c.file, c.args...)
		if _, ok := r.node(graph.NodeName); ok || len(r.Includes) != 0 {
			t.Errorf("%s without console:=true: includes %v", c.file, r.Includes)
		}
		r = launch(t, "robot_state_publisher", c.file, append(c.args, "console:=true")...)
		con, ok := r.node(graph.NodeName)
		if !ok || len(r.Includes) != 1 || r.Includes[0] != "console.launch.py" {
			t.Fatalf("%s console:=true: includes %v, nodes %+v", c.file, r.Includes, r.Nodes)
		}
		for name, want := range c.want {
			if v, _ := con.param(name); v != want {
				t.Errorf("%s console:=true: operator_console %s = %v, want %v", c.file, name, v, want)
			}
		}
		if f, _ := con.Parameters[0].(string); filepath.Base(f) != "operator_console.yaml" {
			t.Errorf("%s console:=true: the console's parameters file is %v", c.file, con.Parameters[0])
		}
		if c.file == "jog.launch.py" {
			if u, _ := con.param("jog_urdf"); !strings.HasSuffix(fmt.Sprint(u), "ur5_like.urdf") {
				t.Errorf("jog console: jog_urdf %v, want the jog stack's arm", u)
			}
		}
	}
}

// TestJogStampTrajectories: jog.launch.py stamps jog_server's targets
// with sim:=true (arm_sim runs on the same clock), leaves a real
// controller to the parameters file (default false), and follows an
// explicit stamp_trajectories either way.
func TestJogStampTrajectories(t *testing.T) {
	for _, c := range []struct {
		args []string
		want any // nil: not set by the launch file
	}{
		{[]string{"sim:=true"}, true},
		{nil, nil},
		{[]string{"sim:=true", "stamp_trajectories:=false"}, false},
		{[]string{"stamp_trajectories:=true"}, true},
	} {
		r := launch(t, "robot_state_publisher", "jog.launch.py", c.args...)
		n, ok := r.node("jog_server")
		if !ok {
			t.Fatalf("%v: no jog_server in %+v", c.args, r.Nodes)
		}
		v, set := n.param(jognode.ParamStampTrajectories)
		if (c.want == nil && set) || (c.want != nil && v != c.want) {
			t.Errorf("%v: stamp_trajectories %v (set %v), want %v", c.args, v, set, c.want)
		}
	}
}
