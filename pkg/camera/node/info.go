package node

import (
	"fmt"
	"math"
	"sync"

	"github.com/telebridge/telebridge/pkg/camera"
)

// InfoManager holds the camera info of one camera: loaded from its
// camera_info_url, stamped onto each frame's camera_info message, and
// replaced (and written back to the URL) by set_camera_info. Safe for
// concurrent use: Info runs on the capture goroutine, Set on a service
// callback.
type InfoManager struct {
	name    string
	url     string
	resolve PackageResolver

	mu         sync.Mutex
	info       CameraInfo // header empty; D never mutated after it is stored
	calibrated bool
}

// NewInfoManager returns the camera info of camera name from url (empty:
// uncalibrated). A missing or malformed file is not fatal for a camera:
// the manager is returned uncalibrated together with the load error, for
// the caller to log. A nil resolver means AmentResolver.
func NewInfoManager(name, url string, resolve PackageResolver) (*InfoManager, error) {
	m := &InfoManager{name: name, url: url, resolve: resolve}
	if url == "" {
		return m, nil
	}
	c, err := LoadCalibration(url, name, resolve)
	if err != nil {
		return m, err
	}
	m.info, m.calibrated = c.Info(), true
	return m, nil
}

// Calibrated reports whether a calibration is loaded or set.
func (m *InfoManager) Calibrated() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calibrated
}

// Info returns the camera info message for a frame of the given size with
// header h. If the calibration was made at another size, it does not
// apply: the message is uncalibrated (size only, K[0] == 0), as
// camera_info_manager does. The D slice is shared and must not be
// modified; Info allocates nothing.
func (m *InfoManager) Info(h camera.Header, width, height uint32) CameraInfo {
	m.mu.Lock()
	ci, ok := m.info, m.calibrated
	m.mu.Unlock()
	if !ok || ci.Width != width || ci.Height != height {
		ci = UncalibratedInfo(width, height)
	}
	ci.Header = h
	return ci
}

// Set is the set_camera_info operation: it checks ci (positive size,
// finite matrices, K[8] == 1 for a calibrated K), writes it to the
// camera_info_url if there is one, and uses it from then on. If writing
// fails, nothing changes and the error says why (set_camera_info answers
// success = false with it).
func (m *InfoManager) Set(ci CameraInfo) error {
	if err := checkInfo(ci); err != nil {
		return fmt.Errorf("camera %s: set camera info: %w", m.name, err)
	}
	ci.Header = camera.Header{}
	ci.D = append([]float64(nil), ci.D...)
	if m.url != "" {
		if err := SaveCalibration(m.url, m.name, m.resolve, CalibrationOf(m.name, ci)); err != nil {
			return fmt.Errorf("camera %s: set camera info: %w", m.name, err)
		}
	}
	m.mu.Lock()
	m.info, m.calibrated = ci, true
	m.mu.Unlock()
	return nil
}

func checkInfo(ci CameraInfo) error {
	if ci.Width == 0 || ci.Height == 0 {
		return fmt.Errorf("size %dx%d: %w", ci.Width, ci.Height, ErrCalibration)
	}
	if ci.DistortionModel == "" {
		return fmt.Errorf("no distortion model: %w", ErrCalibration)
	}
	if n, ok := distortionLen[ci.DistortionModel]; ok && len(ci.D) != n {
		return fmt.Errorf("%s needs %d coefficients, got %d: %w", ci.DistortionModel, n, len(ci.D), ErrCalibration)
	}
	all := append(append(append(append([]float64(nil), ci.D...), ci.K[:]...), ci.R[:]...), ci.P[:]...)
	for _, v := range all {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("non-finite value: %w", ErrCalibration)
		}
	}
	if ci.K[0] != 0 && ci.K[8] != 1 {
		return fmt.Errorf("K[8] = %v, want 1: %w", ci.K[8], ErrCalibration)
	}
	return nil
}
