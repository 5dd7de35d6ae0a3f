package vizconfig

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Foxglove Studio panel types the layouts use.
const (
	Panel3D                = "3D"
	PanelImage             = "Image"
	PanelPlot              = "Plot"
	PanelDiagnosticSummary = "DiagnosticSummary"
	PanelRawMessages       = "RawMessages"
)

// foxgloveTitleKey is the panel configuration key of a panel's title.
const foxgloveTitleKey = "foxglovePanelTitle"

// PanelID returns the layout id of a panel: its type, "!", then a name
// unique in the layout.
func PanelID(panelType, name string) string { return panelType + "!" + name }

// PanelType returns the type of a panel id made by PanelID.
func PanelType(id string) string {
	t, _, _ := strings.Cut(id, "!")
	return t
}

// mosaic is one split of a Foxglove layout: two children (panel ids or
// splits) side by side ("row") or one above the other ("column").
type mosaic struct {
	First           any     `json:"first"`
	Second          any     `json:"second"`
	Direction       string  `json:"direction"`
	SplitPercentage float64 `json:"splitPercentage"`
}

// split arranges items in equal shares along direction.
func split(direction string, items ...any) any {
	if len(items) == 1 {
		return items[0]
	}
	pct := 100 / float64(len(items))
	return mosaic{First: items[0], Second: split(direction, items[1:]...), Direction: direction,
		SplitPercentage: float64(int(pct*100+0.5)) / 100}
}

// foxgloveLayout is a layout file as Foxglove Studio exports and imports it.
type foxgloveLayout struct {
	ConfigByID      map[string]any     `json:"configById"`
	GlobalVariables map[string]any     `json:"globalVariables"`
	UserNodes       map[string]any     `json:"userNodes"`
	PlaybackConfig  map[string]float64 `json:"playbackConfig"`
	Layout          any                `json:"layout"`
}

// Foxglove returns r's Foxglove Studio layout (JSON, for "Import layout"
// with a foxglove_bridge connection): a 3D panel with the robot model
// (URDF layer from robot_description), tf and the odometry, following
// r.BaseFrame; an Image panel per camera; a Plot of the odometry's twist
// (linear.x [m/s], angular.z [rad/s]); a DiagnosticSummary of
// /diagnostics and the joint states (RawMessages).
func Foxglove(r Robot) ([]byte, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	panels := map[string]any{}
	add := func(panelType, name string, config map[string]any) string {
		id := PanelID(panelType, name)
		panels[id] = config
		return id
	}
	topics := map[string]any{}
	if r.HasOdometry() {
		topics[r.Resolve(r.Odometry)] = map[string]any{"visible": true}
	}
	view := add(Panel3D, r.Name, map[string]any{
		foxgloveTitleKey: r.Title,
		"followTf":       r.Frame(r.BaseFrame),
		"followMode":     "follow-pose",
		"cameraState": map[string]any{"distance": r.ViewDistance, "perspective": true, "phi": 60, "thetaOffset": 45,
			"target": []float64{0, 0, 0}, "targetOffset": []float64{0, 0, 0}, "targetOrientation": []float64{0, 0, 0, 1},
			"fovy": 45, "near": 0.01, "far": 5000},
		"scene":      map[string]any{"transforms": map[string]any{"showLabel": false, "axisScale": 0.5}},
		"transforms": map[string]any{},
		"topics":     topics,
		"layers": map[string]any{
			"grid": map[string]any{"layerId": "foxglove.Grid", "instanceId": "grid", "label": "Grid", "visible": true,
				"frameLocked": true, "frameId": r.Frame(r.FixedFrame), "size": 10, "divisions": 10, "lineWidth": 1,
				"color": "#a0a0a4", "position": []float64{0, 0, 0}, "rotation": []float64{0, 0, 0}, "order": 1},
			"urdf": map[string]any{"layerId": "foxglove.Urdf", "instanceId": "urdf", "label": r.Title, "visible": true,
				"frameLocked": true, "sourceType": "topic", "topic": r.Resolve(r.Description), "url": "", "filePath": "",
				"parameter": "", "framePrefix": r.FramePrefix, "displayMode": "auto", "fallbackColor": "#ffffff", "order": 2},
		},
		"imageMode": map[string]any{},
	})
	var images []any
	for _, c := range r.Cameras {
		images = append(images, add(PanelImage, c.Name, map[string]any{
			foxgloveTitleKey: c.Name,
			"imageMode":      map[string]any{"imageTopic": r.Resolve(c.Image), "calibrationTopic": r.Resolve(c.Info)},
		}))
	}
	var side []any
	if r.HasOdometry() {
		odom := r.Resolve(r.Odometry)
		side = append(side, add(PanelPlot, "odometry_twist", map[string]any{
			foxgloveTitleKey: "odometry twist",
			"paths": []map[string]any{
				{"value": odom + ".twist.twist.linear.x", "enabled": true, "timestampMethod": "receiveTime", "label": "linear.x [m/s]"},
				{"value": odom + ".twist.twist.angular.z", "enabled": true, "timestampMethod": "receiveTime", "label": "angular.z [rad/s]"},
			},
			"showLegend": true, "legendDisplay": "floating", "showPlotValuesInLegend": true,
			"showXAxisLabels": true, "showYAxisLabels": true, "isSynced": true,
			"xAxisVal": "timestamp", "followingViewWidth": 30, "sidebarDimension": 240,
		}))
	}
	if r.HasDiagnostics() {
		side = append(side, add(PanelDiagnosticSummary, "diagnostics", map[string]any{
			foxgloveTitleKey: "diagnostics",
			"topicToRender":  r.Resolve(r.Diagnostics), "minLevel": 0, "pinnedIds": []string{},
			"hardwareIdFilter": "", "sortByLevel": true,
		}))
	}
	side = append(side, add(PanelRawMessages, "joint_states", map[string]any{
		foxgloveTitleKey: "joint states",
		"topicPath":      r.Resolve(r.JointStates), "diffEnabled": false, "diffMethod": "custom",
		"diffTopicPath": "", "showFullMessageForDiff": false, "expansion": "all",
	}))
	var left any = view
	if len(images) > 0 {
		// The 3D view above, the cameras in a row below it.
		left = mosaic{First: view, Second: split("row", images...), Direction: "column", SplitPercentage: 60}
	}
	layout := foxgloveLayout{
		ConfigByID:      panels,
		GlobalVariables: map[string]any{},
		UserNodes:       map[string]any{},
		PlaybackConfig:  map[string]float64{"speed": 1},
		Layout:          mosaic{First: left, Second: split("column", side...), Direction: "row", SplitPercentage: 70},
	}
	b, err := json.MarshalIndent(layout, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("vizconfig: foxglove: %w", err)
	}
	return append(b, '\n'), nil
}
