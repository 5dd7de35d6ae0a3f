package node

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

func TestPlanNode(t *testing.T) {
	over := map[string]rosparam.ParameterValue{
		ParamCameras:                   rosparam.StringArray([]string{"front", "zoom"}),
		"front.device":                 rosparam.String("pattern:front"),
		"front.pixel_format":           rosparam.String("GRBG"),
		"zoom.device":                  rosparam.String("/dev/video3"),
		"zoom.frame_rate":              rosparam.Double(15),
		"front.controls.brightness":    rosparam.Integer(200),
		"some_other_node_param_ignore": rosparam.Integer(1),
	}
	var probed []string
	probe := func(c camera.Config) ([]wire.Control, error) {
		probed = append(probed, c.Device)
		if c.Controls != nil && c.Device == "/dev/video3" {
			t.Errorf("zoom probed with controls %v", c.Controls)
		}
		if c.Device == "/dev/video3" {
			return nil, wire.ErrNoDevice
		}
		return []wire.Control{
			{Name: "Brightness", Param: "brightness", Type: "integer", Min: 0, Max: 255, Default: 128},
			{Name: "Reset", Param: "reset", Type: "button"},
		}, nil
	}
	plan, err := PlanNode(over, probe)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(plan.Names, ",") != "front,zoom" || strings.Join(probed, ",") != "pattern:front,/dev/video3" {
		t.Errorf("names %v probed %v", plan.Names, probed)
	}
	front, zoom := plan.Config.Cameras[0], plan.Config.Cameras[1]
	if front.PixelFormat != "GRBG" || front.Controls["brightness"] != 200 || zoom.FrameRate != 15 || zoom.Controls != nil {
		t.Errorf("front %+v zoom %+v", front, zoom)
	}
	if err := plan.Table.Check(); err != nil {
		t.Fatal(err)
	}
	byName := map[string]rosparam.Param{}
	for _, p := range plan.Table {
		byName[p.Name] = p
	}
	b, ok := byName["front.controls.brightness"]
	if !ok || b.ReadOnly || b.Range == nil || b.Range.To != 255 || !b.Default.Equal(rosparam.Integer(128)) {
		t.Errorf("brightness parameter %+v (declared %v)", b, ok)
	}
	if _, ok := byName["front.controls.reset"]; ok {
		t.Error("a button is declared as a parameter")
	}
	if len(plan.Table) != 1+2*(len(Bindings())+len(OutputBindings()))+1 {
		t.Errorf("table has %d entries", len(plan.Table))
	}
	if len(plan.Warnings) != 1 || !strings.Contains(plan.Warnings[0], "zoom") {
		t.Errorf("warnings %q", plan.Warnings)
	}
	// Every parameter of the node but the controls and the JPEG quality
	// is read-only: nothing is accepted that the running node would not
	// apply (ControlChanges, QualityChanges).
	for _, p := range plan.Table {
		if !p.ReadOnly && !strings.Contains(p.Name, "."+ControlPrefix) && !strings.HasSuffix(p.Name, "."+ParamJPEGQuality) {
			t.Errorf("%s is settable but not applied live", p.Name)
		}
	}
}

func TestPlanNodeRefuses(t *testing.T) {
	cases := []struct {
		name string
		over map[string]rosparam.ParameterValue
	}{
		{"no cameras", map[string]rosparam.ParameterValue{}},
		{"shared device", map[string]rosparam.ParameterValue{
			ParamCameras: rosparam.StringArray([]string{"a", "b"}),
			"a.device":   rosparam.String("pattern:x"), "b.device": rosparam.String("pattern:x")}},
		{"mistyped rate", map[string]rosparam.ParameterValue{
			ParamCameras: rosparam.StringArray([]string{"a"}), "a.frame_rate": rosparam.Integer(30)}},
		{"relative device", map[string]rosparam.ParameterValue{
			ParamCameras: rosparam.StringArray([]string{"a"}), "a.device": rosparam.String("video0")}},
		{"empty pattern label", map[string]rosparam.ParameterValue{
			ParamCameras: rosparam.StringArray([]string{"a"}), "a.device": rosparam.String("pattern:")}},
	}
	for _, tc := range cases {
		if _, err := PlanNode(tc.over, nil); !errors.Is(err, camera.ErrBadParam) {
			t.Errorf("%s: err = %v, want ErrBadParam", tc.name, err)
		}
	}
}

func TestControlChanges(t *testing.T) {
	names := []string{"front", "front_wide"}
	got := ControlChanges([]rosparam.Parameter{
		{Name: "front.controls.gain", Value: rosparam.Integer(40)},
		{Name: "front_wide.controls.exposure_absolute", Value: rosparam.Integer(300)},
		{Name: "front.frame_id", Value: rosparam.String("x")},
		{Name: "front.controls.bad", Value: rosparam.String("x")},
	}, names)
	want := []ControlChange{{0, "gain", 40}, {1, "exposure_absolute", 300}}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestDiagnose(t *testing.T) {
	cfg, _ := camera.Config{Name: "zoom", Device: "/dev/video3"}.Normalize()
	neg := camera.Negotiated{Format: wire.Format{Name: "YUYV"}, Encoding: "yuv422_yuy2", Width: 640, Height: 480, FrameRate: 30}
	value := func(s diag.Status, key string) string {
		for _, kv := range s.Values {
			if kv.Key == key {
				return kv.Value
			}
		}
		return "<none>"
	}
	cases := []struct {
		name    string
		h       Health
		prev    camera.Stats
		level   diag.Level
		msg     string
		fps     string
		reopens string
	}{
		{"idle", Health{Config: cfg, Negotiated: neg, Open: true}, camera.Stats{}, diag.OK, "idle", "0.00", "0"},
		{"streaming", Health{Config: cfg, Negotiated: neg, Open: true, Streaming: true, Stats: camera.Stats{Frames: 130, Reopens: 1}},
			camera.Stats{Frames: 100}, diag.OK, "streaming 30.0 fps", "30.00", "1"},
		{"dropping", Health{Config: cfg, Negotiated: neg, Open: true, Streaming: true, Stats: camera.Stats{Frames: 125, Dropped: 5}},
			camera.Stats{Frames: 100}, diag.Warn, "5 frames dropped", "25.00", "0"},
		{"corrupted", Health{Config: cfg, Negotiated: neg, Open: true, Streaming: true, Stats: camera.Stats{Frames: 128, Corrupted: 3}},
			camera.Stats{Frames: 100, Corrupted: 1}, diag.Warn, "2 corrupted", "28.00", "0"},
		{"stalled", Health{Config: cfg, Negotiated: neg, Open: true, Streaming: true, Stats: camera.Stats{Frames: 100}},
			camera.Stats{Frames: 100}, diag.Warn, "no frame", "0.00", "0"},
		{"control failed", Health{Config: cfg, Negotiated: neg, Open: true, ControlErr: camera.ErrNoControl}, camera.Stats{}, diag.Warn, "control change failed", "0.00", "0"},
		{"lost", Health{Config: cfg, Err: camera.ErrDeviceLost, Streaming: true, Stats: camera.Stats{Frames: 100, Reopens: 2}},
			camera.Stats{Frames: 100}, diag.Error, "device not open: device lost", "0.00", "2"},
	}
	for _, tc := range cases {
		s := Diagnose(tc.h, tc.prev, time.Second)
		if s.Level != tc.level || !strings.Contains(s.Message, tc.msg) {
			t.Errorf("%s: %v %q, want %v %q", tc.name, s.Level, s.Message, tc.level, tc.msg)
		}
		if s.Name != "zoom" || s.HardwareID != "/dev/video3" {
			t.Errorf("%s: name %q hardware %q", tc.name, s.Name, s.HardwareID)
		}
		if got := value(s, "fps"); got != tc.fps {
			t.Errorf("%s: fps %s, want %s", tc.name, got, tc.fps)
		}
		if got := value(s, "reopen count"); got != tc.reopens {
			t.Errorf("%s: reopens %s, want %s", tc.name, got, tc.reopens)
		}
	}
}

func TestMessagesLend(t *testing.T) {
	raw := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	h := camera.Header{Stamp: time.Unix(5, 0), FrameID: "zoom_optical_frame"}
	f := camera.Frame{Header: h, Width: 2, Height: 2, Encoding: "yuv422_yuy2", Step: 4, Data: raw}
	m := NewMessages(nil)
	if m.Lend(&f) {
		t.Fatal("raw frame reported compressed")
	}
	if &m.Image.Data[0] != &raw[0] || m.Image.Step != 4 || m.Image.Encoding != "yuv422_yuy2" || m.Info.Header != h || m.Info.Width != 2 {
		t.Errorf("image %+v info %+v", m.Image, m.Info)
	}
	if a := testing.AllocsPerRun(50, func() { m.Lend(&f); m.Release() }); a != 0 {
		t.Errorf("Lend allocates %.0f times per frame", a)
	}
	m.Lend(&f)
	m.Release()
	if m.Image.Data != nil {
		t.Error("Release kept the borrowed buffer")
	}
	jpeg := camera.Frame{Header: h, Encoding: "jpeg", Compressed: true, Data: raw[:4]}
	if !m.Lend(&jpeg) || &m.Compressed.Data[0] != &raw[0] || m.Compressed.Format != "jpeg" {
		t.Errorf("compressed %+v", m.Compressed)
	}
}

func TestPlanNodeInStore(t *testing.T) {
	var o rosparam.Overrides
	if err := o.AddYAML([]byte(`camera_publisher:
  ros__parameters:
    cameras: [zoom]
    zoom: {device: "pattern:zoom", frame_rate: 15.0, controls: {brightness: 90}}
`)); err != nil {
		t.Fatal(err)
	}
	fqn := rosparam.FullyQualifiedName("/", Name)
	probe := func(camera.Config) ([]wire.Control, error) { return []wire.Control{camera.PatternControl(128)}, nil }
	plan, err := PlanNode(o.For(fqn), probe)
	if err != nil {
		t.Fatal(err)
	}
	var changes []ControlChange
	s, err := rosparam.New(rosparam.Config{Node: fqn, Table: plan.Table, Overrides: &o,
		OnChange: func(u []rosparam.Parameter) { changes = append(changes, ControlChanges(u, plan.Names)...) }})
	if err != nil {
		t.Fatal(err)
	}
	if unused := s.Unused(); len(unused) != 0 {
		t.Errorf("overrides matching no parameter: %v", unused)
	}
	if v, _ := s.Get("zoom.controls.brightness"); !v.Equal(rosparam.Integer(90)) || plan.Config.Cameras[0].Controls["brightness"] != 90 {
		t.Errorf("brightness declared %+v, config %v", v, plan.Config.Cameras[0].Controls)
	}
	if v, _ := s.Get("zoom.frame_rate"); !v.Equal(rosparam.Double(15)) {
		t.Errorf("frame_rate %+v", v)
	}
	res := s.SetParameters([]rosparam.Parameter{
		{Name: "zoom.width", Value: rosparam.Integer(320)},
		{Name: "zoom.controls.brightness", Value: rosparam.Integer(200)},
		{Name: "zoom.controls.brightness", Value: rosparam.Integer(300)},
	})
	if res[0].Successful || !strings.Contains(res[0].Reason, "read-only") || !res[1].Successful || res[2].Successful {
		t.Errorf("results %+v", res)
	}
	if len(changes) != 1 || changes[0] != (ControlChange{0, "brightness", 200}) {
		t.Errorf("changes %+v", changes)
	}
}
