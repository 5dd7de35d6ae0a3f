package camera

import (
	"errors"
	"testing"
)

func TestConfigDefaults(t *testing.T) {
	c, err := Config{Name: "front"}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Name: "front", Device: "/dev/video0", Width: 640, Height: 480, FrameRate: 30,
		PixelFormat: "YUYV", FrameID: "front_optical_frame", BufferCount: 4}
	if c.Device != want.Device || c.Width != want.Width || c.Height != want.Height || c.FrameRate != want.FrameRate ||
		c.PixelFormat != want.PixelFormat || c.FrameID != want.FrameID || c.BufferCount != want.BufferCount || c.Encoding != "" {
		t.Errorf("defaults = %+v, want %+v", c, want)
	}
	// The table states the same defaults.
	for name, v := range map[string]any{ParamDevice: c.Device, ParamWidth: int64(c.Width), ParamHeight: int64(c.Height),
		ParamFrameRate: c.FrameRate, ParamPixelFormat: c.PixelFormat, ParamBufferCount: int64(c.BufferCount)} {
		p, ok := LookupParam(name)
		if !ok || p.Default != v {
			t.Errorf("table default of %s = %v, Normalize gives %v", name, p.Default, v)
		}
	}
}

func TestConfigValidation(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want error
	}{
		{"no name", Config{}, ErrBadParam},
		{"bad name", Config{Name: "front-left"}, ErrBadParam},
		{"digit first", Config{Name: "1cam"}, ErrBadParam},
		{"relative device", Config{Name: "c", Device: "video0"}, ErrBadParam},
		{"negative width", Config{Name: "c", Width: -1}, ErrBadParam},
		{"huge height", Config{Name: "c", Height: 100000}, ErrBadParam},
		{"rate too high", Config{Name: "c", FrameRate: 5000}, ErrBadParam},
		{"negative rate", Config{Name: "c", FrameRate: -30}, ErrBadParam},
		{"one buffer", Config{Name: "c", BufferCount: 1}, ErrBadParam},
		{"many buffers", Config{Name: "c", BufferCount: 33}, ErrBadParam},
		{"unknown format", Config{Name: "c", PixelFormat: "NV12"}, ErrUnsupportedFormat},
		{"converting encoding", Config{Name: "c", Encoding: "rgb8"}, ErrBadEncoding},
		{"bad url", Config{Name: "c", CameraInfoURL: "http://x/y.yaml"}, ErrBadParam},
		{"relative file url", Config{Name: "c", CameraInfoURL: "file://cal.yaml"}, ErrBadParam},
		{"escaping package url", Config{Name: "c", CameraInfoURL: "package://p/../../etc/passwd"}, ErrBadParam},
		{"bad control", Config{Name: "c", Controls: map[string]int64{"a b": 1}}, ErrBadParam},
		{"ok bayer", Config{Name: "rear", PixelFormat: "GRBG", Width: 752, Height: 480, FrameRate: 15}, nil},
		{"ok package url", Config{Name: "c", CameraInfoURL: "package://telebridge/calibration/${NAME}.yaml"}, nil},
	}
	for _, tc := range cases {
		_, err := tc.cfg.Normalize()
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestConfigSet(t *testing.T) {
	var c Config
	c.Name = "zoom"
	ok := []struct {
		name string
		v    any
	}{
		{ParamDevice, "/dev/video3"}, {ParamWidth, int64(1280)}, {ParamHeight, 720},
		{ParamFrameRate, 15.0}, {ParamFrameRate, int64(25)}, {ParamPixelFormat, "UYVY"},
		{ParamFrameID, "zoom_link"}, {ParamBufferCount, int64(6)}, {"controls.exposure_absolute", int64(300)},
		{ParamCameraInfoURL, "file:///tmp/zoom.yaml"}, {ParamEncoding, ""},
	}
	for _, s := range ok {
		if err := c.Set(s.name, s.v); err != nil {
			t.Errorf("Set(%s, %v): %v", s.name, s.v, err)
		}
	}
	if c.Device != "/dev/video3" || c.Width != 1280 || c.Height != 720 || c.FrameRate != 25 || c.PixelFormat != "UYVY" ||
		c.FrameID != "zoom_link" || c.BufferCount != 6 || c.Controls["exposure_absolute"] != 300 || c.CameraInfoURL != "file:///tmp/zoom.yaml" {
		t.Errorf("after Set: %+v", c)
	}
	if _, err := c.Normalize(); err != nil {
		t.Error(err)
	}
	bad := []struct {
		name string
		v    any
	}{
		{"nope", 1}, {ParamWidth, "640"}, {ParamWidth, 0}, {ParamWidth, 1.5}, {ParamFrameRate, "30"},
		{ParamFrameRate, 0.0}, {ParamDevice, 5}, {ParamBufferCount, int64(100)}, {"controls.gain", 1.5}, {"controls.", 1},
	}
	for _, s := range bad {
		if err := c.Set(s.name, s.v); !errors.Is(err, ErrBadParam) {
			t.Errorf("Set(%s, %v) err = %v, want ErrBadParam", s.name, s.v, err)
		}
	}
}

func TestParamTable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Params {
		if seen[p.Name] || p.Description == "" {
			t.Errorf("param %q duplicated or undocumented", p.Name)
		}
		seen[p.Name] = true
		switch p.Default.(type) {
		case nil:
		case string:
			if p.Type != TypeString {
				t.Errorf("%s: string default for %v", p.Name, p.Type)
			}
		case int64:
			if p.Type != TypeInt {
				t.Errorf("%s: int64 default for %v", p.Name, p.Type)
			}
		case float64:
			if p.Type != TypeDouble {
				t.Errorf("%s: float64 default for %v", p.Name, p.Type)
			}
		default:
			t.Errorf("%s: default of type %T", p.Name, p.Default)
		}
	}
	for _, n := range []string{ParamDevice, ParamWidth, ParamHeight, ParamFrameRate, ParamPixelFormat, ParamEncoding,
		ParamFrameID, ParamCameraInfoURL, ParamBufferCount} {
		if !seen[n] {
			t.Errorf("table lacks %s", n)
		}
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
		if got := ControlParamName(in); got != want {
			t.Errorf("ControlParamName(%q) = %q, want %q", in, got, want)
		}
	}
	p := ControlParam(Control{Param: "gain", Name: "Gain", Type: "integer", Min: 0, Max: 255, Default: 32})
	if p.Name != "controls.gain" || p.Type != TypeInt || p.Default != int64(32) || p.Max != 255 {
		t.Errorf("ControlParam = %+v", p)
	}
}

func TestTopicsAndQoS(t *testing.T) {
	tp := TopicsFor("front_left")
	if tp.Image != "front_left/image_raw" || tp.CameraInfo != "front_left/camera_info" || tp.Compressed != "front_left/image_raw/compressed" {
		t.Errorf("topics %+v", tp)
	}
	if SensorDataQoS != (QoS{Reliability: "best_effort", Durability: "volatile", History: "keep_last", Depth: 5}) {
		t.Errorf("SensorDataQoS = %+v", SensorDataQoS)
	}
}
