package vizconfig_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/vizconfig"
)

// Panel types of Foxglove Studio used in the layouts, and the values some
// of their settings take.
var (
	foxglovePanels  = []string{vizconfig.Panel3D, vizconfig.PanelImage, vizconfig.PanelPlot, vizconfig.PanelDiagnosticSummary, vizconfig.PanelRawMessages}
	followModes     = []string{"follow-pose", "follow-position", "follow-none"}
	timestampMethod = []string{"receiveTime", "headerStamp"}
)

// odometryFields are the numeric fields of nav_msgs/Odometry's twist a
// Plot can draw.
var odometryFields = []string{"twist.twist.linear.x", "twist.twist.linear.y", "twist.twist.linear.z",
	"twist.twist.angular.x", "twist.twist.angular.y", "twist.twist.angular.z"}

// leaves walks a layout tree, checking its splits, and returns its panel ids.
func leaves(t *testing.T, node any) []string {
	t.Helper()
	switch n := node.(type) {
	case string:
		return []string{n}
	case map[string]any:
		if d := n["direction"]; d != "row" && d != "column" {
			t.Errorf("split direction %v", d)
		}
		if p, ok := n["splitPercentage"].(float64); !ok || p <= 0 || p >= 100 {
			t.Errorf("splitPercentage %v", n["splitPercentage"])
		}
		if len(n) != 4 {
			t.Errorf("split with keys %v", n)
		}
		return append(leaves(t, n["first"]), leaves(t, n["second"])...)
	}
	t.Fatalf("layout node %T", node)
	return nil
}

// foxgloveDoc parses a layout and returns its panels' configurations by id.
func foxgloveDoc(t *testing.T, b []byte) map[string]map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, " ") != "configById globalVariables layout playbackConfig userNodes" {
		t.Errorf("top-level keys %v", keys)
	}
	configs := mapOf(t, doc["configById"], "configById")
	ids := leaves(t, doc["layout"])
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Errorf("panel %s twice in the layout", id)
		}
		seen[id] = true
		if _, ok := configs[id]; !ok {
			t.Errorf("panel %s in the layout has no configuration", id)
		}
	}
	out := map[string]map[string]any{}
	for id, c := range configs {
		if !seen[id] {
			t.Errorf("panel %s is configured but not in the layout", id)
		}
		if !contains(foxglovePanels, vizconfig.PanelType(id)) {
			t.Errorf("panel %s: unknown type", id)
		}
		out[id] = mapOf(t, c, id)
	}
	return out
}

func byType(panels map[string]map[string]any, panelType string) []map[string]any {
	var ids []string
	for id := range panels {
		if vizconfig.PanelType(id) == panelType {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	var out []map[string]any
	for _, id := range ids {
		out = append(out, panels[id])
	}
	return out
}

// TestFoxglove: each layout is one Foxglove Studio imports (every panel
// of the layout configured once, known panel types and settings), and
// names only topics the robot's nodes publish and frames on tf.
func TestFoxglove(t *testing.T) {
	for _, robot := range robots {
		t.Run(robot, func(t *testing.T) {
			g := publishedBy(t, robot)
			panels := foxgloveDoc(t, readFile(t, "foxglove/telebridge-"+robot+".json"))
			topic := func(what string, v any) {
				t.Helper()
				name, _ := v.(string)
				if err := g.checkTopic(name, nil); err != nil {
					t.Errorf("%s: %v", what, err)
				}
			}
			frame := func(what string, v any) {
				t.Helper()
				name, _ := v.(string)
				if err := g.checkFrame(name); err != nil {
					t.Errorf("%s: %v", what, err)
				}
			}
			views := byType(panels, vizconfig.Panel3D)
			if len(views) != 1 {
				t.Fatalf("%d 3D panels", len(views))
			}
			view := views[0]
			frame("3D followTf", view["followTf"])
			if !contains(followModes, view["followMode"].(string)) {
				t.Errorf("followMode %v", view["followMode"])
			}
			for name := range mapOf(t, view["topics"], "topics") {
				topic("3D topic", name)
			}
			layers := mapOf(t, view["layers"], "layers")
			var urdfs int
			for id, l := range layers {
				layer := mapOf(t, l, id)
				if layer["instanceId"] != id {
					t.Errorf("layer %s: instanceId %v", id, layer["instanceId"])
				}
				switch layer["layerId"] {
				case "foxglove.Grid":
					frame("grid", layer["frameId"])
				case "foxglove.Urdf":
					urdfs++
					if layer["sourceType"] != "topic" || layer["framePrefix"] != "" {
						t.Errorf("URDF layer %v", layer)
					}
					topic("URDF layer", layer["topic"])
				default:
					t.Errorf("layer %s: layerId %v", id, layer["layerId"])
				}
			}
			if urdfs != 1 {
				t.Errorf("%d URDF layers", urdfs)
			}
			var cams []string
			for _, p := range byType(panels, vizconfig.PanelImage) {
				mode := mapOf(t, p["imageMode"], "imageMode")
				topic("image", mode["imageTopic"])
				topic("calibration", mode["calibrationTopic"])
				cams = append(cams, strings.Split(mode["imageTopic"].(string), "/")[1])
			}
			if want := map[string]string{"servosila": "front_left front_right rear zoom"}[robot]; strings.Join(cams, " ") != want {
				t.Errorf("image panels %v, want %q", cams, want)
			}
			plots := byType(panels, vizconfig.PanelPlot)
			if want := map[string]int{"servosila": 1, "furbot": 1}[robot]; len(plots) != want {
				t.Errorf("%d plots, want %d", len(plots), want)
			}
			for _, p := range plots {
				if !contains([]string{"timestamp", "index", "custom", "currentCustom"}, p["xAxisVal"].(string)) ||
					!contains([]string{"floating", "top", "left", "none"}, p["legendDisplay"].(string)) {
					t.Errorf("plot settings %v", p)
				}
				paths, _ := p["paths"].([]any)
				if len(paths) != 2 {
					t.Errorf("plot paths %v, want linear.x and angular.z", paths)
				}
				for _, x := range paths {
					path := mapOf(t, x, "plot path")
					value, _ := path["value"].(string)
					name, field, _ := strings.Cut(value, ".")
					topic("plot", name)
					if !contains(odometryFields, field) || path["enabled"] != true ||
						!contains(timestampMethod, path["timestampMethod"].(string)) {
						t.Errorf("plot path %v", path)
					}
				}
			}
			diags := byType(panels, vizconfig.PanelDiagnosticSummary)
			if want := map[string]int{"servosila": 1, "furbot": 1, "arm": 1}[robot]; len(diags) != want {
				t.Errorf("%d diagnostics panels, want %d", len(diags), want)
			}
			for _, d := range diags {
				topic("diagnostics", d["topicToRender"])
			}
			raws := byType(panels, vizconfig.PanelRawMessages)
			if len(raws) != 1 {
				t.Errorf("%d joint state panels", len(raws))
			}
			for _, r := range raws {
				topic("joint states", r["topicPath"])
				if !strings.HasSuffix(r["topicPath"].(string), "joint_states") {
					t.Errorf("raw messages of %v", r["topicPath"])
				}
			}
		})
	}
}

// Under a namespace, the layout's topics and frames follow it; the global
// /diagnostics and the arm's absolute /joint_states stay where they are.
func TestFoxgloveNamespaced(t *testing.T) {
	files, err := vizconfig.Files(cameraParams(t), "robot1", "robot1/")
	if err != nil {
		t.Fatal(err)
	}
	panels := foxgloveDoc(t, files["foxglove/telebridge-servosila.json"])
	view := byType(panels, vizconfig.Panel3D)[0]
	urdf := mapOf(t, mapOf(t, view["layers"], "layers")["urdf"], "urdf")
	if view["followTf"] != "robot1/base_link" || urdf["framePrefix"] != "robot1/" || urdf["topic"] != "/robot1/robot_description" {
		t.Errorf("3D panel: followTf %v, URDF layer %v", view["followTf"], urdf)
	}
	if d := byType(panels, vizconfig.PanelDiagnosticSummary)[0]["topicToRender"]; d != "/diagnostics" {
		t.Errorf("diagnostics %v", d)
	}
	if img := mapOf(t, byType(panels, vizconfig.PanelImage)[0]["imageMode"], "imageMode")["imageTopic"]; img != "/robot1/front_left/image_raw" {
		t.Errorf("image %v", img)
	}
	arm := foxgloveDoc(t, files["foxglove/telebridge-arm.json"])
	if js := byType(arm, vizconfig.PanelRawMessages)[0]["topicPath"]; js != "/joint_states" {
		t.Errorf("arm joint states %v", js)
	}
}
