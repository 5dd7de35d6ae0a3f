package node

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

func TestInfoManager(t *testing.T) {
	dir := t.TempDir()
	url := "file://" + filepath.Join(dir, "${NAME}.yaml")
	h := camera.Header{Stamp: time.Unix(7, 0), FrameID: "front_left_optical_frame"}

	// No file yet: uncalibrated, with the error for the log.
	m, err := NewInfoManager("front_left", url, nil)
	if !errors.Is(err, os.ErrNotExist) || m == nil || m.Calibrated() {
		t.Fatalf("missing file: %v, %v", m, err)
	}
	if ci := m.Info(h, 752, 480); ci.K[0] != 0 || ci.Width != 752 || ci.Header != h {
		t.Errorf("uncalibrated info %+v", ci)
	}

	// set_camera_info writes the file and is used from then on.
	if err := m.Set(frontLeft.Info()); err != nil {
		t.Fatal(err)
	}
	ci := m.Info(h, 752, 480)
	if ci.K != frontLeft.CameraMatrix || ci.P != frontLeft.Projection || ci.Header != h || ci.DistortionModel != "plumb_bob" {
		t.Errorf("calibrated info %+v", ci)
	}
	if a := testing.AllocsPerRun(100, func() { m.Info(h, 752, 480) }); a != 0 {
		t.Errorf("Info allocates %.0f", a)
	}
	// At another size the calibration does not apply.
	if ci := m.Info(h, 640, 480); ci.K[0] != 0 || ci.Width != 640 {
		t.Errorf("other size: %+v", ci)
	}
	// A new manager reads what Set wrote.
	m2, err := NewInfoManager("front_left", url, nil)
	if err != nil || !m2.Calibrated() || m2.Info(h, 752, 480).K != frontLeft.CameraMatrix {
		t.Fatalf("reload: %v", err)
	}

	// Bad camera info is refused and changes nothing.
	bad := frontLeft.Info()
	bad.K[4] = math.NaN()
	if err := m.Set(bad); !errors.Is(err, ErrCalibration) {
		t.Errorf("NaN accepted: %v", err)
	}
	bad = frontLeft.Info()
	bad.D = bad.D[:3]
	if err := m.Set(bad); !errors.Is(err, ErrCalibration) {
		t.Errorf("short D accepted: %v", err)
	}
	if err := m.Set(CameraInfo{}); !errors.Is(err, ErrCalibration) {
		t.Errorf("empty info accepted: %v", err)
	}
	if ci := m.Info(h, 752, 480); ci.K != frontLeft.CameraMatrix {
		t.Error("a refused Set changed the info")
	}

	// Without a URL, Set keeps the info in memory only.
	mem, err := NewInfoManager("rear", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := mem.Set(frontLeft.Info()); err != nil || !mem.Calibrated() {
		t.Errorf("in-memory set: %v", err)
	}

	// An unwritable location (the parent is a file): Set fails, nothing changes.
	notDir := filepath.Join(dir, "plain")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m3, _ := NewInfoManager("x", "file://"+filepath.Join(notDir, "x.yaml"), nil)
	if err := m3.Set(frontLeft.Info()); err == nil || m3.Calibrated() {
		t.Errorf("write below a plain file: %v", err)
	}
}
