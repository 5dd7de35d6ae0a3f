package node

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/telebridge/telebridge/pkg/camera"
	"gopkg.in/yaml.v3"
)

// Calibration is the content of a camera calibration YAML file in the
// format of ROS camera_calibration_parsers (what camera_calibration writes
// and camera_info_manager reads). Matrices are row-major.
type Calibration struct {
	ImageWidth, ImageHeight int         // [px]
	CameraName              string      // informational
	CameraMatrix            [9]float64  // K: intrinsics, row-major 3x3 [px]
	DistortionModel         string      // "plumb_bob", "rational_polynomial", "equidistant", ...
	Distortion              []float64   // D: coefficients of DistortionModel
	Rectification           [9]float64  // R: rectification rotation, row-major 3x3
	Projection              [12]float64 // P: projection, row-major 3x4 [px]
}

// distortionLen is the coefficient count of the distortion models ROS
// knows; other models are accepted with any count.
var distortionLen = map[string]int{"plumb_bob": 5, "rational_polynomial": 8, "equidistant": 4}

// calibFile is the YAML layout of a calibration file; pointers tell a
// missing field from a zero one.
type calibFile struct {
	ImageWidth      *int        `yaml:"image_width"`
	ImageHeight     *int        `yaml:"image_height"`
	CameraName      string      `yaml:"camera_name"`
	CameraMatrix    *yamlMatrix `yaml:"camera_matrix"`
	DistortionModel string      `yaml:"distortion_model"`
	Distortion      *yamlMatrix `yaml:"distortion_coefficients"`
	Rectification   *yamlMatrix `yaml:"rectification_matrix"`
	Projection      *yamlMatrix `yaml:"projection_matrix"`
}

type yamlMatrix struct {
	Rows int       `yaml:"rows"`
	Cols int       `yaml:"cols"`
	Data []float64 `yaml:"data"`
}

// ParseCalibration reads a calibration YAML file (gopkg.in/yaml.v3, which
// the module already uses for parameter files). Every field of the format
// is required except camera_name; matrices must have the stated rows and
// cols (3x3, 1xN, 3x3, 3x4) and finite values; the coefficient count must
// fit the known distortion models. Errors wrap ErrCalibration.
func ParseCalibration(data []byte) (Calibration, error) {
	var f calibFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return Calibration{}, fmt.Errorf("camera: calibration: %w: %v", ErrCalibration, err)
	}
	fail := func(field string, err error) (Calibration, error) {
		return Calibration{}, fmt.Errorf("camera: calibration: %s: %w: %v", field, ErrCalibration, err)
	}
	c := Calibration{CameraName: f.CameraName, DistortionModel: f.DistortionModel}
	if f.ImageWidth == nil || *f.ImageWidth <= 0 || *f.ImageWidth > camera.MaxSize {
		return fail("image_width", fmt.Errorf("missing or not in 1..%d", camera.MaxSize))
	}
	if f.ImageHeight == nil || *f.ImageHeight <= 0 || *f.ImageHeight > camera.MaxSize {
		return fail("image_height", fmt.Errorf("missing or not in 1..%d", camera.MaxSize))
	}
	c.ImageWidth, c.ImageHeight = *f.ImageWidth, *f.ImageHeight
	if err := f.CameraMatrix.into(3, 3, c.CameraMatrix[:]); err != nil {
		return fail("camera_matrix", err)
	}
	if c.DistortionModel == "" {
		return fail("distortion_model", errors.New("missing"))
	}
	if f.Distortion == nil || f.Distortion.Cols < 0 || f.Distortion.Cols > 64 {
		return fail("distortion_coefficients", errors.New("missing, or cols not in 0..64"))
	}
	if want, ok := distortionLen[c.DistortionModel]; ok && f.Distortion.Cols != want {
		return fail("distortion_coefficients", fmt.Errorf("model %s has %d coefficients, file gives %d", c.DistortionModel, want, f.Distortion.Cols))
	}
	c.Distortion = make([]float64, f.Distortion.Cols)
	if err := f.Distortion.into(1, f.Distortion.Cols, c.Distortion); err != nil {
		return fail("distortion_coefficients", err)
	}
	if err := f.Rectification.into(3, 3, c.Rectification[:]); err != nil {
		return fail("rectification_matrix", err)
	}
	if err := f.Projection.into(3, 4, c.Projection[:]); err != nil {
		return fail("projection_matrix", err)
	}
	return c, nil
}

// into checks m's shape and values and copies its data into dst.
func (m *yamlMatrix) into(rows, cols int, dst []float64) error {
	if m == nil {
		return errors.New("missing (want rows, cols, data)")
	}
	if m.Rows != rows || m.Cols != cols {
		return fmt.Errorf("is %dx%d, want %dx%d", m.Rows, m.Cols, rows, cols)
	}
	if len(m.Data) != rows*cols {
		return fmt.Errorf("data: %d values, want %d", len(m.Data), rows*cols)
	}
	for i, v := range m.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("data[%d] = %v: want a finite number", i, v)
		}
	}
	copy(dst, m.Data)
	return nil
}

// YAML returns c in the camera_calibration_parsers layout. Numbers are
// written with the shortest representation that reads back exactly, so
// ParseCalibration(c.YAML()) == c.
func (c Calibration) YAML() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "image_width: %d\nimage_height: %d\n", c.ImageWidth, c.ImageHeight)
	fmt.Fprintf(&b, "camera_name: %s\n", yamlString(c.CameraName))
	writeMatrix(&b, "camera_matrix", 3, 3, c.CameraMatrix[:])
	fmt.Fprintf(&b, "distortion_model: %s\n", yamlString(c.DistortionModel))
	writeMatrix(&b, "distortion_coefficients", 1, len(c.Distortion), c.Distortion)
	writeMatrix(&b, "rectification_matrix", 3, 3, c.Rectification[:])
	writeMatrix(&b, "projection_matrix", 3, 4, c.Projection[:])
	return b.Bytes()
}

func writeMatrix(b *bytes.Buffer, key string, rows, cols int, v []float64) {
	fmt.Fprintf(b, "%s:\n  rows: %d\n  cols: %d\n  data: [", key, rows, cols)
	for i, x := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	}
	b.WriteString("]\n")
}

// yamlString returns s as a YAML scalar that reads back as the same
// string (quoted by the YAML encoder when needed).
func yamlString(s string) string {
	out, err := yaml.Marshal(s)
	if err != nil { // cannot happen for a string
		return strconv.Quote(s)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// CameraInfo is a sensor_msgs/CameraInfo.
type CameraInfo struct {
	Header          camera.Header    // capture time and optical frame
	Height, Width   uint32           // [px]
	DistortionModel string           // e.g. "plumb_bob"
	D               []float64        // distortion coefficients of DistortionModel
	K               [9]float64       // intrinsics, row-major 3x3 [px]
	R               [9]float64       // rectification rotation, row-major 3x3
	P               [12]float64      // projection, row-major 3x4 [px]
	BinningX        uint32           // horizontal binning; 0 or 1: none
	BinningY        uint32           // vertical binning; 0 or 1: none
	ROI             RegionOfInterest // the region of interest; zero: the full image
}

// RegionOfInterest is a sensor_msgs/RegionOfInterest.
type RegionOfInterest struct {
	XOffset, YOffset, Height, Width uint32 // [px]
	DoRectify                       bool   // the ROI is to be rectified
}

// Info returns the camera info message of c (header left empty).
func (c Calibration) Info() CameraInfo {
	return CameraInfo{
		Height: uint32(c.ImageHeight), Width: uint32(c.ImageWidth),
		DistortionModel: c.DistortionModel,
		D:               append([]float64(nil), c.Distortion...),
		K:               c.CameraMatrix, R: c.Rectification, P: c.Projection,
	}
}

// CalibrationOf returns the calibration file content of camera info ci.
func CalibrationOf(name string, ci CameraInfo) Calibration {
	return Calibration{
		ImageWidth: int(ci.Width), ImageHeight: int(ci.Height), CameraName: name,
		CameraMatrix: ci.K, DistortionModel: ci.DistortionModel,
		Distortion:    append([]float64(nil), ci.D...),
		Rectification: ci.R, Projection: ci.P,
	}
}

// UncalibratedInfo is the camera info of a camera without calibration: the
// size only, all matrices zero (K[0] == 0 is ROS's "uncalibrated").
func UncalibratedInfo(width, height uint32) CameraInfo {
	return CameraInfo{Width: width, Height: height}
}

// PackageResolver returns the share directory of a ROS package
// ("<prefix>/share/<pkg>").
type PackageResolver func(pkg string) (string, error)

// AmentResolver finds a package's share directory along AMENT_PREFIX_PATH,
// the way ament_index does.
func AmentResolver(pkg string) (string, error) {
	for _, prefix := range filepath.SplitList(os.Getenv("AMENT_PREFIX_PATH")) {
		if prefix == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(prefix, "share", "ament_index", "resource_index", "packages", pkg)); err == nil {
			return filepath.Join(prefix, "share", pkg), nil
		}
	}
	return "", fmt.Errorf("package %q not found on AMENT_PREFIX_PATH: %w", pkg, os.ErrNotExist)
}

// ResolveInfoURL turns a camera_info_url into a file path. "${NAME}" in the
// URL is replaced by the camera name (as camera_info_manager does). A nil
// resolver means AmentResolver.
func ResolveInfoURL(url, cameraName string, resolve PackageResolver) (string, error) {
	u, err := camera.ParseInfoURL(strings.ReplaceAll(url, "${NAME}", cameraName))
	if err != nil {
		return "", fmt.Errorf("camera: %w", err)
	}
	if u.Package == "" {
		return u.Path, nil
	}
	if resolve == nil {
		resolve = AmentResolver
	}
	dir, err := resolve(u.Package)
	if err != nil {
		return "", fmt.Errorf("camera: camera_info_url %s: %w", url, err)
	}
	return filepath.Join(dir, u.Path), nil
}

// maxCalibrationSize bounds what LoadCalibration reads [bytes]; a real
// calibration file is under 1 KiB.
const maxCalibrationSize = 1 << 20

// LoadCalibration reads the calibration file that url names.
func LoadCalibration(url, cameraName string, resolve PackageResolver) (Calibration, error) {
	path, err := ResolveInfoURL(url, cameraName, resolve)
	if err != nil {
		return Calibration{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return Calibration{}, fmt.Errorf("camera: load calibration: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCalibrationSize+1))
	if err != nil {
		return Calibration{}, fmt.Errorf("camera: load calibration: %w", err)
	}
	if len(data) > maxCalibrationSize {
		return Calibration{}, fmt.Errorf("camera: load calibration %s: larger than %d bytes: %w", path, maxCalibrationSize, ErrCalibration)
	}
	c, err := ParseCalibration(data)
	if err != nil {
		return Calibration{}, fmt.Errorf("%w (%s)", err, path)
	}
	return c, nil
}

// SaveCalibration writes c to the file that url names (the set_camera_info
// operation), atomically: a temporary file in the same directory renamed
// over the old one, so a reader never sees half a file. The directory is
// created if missing.
func SaveCalibration(url, cameraName string, resolve PackageResolver, c Calibration) error {
	path, err := ResolveInfoURL(url, cameraName, resolve)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("camera: save calibration: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".calibration-*.yaml")
	if err != nil {
		return fmt.Errorf("camera: save calibration: %w", err)
	}
	_, werr := tmp.Write(c.YAML())
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("camera: save calibration: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("camera: save calibration: %w", err)
	}
	return nil
}
