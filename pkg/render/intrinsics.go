package render

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/telebridge/telebridge/pkg/geom"
)

// Intrinsics are a pinhole camera's picture size and calibration, as in a
// ROS sensor_msgs/CameraInfo (its K matrix) plus the clipping distances a
// renderer needs. Focal lengths and principal point are in pixels, with
// (0, 0) the centre of the top-left pixel.
type Intrinsics struct {
	Width, Height int     // picture size [px]
	Fx, Fy        float64 // focal lengths [px]
	Cx, Cy        float64 // principal point [px]
	Skew          float64 // K[0][1] [px]; 0 for almost every camera
	Near, Far     float64 // clipping distances along the optical axis [m]; 0 means DefaultNear, DefaultFar
}

// Clipping distances used when Intrinsics leaves them zero [m].
const (
	DefaultNear = 0.02
	DefaultFar  = 200.0
)

// FromK returns the intrinsics of a camera_info's row-major K matrix
// (fx 0 cx; 0 fy cy; 0 0 1) [px] for a picture width x height [px], with
// the default clipping distances.
func FromK(k [9]float64, width, height int) Intrinsics {
	return Intrinsics{Width: width, Height: height, Fx: k[0], Skew: k[1], Cx: k[2], Fy: k[4], Cy: k[5]}
}

// FromFOV returns the intrinsics of an ideal camera width x height [px]
// with horizontal field of view hfov [rad] (SDF's <horizontal_fov>),
// square pixels and the principal point at the picture's centre.
func FromFOV(width, height int, hfov float64) Intrinsics {
	f := float64(width) / 2 / math.Tan(hfov/2)
	return Intrinsics{Width: width, Height: height, Fx: f, Fy: f,
		Cx: float64(width-1) / 2, Cy: float64(height-1) / 2}
}

// ErrIntrinsics is wrapped by Intrinsics.Validate.
var ErrIntrinsics = errors.New("render: bad camera intrinsics")

// MaxSide is the largest picture side a Camera accepts [px].
const MaxSide = 8192

// near and far return the clipping distances with defaults applied [m].
func (in Intrinsics) near() float64 {
	if in.Near == 0 {
		return DefaultNear
	}
	return in.Near
}

func (in Intrinsics) far() float64 {
	if in.Far == 0 {
		return DefaultFar
	}
	return in.Far
}

// Validate reports (wrapping ErrIntrinsics) a size that is not positive or
// over MaxSide, an odd width (YUYV pairs pixels), focal lengths that are
// not positive and finite, or clipping distances not 0 < near < far.
func (in Intrinsics) Validate() error {
	switch {
	case in.Width <= 0 || in.Height <= 0 || in.Width > MaxSide || in.Height > MaxSide:
		return fmt.Errorf("%w: size %dx%d px (1..%d)", ErrIntrinsics, in.Width, in.Height, MaxSide)
	case in.Width%2 != 0:
		return fmt.Errorf("%w: width %d px is odd (4:2:2 formats pair pixels)", ErrIntrinsics, in.Width)
	case !(in.Fx > 0) || !(in.Fy > 0) || math.IsInf(in.Fx, 0) || math.IsInf(in.Fy, 0):
		return fmt.Errorf("%w: focal lengths fx %g, fy %g px", ErrIntrinsics, in.Fx, in.Fy)
	case !finite(in.Cx) || !finite(in.Cy) || !finite(in.Skew):
		return fmt.Errorf("%w: principal point (%g, %g), skew %g px", ErrIntrinsics, in.Cx, in.Cy, in.Skew)
	}
	n, f := in.near(), in.far()
	if !(n > 0) || !(f > n) || math.IsInf(f, 0) {
		return fmt.Errorf("%w: clipping near %g m, far %g m", ErrIntrinsics, n, f)
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Project returns the pixel (u, v) [px] where point p, in the optical
// frame [m], lands by the pinhole model, and whether it is in front of the
// camera (z > 0). It does not check the picture's bounds.
func (in Intrinsics) Project(p r3.Vec) (u, v float64, ahead bool) {
	if p.Z <= 0 {
		return 0, 0, false
	}
	return in.Fx*p.X/p.Z + in.Skew*p.Y/p.Z + in.Cx, in.Fy*p.Y/p.Z + in.Cy, true
}

// Projection returns the 4x4 clip matrix, row-major, that maps the optical
// frame to OpenGL clip coordinates for this camera: pixel (u, v) of the
// pinhole model is GL window position (u+0.5, v+0.5), so that row v of the
// framebuffer is row v of the picture (read back top row first); depth
// maps [near, far] to [-1, 1].
func (in Intrinsics) Projection() [4][4]float64 {
	w, h := float64(in.Width), float64(in.Height)
	n, f := in.near(), in.far()
	return [4][4]float64{
		{2 * in.Fx / w, 2 * in.Skew / w, 2*(in.Cx+0.5)/w - 1, 0},
		{0, 2 * in.Fy / h, 2*(in.Cy+0.5)/h - 1, 0},
		{0, 0, (f + n) / (f - n), -2 * f * n / (f - n)},
		{0, 0, 1, 0},
	}
}

// linkToOptical is the rotation from a body-convention camera link (x
// forward, y left, z up) to its optical frame (z forward, x right, y down):
// roll -90 degrees, then yaw -90 degrees, as in URDF's usual
// camera_optical_joint rpy="-pi/2 0 -pi/2".
var linkToOptical = geom.FromRPY(-math.Pi/2, 0, -math.Pi/2)

// OpticalFromLink returns the pose of the optical frame of a camera whose
// link, in the body convention of REP 103 (x forward, y left, z up), has
// pose link in the world.
func OpticalFromLink(link geom.Transform) geom.Transform {
	return link.Mul(geom.Rotation(linkToOptical))
}
