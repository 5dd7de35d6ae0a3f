package vizconfig_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/vizconfig"
	"gopkg.in/yaml.v3"
)

// The properties each display class of RViz2 Humble reads
// (rviz_default_plugins/src/.../displays/*, rviz_common's Display); a key
// outside these would be ignored silently.
var rvizProperties = map[string][]string{
	vizconfig.ClassGrid: {"Alpha", "Cell Size", "Color", "Line Style", "Normal Cell Count", "Offset", "Plane",
		"Plane Cell Count", "Reference Frame"},
	vizconfig.ClassRobotModel: {"Alpha", "Collision Enabled", "Description File", "Description Source", "Description Topic",
		"Links", "Mass Properties", "TF Prefix", "Update Interval", "Visual Enabled"},
	vizconfig.ClassTF: {"Frame Timeout", "Frames", "Marker Scale", "Show Arrows", "Show Axes", "Show Names", "Tree",
		"Update Interval"},
	vizconfig.ClassOdometry: {"Angle Tolerance", "Covariance", "Keep", "Position Tolerance", "Shape", "Topic"},
	vizconfig.ClassImage:    {"Max Value", "Median window", "Min Value", "Normalize Range", "Topic"},
}

// Every display has these (rviz_common::Display).
var displayProperties = []string{"Class", "Enabled", "Name", "Value"}

// rvizQoS turns an RViz topic property's QoS children into a profile.
func rvizQoS(topic map[string]any) (qos.Profile, error) {
	var p qos.Profile
	rel, dur, hist := topic["Reliability Policy"], topic["Durability Policy"], topic["History Policy"]
	switch rel {
	case "Reliable":
		p.Reliability = qos.Reliable
	case "Best Effort":
		p.Reliability = qos.BestEffort
	default:
		return p, fmt.Errorf("Reliability Policy %v", rel)
	}
	switch dur {
	case "Volatile":
		p.Durability = qos.Volatile
	case "Transient Local":
		p.Durability = qos.TransientLocal
	default:
		return p, fmt.Errorf("Durability Policy %v", dur)
	}
	if hist != "Keep Last" {
		return p, fmt.Errorf("History Policy %v", hist)
	}
	depth, ok := topic["Depth"].(int)
	if !ok || depth < 1 {
		return p, fmt.Errorf("Depth %v", topic["Depth"])
	}
	p.History, p.Depth = qos.KeepLast, depth
	return p, nil
}

func mapOf(t *testing.T, v any, what string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s is %T, not a mapping", what, v)
	}
	return m
}

// rvizDoc parses a configuration and returns its Visualization Manager
// and displays by class.
func rvizDoc(t *testing.T, b []byte) (manager map[string]any, displays map[string][]map[string]any) {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for k := range doc {
		if k != "Panels" && k != "Visualization Manager" {
			t.Errorf("top-level key %q", k)
		}
	}
	for _, p := range doc["Panels"].([]any) {
		class := mapOf(t, p, "panel")["Class"]
		if class != "rviz_common/Displays" && class != "rviz_common/Views" {
			t.Errorf("panel %v", class)
		}
	}
	manager = mapOf(t, doc["Visualization Manager"], "Visualization Manager")
	displays = map[string][]map[string]any{}
	list, ok := manager["Displays"].([]any)
	if !ok {
		t.Fatalf("Displays is %T", manager["Displays"])
	}
	for _, d := range list {
		m := mapOf(t, d, "display")
		class, _ := m["Class"].(string)
		allowed, known := rvizProperties[class]
		if !known {
			t.Errorf("display class %q is not one of RViz2 Humble's used here", class)
			continue
		}
		keys := append(append([]string{}, displayProperties...), allowed...)
		for k := range m {
			if !contains(keys, k) {
				t.Errorf("%s: property %q is not read by RViz2 Humble", class, k)
			}
		}
		if m["Enabled"] != true || m["Value"] != true {
			t.Errorf("%s %v: not enabled", class, m["Name"])
		}
		displays[class] = append(displays[class], m)
	}
	return manager, displays
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestRViz: each configuration parses as RViz2 Humble reads it, names only
// topics the robot's nodes publish, with subscriber profiles that match
// the publishers' (images best effort, so a best-effort or a reliable
// camera matches), and only frames that are on tf.
func TestRViz(t *testing.T) {
	for _, robot := range robots {
		t.Run(robot, func(t *testing.T) {
			g := publishedBy(t, robot)
			manager, displays := rvizDoc(t, readFile(t, "rviz/"+robot+".rviz"))
			options := mapOf(t, manager["Global Options"], "Global Options")
			fixed, _ := options["Fixed Frame"].(string)
			if err := g.checkFrame(fixed); err != nil {
				t.Error("Fixed Frame:", err)
			}
			if want := map[string]string{"servosila": "odom", "furbot": "odom", "arm": "world"}[robot]; fixed != want {
				t.Errorf("Fixed Frame %q, want %q", fixed, want)
			}
			view := mapOf(t, mapOf(t, manager["Views"], "Views")["Current"], "Current view")
			if view["Class"] != vizconfig.ClassOrbit {
				t.Errorf("view %v", view["Class"])
			}
			if tf, _ := view["Target Frame"].(string); tf != vizconfig.RVizFixedFrameKey {
				if err := g.checkFrame(tf); err != nil {
					t.Error("Target Frame:", err)
				}
			}
			for _, class := range []string{vizconfig.ClassGrid, vizconfig.ClassRobotModel, vizconfig.ClassTF} {
				if len(displays[class]) != 1 {
					t.Errorf("%d %s displays, want 1", len(displays[class]), class)
				}
			}
			wantOdom := map[string]int{"servosila": 1, "furbot": 1}[robot]
			if len(displays[vizconfig.ClassOdometry]) != wantOdom {
				t.Errorf("%d odometry displays, want %d", len(displays[vizconfig.ClassOdometry]), wantOdom)
			}
			var cams []string
			for _, d := range displays[vizconfig.ClassImage] {
				cams = append(cams, strings.TrimSuffix(d["Name"].(string), " camera"))
			}
			sort.Strings(cams)
			if want := map[string]string{"servosila": "front_left front_right rear zoom"}[robot]; strings.Join(cams, " ") != want {
				t.Errorf("image displays %v, want %q", cams, want)
			}
			model := displays[vizconfig.ClassRobotModel][0]
			if model["Description Source"] != "Topic" || model["TF Prefix"] != "" {
				t.Errorf("robot model: source %v, TF Prefix %q", model["Description Source"], model["TF Prefix"])
			}
			for class, list := range displays {
				for _, d := range list {
					key := "Topic"
					if class == vizconfig.ClassRobotModel {
						key = "Description Topic"
					}
					if class == vizconfig.ClassGrid || class == vizconfig.ClassTF {
						continue
					}
					topic := mapOf(t, d[key], class+" "+key)
					for k := range topic {
						if !contains([]string{"Depth", "Durability Policy", "History Policy", "Reliability Policy", "Value"}, k) &&
							!(k == "Filter size" && class == vizconfig.ClassOdometry) {
							t.Errorf("%s %s: QoS property %q", class, key, k)
						}
					}
					sub, err := rvizQoS(topic)
					if err != nil {
						t.Errorf("%s %s: %v", class, key, err)
						continue
					}
					name, _ := topic["Value"].(string)
					if err := g.checkTopic(name, &sub); err != nil {
						t.Errorf("%s: %v", class, err)
					}
					switch class {
					case vizconfig.ClassRobotModel:
						// robot_state_publisher latches the description:
						// only a transient-local subscriber gets it late.
						if sub.Durability != qos.TransientLocal || sub.Reliability != qos.Reliable {
							t.Errorf("robot_description subscribed %+v, want reliable transient local", sub)
						}
					case vizconfig.ClassImage:
						for _, pub := range []qos.Profile{qos.SensorData, qos.Default} {
							if !qos.Compatible(pub, sub) {
								t.Errorf("image %s: subscriber %+v misses a publisher %+v", name, sub, pub)
							}
						}
					}
				}
			}
		})
	}
}

// Under a namespace and a frame prefix, topics move into the namespace
// and frames take the prefix; the robot model finds its links through its
// TF Prefix (RViz adds the '/').
func TestRVizNamespaced(t *testing.T) {
	files, err := vizconfig.Files(cameraParams(t), "robot1", "robot1/")
	if err != nil {
		t.Fatal(err)
	}
	manager, displays := rvizDoc(t, files["rviz/servosila.rviz"])
	if f := mapOf(t, manager["Global Options"], "Global Options")["Fixed Frame"]; f != "robot1/odom" {
		t.Errorf("Fixed Frame %v", f)
	}
	if f := mapOf(t, mapOf(t, manager["Views"], "Views")["Current"], "view")["Target Frame"]; f != "robot1/base_link" {
		t.Errorf("Target Frame %v", f)
	}
	model := displays[vizconfig.ClassRobotModel][0]
	if model["TF Prefix"] != "robot1" || mapOf(t, model["Description Topic"], "topic")["Value"] != "/robot1/robot_description" {
		t.Errorf("robot model %v", model)
	}
	if v := mapOf(t, displays[vizconfig.ClassOdometry][0]["Topic"], "topic")["Value"]; v != "/robot1/odom" {
		t.Errorf("odometry %v", v)
	}
	for _, d := range displays[vizconfig.ClassImage] {
		if v := mapOf(t, d["Topic"], "topic")["Value"].(string); !strings.HasPrefix(v, "/robot1/") {
			t.Errorf("image %v", v)
		}
	}
}
