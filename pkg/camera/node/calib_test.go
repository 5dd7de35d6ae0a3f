package node

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/camera"
)

var frontLeft = Calibration{
	ImageWidth: 752, ImageHeight: 480, CameraName: "front_left",
	CameraMatrix:    [9]float64{431.25, 0, 376.5, 0, 432.75, 239.25, 0, 0, 1},
	DistortionModel: "plumb_bob",
	Distortion:      []float64{-0.28125, 0.0703125, 1.5e-04, -2.5e-04, 0},
	Rectification:   [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1},
	Projection:      [12]float64{380.5, 0, 370.25, 0, 0, 402.125, 238.5, 0, 0, 0, 1, 0},
}

func TestParseCalibrationGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/front_left.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseCalibration(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, frontLeft) {
		t.Fatalf("parsed\n%+v\nwant\n%+v", c, frontLeft)
	}
	// Write, read back: identical.
	again, err := ParseCalibration(c.YAML())
	if err != nil {
		t.Fatalf("%v\n%s", err, c.YAML())
	}
	if !reflect.DeepEqual(again, c) {
		t.Errorf("round trip\n%+v\nwant\n%+v", again, c)
	}
	info := c.Info()
	if info.Width != 752 || info.Height != 480 || info.K[2] != 376.5 || info.P[6] != 238.5 || info.D[0] != -0.28125 {
		t.Errorf("camera info %+v", info)
	}
	if back := CalibrationOf("front_left", info); !reflect.DeepEqual(back, c) {
		t.Errorf("CalibrationOf(Info()) = %+v", back)
	}
}

func TestCalibrationYAMLVariants(t *testing.T) {
	base := string(frontLeft.YAML())
	ok := map[string]string{
		"quoted name":   strings.Replace(base, "camera_name: front_left", `camera_name: "front left #1"`, 1),
		"single quotes": strings.Replace(base, "camera_name: front_left", `camera_name: 'it''s'`, 1),
		"block seq": strings.Replace(base, "data: [1, 0, 0, 0, 1, 0, 0, 0, 1]",
			"data:\n  - 1\n  - 0\n  - 0\n  - 0\n  - 1\n  - 0\n  - 0\n  - 0\n  - 1", 1),
		"comments and doc start": "%YAML 1.1\n---\n# header\n" + strings.Replace(base, "image_height: 480", "image_height: 480 # px", 1),
		"CRLF":                   strings.ReplaceAll(base, "\n", "\r\n"),
		"no camera name":         strings.Replace(base, "camera_name: front_left\n", "", 1),
		"anchor and alias":       strings.Replace(strings.Replace(base, "rows: 3", "rows: &three 3", 1), "cols: 3", "cols: *three", 1),
		"flow mapping matrix": strings.Replace(base, "rectification_matrix:\n  rows: 3\n  cols: 3\n  data: [1, 0, 0, 0, 1, 0, 0, 0, 1]\n",
			"rectification_matrix: {rows: 3, cols: 3, data: [1, 0, 0, 0, 1, 0, 0, 0, 1]}\n", 1),
	}
	for name, text := range ok {
		if _, err := ParseCalibration([]byte(text)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	bad := map[string]string{
		"empty":            "",
		"not a mapping":    "- 1\n- 2\n",
		"no width":         strings.Replace(base, "image_width: 752\n", "", 1),
		"zero width":       strings.Replace(base, "image_width: 752", "image_width: 0", 1),
		"text width":       strings.Replace(base, "image_width: 752", "image_width: wide", 1),
		"quoted number":    strings.Replace(base, "image_width: 752", `image_width: "752"`, 1),
		"K 3x4":            strings.Replace(base, "camera_matrix:\n  rows: 3\n  cols: 3", "camera_matrix:\n  rows: 3\n  cols: 4", 1),
		"short data":       strings.Replace(base, "data: [1, 0, 0, 0, 1, 0, 0, 0, 1]", "data: [1, 0, 0]", 1),
		"NaN":              strings.Replace(base, "431.25", ".nan", 1),
		"Inf":              strings.Replace(base, "431.25", "1e999", 1),
		"plumb_bob with 4": strings.Replace(strings.Replace(base, "cols: 5", "cols: 4", 1), ", 0]\nrect", "]\nrect", 1),
		"no model":         strings.Replace(base, "distortion_model: plumb_bob\n", "", 1),
		"duplicate key":    base + "image_width: 640\n",
		"tab indent":       strings.Replace(base, "  rows: 3", "\trows: 3", 1),
		"bad indent":       strings.Replace(base, "  cols: 3", "    cols: 3", 1),
		"unterminated [":   strings.Replace(base, "0, 0, 1]", "0, 0, 1", 1),
		"flow mapping":     strings.Replace(base, "rows: 3", "rows: {a: 1}", 1),
		"huge width":       strings.Replace(base, "image_width: 752", "image_width: 99999999", 1),
		"not YAML":         "\x00\xff{[",
		"nested flow":      strings.Replace(base, "data: [1, 0, 0,", "data: [[1], 0, 0,", 1),
	}
	for name, text := range bad {
		_, err := ParseCalibration([]byte(text))
		if !errors.Is(err, ErrCalibration) {
			t.Errorf("%s: err = %v, want ErrCalibration", name, err)
		}
	}
}

func TestCalibrationNamesRoundTrip(t *testing.T) {
	for _, name := range []string{"front_left", "front left #1", "a: b", "it's", `q"uote`, "123", "true", "", "- x", "камера", "null"} {
		c := frontLeft
		c.CameraName = name
		back, err := ParseCalibration(c.YAML())
		if err != nil || back.CameraName != name {
			t.Errorf("camera_name %q: read back %q, %v\n%s", name, back.CameraName, err, c.YAML())
		}
	}
}

func TestCalibrationURLs(t *testing.T) {
	dir := t.TempDir()
	share := filepath.Join(dir, "share", "telebridge")
	resolve := func(pkg string) (string, error) {
		if pkg != "telebridge" {
			return "", os.ErrNotExist
		}
		return share, nil
	}
	// package:// with ${NAME}: save (set_camera_info), then load.
	url := "package://telebridge/calibration/${NAME}.yaml"
	if err := SaveCalibration(url, "front_left", resolve, frontLeft); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(share, "calibration", "front_left.yaml")); err != nil {
		t.Fatal(err)
	}
	got, err := LoadCalibration(url, "front_left", resolve)
	if err != nil || !reflect.DeepEqual(got, frontLeft) {
		t.Fatalf("load after save: %+v, %v", got, err)
	}
	// file://, overwritten in place.
	fileURL := "file://" + filepath.Join(dir, "rear.yaml")
	changed := frontLeft
	changed.CameraName = "rear"
	changed.CameraMatrix[0] = 500.125
	for _, c := range []Calibration{frontLeft, changed} {
		if err := SaveCalibration(fileURL, "rear", nil, c); err != nil {
			t.Fatal(err)
		}
	}
	got, err = LoadCalibration(fileURL, "rear", nil)
	if err != nil || got.CameraMatrix[0] != 500.125 || got.CameraName != "rear" {
		t.Errorf("file:// load: %+v, %v", got, err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".calibration-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if _, err := LoadCalibration("package://other/x.yaml", "c", resolve); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("unknown package: %v", err)
	}
	if _, err := LoadCalibration("file://"+filepath.Join(dir, "missing.yaml"), "c", nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ResolveInfoURL("ftp://x", "c", nil); !errors.Is(err, camera.ErrBadParam) {
		t.Errorf("ftp url: %v", err)
	}
}

func TestAmentResolver(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "share", "ament_index", "resource_index", "packages")
	if err := os.MkdirAll(marker, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(marker, "telebridge"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AMENT_PREFIX_PATH", "/nonexistent"+string(os.PathListSeparator)+dir)
	got, err := AmentResolver("telebridge")
	if err != nil || got != filepath.Join(dir, "share", "telebridge") {
		t.Errorf("AmentResolver = %q, %v", got, err)
	}
	if _, err := AmentResolver("nope"); err == nil {
		t.Error("found a package that is not there")
	}
}

func FuzzParseCalibration(f *testing.F) {
	golden, err := os.ReadFile("testdata/front_left.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	f.Add(frontLeft.YAML())
	f.Add([]byte("a:\n  b:\n    - 1\n    - 'x'\n  c: [1, \"2\", 3]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseCalibration(data)
		if err != nil {
			if !errors.Is(err, ErrCalibration) {
				t.Fatalf("error does not wrap ErrCalibration: %v", err)
			}
			return
		}
		// Property: whatever parses writes back to text that parses to the same.
		again, err := ParseCalibration(c.YAML())
		if err != nil {
			t.Fatalf("re-parse of written calibration: %v\n%s", err, c.YAML())
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip changed the calibration:\n%+v\n%+v", c, again)
		}
	})
}
