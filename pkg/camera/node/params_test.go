package node

import (
	"errors"
	"testing"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

func TestConfigDefaults(t *testing.T) {
	c, err := camera.Config{Name: "front"}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	want := camera.Config{Name: "front", Device: "/dev/video0", Width: 640, Height: 480, FrameRate: 30,
		PixelFormat: "YUYV", FrameID: "front_optical_frame", BufferCount: 4}
	if c.Device != want.Device || c.Width != want.Width || c.Height != want.Height || c.FrameRate != want.FrameRate ||
		c.PixelFormat != want.PixelFormat || c.FrameID != want.FrameID || c.BufferCount != want.BufferCount || c.Encoding != "" {
		t.Errorf("defaults = %+v, want %+v", c, want)
	}
	// The table states the same defaults (taken from the normalized Config).
	tbl := Bindings().Table(c)
	if err := tbl.Check(); err != nil {
		t.Fatal(err)
	}
	want2 := map[string]rosparam.ParameterValue{
		camera.ParamDevice: rosparam.String("/dev/video0"), camera.ParamWidth: rosparam.Integer(640), camera.ParamHeight: rosparam.Integer(480),
		camera.ParamFrameRate: rosparam.Double(30), camera.ParamPixelFormat: rosparam.String("YUYV"), camera.ParamEncoding: rosparam.String(""),
		camera.ParamFrameID: rosparam.String("front_optical_frame"), camera.ParamCameraInfoURL: rosparam.String(""), camera.ParamBufferCount: rosparam.Integer(4),
	}
	if len(tbl) != len(want2) {
		t.Fatalf("table has %d entries, want %d", len(tbl), len(want2))
	}
	for _, p := range tbl {
		if w, ok := want2[p.Name]; !ok || !p.Default.Equal(w) || p.Description == "" {
			t.Errorf("%s: default %+v, want %+v", p.Name, p.Default, w)
		}
	}
}

func TestNodeBindings(t *testing.T) {
	names := []string{"front_left", "zoom"}
	def, err := DefaultNodeConfig(names)
	if err != nil {
		t.Fatal(err)
	}
	bs := NodeBindings(names)
	tbl := bs.Table(def)
	if err := tbl.Check(); err != nil {
		t.Fatal(err)
	}
	if len(tbl) != 1+2*(len(Bindings())+len(OutputBindings())) || tbl[0].Name != ParamCameras || !tbl[0].ReadOnly {
		t.Fatalf("table %d entries, first %+v", len(tbl), tbl[0])
	}
	byName := map[string]rosparam.Param{}
	for _, p := range tbl {
		byName[p.Name] = p
	}
	w := byName["zoom.width"]
	if w.Unit != "px" || !w.ReadOnly || w.Range == nil || w.Range.From != 1 || w.Range.To != camera.MaxSize || !w.Default.Equal(rosparam.Integer(640)) {
		t.Errorf("zoom.width %+v", w)
	}
	if f := byName["front_left.frame_id"]; !f.ReadOnly || !f.Default.Equal(rosparam.String("front_left_optical_frame")) {
		t.Errorf("front_left.frame_id %+v", f)
	}
	// Validators refuse what Normalize refuses.
	for name, v := range map[string]rosparam.ParameterValue{
		"zoom.pixel_format": rosparam.String("NV12"), "zoom.device": rosparam.String("video0"),
		"zoom.camera_info_url": rosparam.String("http://x"),
	} {
		if err := byName[name].Validate(v); err == nil {
			t.Errorf("%s accepts %+v", name, v)
		}
	}
	if err := byName["zoom.camera_info_url"].Validate(rosparam.String("")); err != nil {
		t.Errorf("empty url refused: %v", err)
	}

	// Values land in the right camera.
	nc := def
	err = bs.Apply(&nc, []rosparam.Parameter{
		{Name: "zoom.device", Value: rosparam.String("/dev/video3")},
		{Name: "zoom.frame_rate", Value: rosparam.Double(15)},
		{Name: "front_left.pixel_format", Value: rosparam.String("GRBG")},
		{Name: "front_left.buffer_count", Value: rosparam.Integer(6)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if nc.Cameras[1].Device != "/dev/video3" || nc.Cameras[1].FrameRate != 15 || nc.Cameras[0].PixelFormat != "GRBG" ||
		nc.Cameras[0].BufferCount != 6 || nc.Cameras[0].Device != "/dev/video0" {
		t.Errorf("after Apply: %+v", nc.Cameras)
	}
	if got := bs.Values(&nc)[0].Value.StringArrayValue; len(got) != 2 || got[1] != "zoom" {
		t.Errorf("cameras value %v", got)
	}
	// Wrong type or unknown name: refused.
	if err := bs.Apply(&nc, []rosparam.Parameter{{Name: "zoom.width", Value: rosparam.Double(640)}}); err == nil {
		t.Error("double for an integer accepted")
	}
	if err := bs.Apply(&nc, []rosparam.Parameter{{Name: "rear.width", Value: rosparam.Integer(640)}}); err == nil {
		t.Error("unknown camera accepted")
	}
	if _, err := DefaultNodeConfig([]string{"a", "a"}); !errors.Is(err, camera.ErrBadParam) {
		t.Errorf("repeated name: %v", err)
	}
	if _, err := DefaultNodeConfig(nil); !errors.Is(err, camera.ErrBadParam) {
		t.Errorf("no cameras: %v", err)
	}
}

func TestCameraNamesAndControls(t *testing.T) {
	over := map[string]rosparam.ParameterValue{
		ParamCameras:                      rosparam.StringArray([]string{"front_left", "zoom"}),
		"zoom.controls.exposure_absolute": rosparam.Integer(300),
		"zoom.controls.gain_automatic":    rosparam.Bool(false),
		"front_left.controls.gain":        rosparam.Integer(40),
		"zoom.width":                      rosparam.Integer(1280),
	}
	names, err := CameraNames(over)
	if err != nil || len(names) != 2 || names[1] != "zoom" {
		t.Fatalf("names %v, %v", names, err)
	}
	ctl, err := ControlOverrides(over, "zoom")
	if err != nil || len(ctl) != 2 || ctl["exposure_absolute"] != 300 || ctl["gain_automatic"] != 0 {
		t.Errorf("zoom controls %v, %v", ctl, err)
	}
	bad := []map[string]rosparam.ParameterValue{
		{},
		{ParamCameras: rosparam.String("zoom")},
		{ParamCameras: rosparam.StringArray(nil)},
		{ParamCameras: rosparam.StringArray([]string{"front-left"})},
	}
	for _, o := range bad {
		if _, err := CameraNames(o); !errors.Is(err, camera.ErrBadParam) {
			t.Errorf("CameraNames(%v) err = %v", o, err)
		}
	}
	if _, err := ControlOverrides(map[string]rosparam.ParameterValue{"zoom.controls.gain": rosparam.Double(1.5)}, "zoom"); !errors.Is(err, camera.ErrBadParam) {
		t.Errorf("double control: %v", err)
	}
}

func TestControlParamName(t *testing.T) {
	cases := map[string]string{
		"Exposure, Absolute":            "exposure_absolute",
		"White Balance Temperature":     "white_balance_temperature",
		"Gain":                          "gain",
		"Integer 32 Bits":               "integer_32_bits",
		"  Power Line Frequency  ":      "power_line_frequency",
		"3D LUT":                        "c_3d_lut",
		"Percentage of Dropped Buffers": "percentage_of_dropped_buffers",
	}
	for in, want := range cases {
		if got := wire.ControlParamName(in); got != want {
			t.Errorf("ControlParamName(%q) = %q, want %q", in, got, want)
		}
	}
	p := ControlParam("zoom", wire.Control{Param: "gain", Name: "Gain", Type: "integer", Min: 0, Max: 255, Default: 32})
	if p.Name != "zoom.controls.gain" || p.Type != rosparam.ParameterInteger || !p.Default.Equal(rosparam.Integer(32)) || p.Range.To != 255 {
		t.Errorf("ControlParam = %+v", p)
	}
	if err := (rosparam.Table{p}).Check(); err != nil {
		t.Error(err)
	}
}

func TestTopicsAndQoS(t *testing.T) {
	tp := TopicsFor("front_left")
	if tp.Image != "front_left/image_raw" || tp.CameraInfo != "front_left/camera_info" || tp.Compressed != "front_left/image_raw/compressed" {
		t.Errorf("topics %+v", tp)
	}
	if ImageQoS != qos.Default || ImageQoS.Reliability != qos.Reliable || ImageQoS.Depth != 10 {
		t.Errorf("ImageQoS = %+v, want REP-2003's system default", ImageQoS)
	}
	if !qos.Compatible(ImageQoS, ImageSubQoS) || ImageSubQoS.Reliability != qos.BestEffort {
		t.Errorf("ImageSubQoS = %+v", ImageSubQoS)
	}
}
