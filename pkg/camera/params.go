package camera

import (
	"fmt"
	"math"
	"strings"
)

// Config is the configuration of one camera: the parameters of the
// camera_publisher node for that camera. The zero value of every field but
// Name means "default"; New and Normalize fill the defaults and validate.
type Config struct {
	// Name names the camera; its topics live under it ("front/image_raw").
	// Required: a ROS name token, letter first, then letters, digits, '_'.
	Name string
	// Device is the V4L2 device node. Default "/dev/video0".
	Device string
	// Width and Height are the requested image size [px]; the driver may
	// pick the nearest size it supports (Device.Format tells). Default
	// 640 x 480.
	Width, Height int
	// FrameRate is the requested frame rate [Hz]; the driver may pick the
	// nearest rate it supports. Default 30.
	FrameRate float64
	// PixelFormat is the V4L2 pixel format, by name ("YUYV", "UYVY",
	// "GREY", "GRBG", "MJPG", ...; see Formats). Default "YUYV".
	PixelFormat string
	// Encoding overrides the ROS encoding derived from PixelFormat; only
	// layout-preserving overrides are accepted (see ResolveEncoding).
	// Default "" (derived).
	Encoding string
	// FrameID is the frame_id stamped on images and camera info. Default
	// "<Name>_optical_frame".
	FrameID string
	// CameraInfoURL locates the calibration YAML: "file:///abs/path.yaml"
	// or "package://pkg/path.yaml". Default "" (uncalibrated: camera info
	// with only the size).
	CameraInfoURL string
	// BufferCount is the number of mmap'ed driver buffers requested [1];
	// the driver may grant more. Range 2..32, default 4.
	BufferCount int
	// Controls are V4L2 control values to apply after opening, by control
	// name in parameter form ("exposure_absolute", "gain"; see
	// ControlParamName). Default none.
	Controls map[string]int64
}

// Defaults of Config.
const (
	DefaultDevice      = "/dev/video0"
	DefaultWidth       = 640
	DefaultHeight      = 480
	DefaultFrameRate   = 30.0
	DefaultPixelFormat = "YUYV"
	DefaultBufferCount = 4
)

// Normalize returns c with defaults filled in, or an error wrapping
// ErrBadParam, ErrUnsupportedFormat or ErrBadEncoding naming the first bad
// field.
func (c Config) Normalize() (Config, error) {
	if !validName(c.Name) {
		return c, fmt.Errorf("camera: name %q: want a letter then letters, digits or '_': %w", c.Name, ErrBadParam)
	}
	if c.Device == "" {
		c.Device = DefaultDevice
	}
	if !strings.HasPrefix(c.Device, "/") {
		return c, fmt.Errorf("camera %s: device %q: want an absolute path: %w", c.Name, c.Device, ErrBadParam)
	}
	if c.Width == 0 {
		c.Width = DefaultWidth
	}
	if c.Height == 0 {
		c.Height = DefaultHeight
	}
	if c.FrameRate == 0 {
		c.FrameRate = DefaultFrameRate
	}
	if c.PixelFormat == "" {
		c.PixelFormat = DefaultPixelFormat
	}
	if c.FrameID == "" {
		c.FrameID = c.Name + "_optical_frame"
	}
	if c.BufferCount == 0 {
		c.BufferCount = DefaultBufferCount
	}
	for _, p := range Params {
		if p.Type != TypeInt && p.Type != TypeDouble {
			continue
		}
		var v float64
		switch p.Name {
		case ParamWidth:
			v = float64(c.Width)
		case ParamHeight:
			v = float64(c.Height)
		case ParamFrameRate:
			v = c.FrameRate
		case ParamBufferCount:
			v = float64(c.BufferCount)
		default:
			continue
		}
		if err := p.checkRange(v); err != nil {
			return c, fmt.Errorf("camera %s: %w", c.Name, err)
		}
	}
	f, err := ParsePixelFormat(c.PixelFormat)
	if err != nil {
		return c, fmt.Errorf("camera %s: %w", c.Name, err)
	}
	c.PixelFormat = f.Name
	if _, err := ResolveEncoding(f, c.Encoding); err != nil {
		return c, fmt.Errorf("camera %s: %w", c.Name, err)
	}
	if c.CameraInfoURL != "" {
		if _, err := parseInfoURL(c.CameraInfoURL); err != nil {
			return c, fmt.Errorf("camera %s: %w", c.Name, err)
		}
	}
	for name := range c.Controls {
		if !validName(name) {
			return c, fmt.Errorf("camera %s: control %q: %w", c.Name, name, ErrBadParam)
		}
	}
	return c, nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '_'):
		default:
			return false
		}
	}
	return true
}

// ParamType is the type of a parameter, as ROS 2 declares it.
type ParamType int

// Parameter types.
const (
	TypeString ParamType = iota
	TypeInt
	TypeDouble
)

// String returns the ROS 2 name of the type ("string", "integer", "double").
func (t ParamType) String() string {
	switch t {
	case TypeString:
		return "string"
	case TypeInt:
		return "integer"
	case TypeDouble:
		return "double"
	}
	return fmt.Sprintf("ParamType(%d)", int(t))
}

// Param describes one per-camera parameter of camera_publisher. The ROS
// layer declares parameters from Params under "<camera name>.".
type Param struct {
	Name        string
	Type        ParamType
	Default     any    // string, int64 or float64, matching Type; nil = none
	Unit        string // e.g. "px", "Hz"; "" for none
	Description string
	// ReadOnly parameters are fixed once the camera is opened (changing them
	// would need a new stream negotiation).
	ReadOnly bool
	// Min and Max bound numeric parameters when Max > Min (inclusive).
	Min, Max float64
}

// Parameter names.
const (
	ParamDevice        = "device"
	ParamWidth         = "width"
	ParamHeight        = "height"
	ParamFrameRate     = "frame_rate"
	ParamPixelFormat   = "pixel_format"
	ParamEncoding      = "encoding"
	ParamFrameID       = "frame_id"
	ParamCameraInfoURL = "camera_info_url"
	ParamBufferCount   = "buffer_count"
	// ControlPrefix starts the name of a V4L2 control parameter
	// ("controls.gain"); see ControlParam.
	ControlPrefix = "controls."
)

// Params is the parameter table of one camera, in declaration order.
var Params = []Param{
	{Name: ParamDevice, Type: TypeString, Default: DefaultDevice, ReadOnly: true,
		Description: "V4L2 device node"},
	{Name: ParamWidth, Type: TypeInt, Default: int64(DefaultWidth), Unit: "px", ReadOnly: true, Min: 1, Max: 16384,
		Description: "requested image width; the driver may choose the nearest size"},
	{Name: ParamHeight, Type: TypeInt, Default: int64(DefaultHeight), Unit: "px", ReadOnly: true, Min: 1, Max: 16384,
		Description: "requested image height; the driver may choose the nearest size"},
	{Name: ParamFrameRate, Type: TypeDouble, Default: DefaultFrameRate, Unit: "Hz", ReadOnly: true, Min: 0.1, Max: 1000,
		Description: "requested frame rate; the driver may choose the nearest rate"},
	{Name: ParamPixelFormat, Type: TypeString, Default: DefaultPixelFormat, ReadOnly: true,
		Description: "V4L2 pixel format: YUYV, UYVY, GREY, Y16, RGB3, BGR3, BGGR, GBRG, GRBG, RGGB, MJPG, JPEG"},
	{Name: ParamEncoding, Type: TypeString, Default: "", ReadOnly: true,
		Description: "ROS image encoding; empty derives it from pixel_format (no conversion is ever done)"},
	{Name: ParamFrameID, Type: TypeString, Default: nil,
		Description: "frame_id of images and camera info; default <camera>_optical_frame"},
	{Name: ParamCameraInfoURL, Type: TypeString, Default: "",
		Description: "calibration YAML, file:///path or package://pkg/path; empty = uncalibrated"},
	{Name: ParamBufferCount, Type: TypeInt, Default: int64(DefaultBufferCount), Unit: "buffers", ReadOnly: true, Min: 2, Max: 32,
		Description: "number of memory-mapped driver buffers"},
}

// LookupParam returns the table entry named name.
func LookupParam(name string) (Param, bool) {
	for _, p := range Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

func (p Param) checkRange(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s = %v: %w", p.Name, v, ErrBadParam)
	}
	if p.Max > p.Min && (v < p.Min || v > p.Max) {
		return fmt.Errorf("%s = %v %s: want %v..%v: %w", p.Name, v, p.Unit, p.Min, p.Max, ErrBadParam)
	}
	return nil
}

// Set assigns parameter name (a table name or "controls.<control>") from a
// ROS-typed value: string for string parameters, int64 (or int) for
// integers, float64 (or an integer) for doubles. It checks the type and the
// range; Normalize checks the rest.
func (c *Config) Set(name string, v any) error {
	if ctl, ok := strings.CutPrefix(name, ControlPrefix); ok {
		n, err := asInt(v)
		if err != nil || !validName(ctl) {
			return fmt.Errorf("camera: parameter %s = %v: want an integer control: %w", name, v, ErrBadParam)
		}
		if c.Controls == nil {
			c.Controls = map[string]int64{}
		}
		c.Controls[ctl] = n
		return nil
	}
	p, ok := LookupParam(name)
	if !ok {
		return fmt.Errorf("camera: unknown parameter %q: %w", name, ErrBadParam)
	}
	switch p.Type {
	case TypeString:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("camera: parameter %s = %v (%T): want a string: %w", name, v, v, ErrBadParam)
		}
		switch name {
		case ParamDevice:
			c.Device = s
		case ParamPixelFormat:
			c.PixelFormat = s
		case ParamEncoding:
			c.Encoding = s
		case ParamFrameID:
			c.FrameID = s
		case ParamCameraInfoURL:
			c.CameraInfoURL = s
		}
	case TypeInt:
		n, err := asInt(v)
		if err != nil {
			return fmt.Errorf("camera: parameter %s: %w", name, err)
		}
		if err := p.checkRange(float64(n)); err != nil {
			return fmt.Errorf("camera: parameter %w", err)
		}
		switch name {
		case ParamWidth:
			c.Width = int(n)
		case ParamHeight:
			c.Height = int(n)
		case ParamBufferCount:
			c.BufferCount = int(n)
		}
	case TypeDouble:
		var f float64
		switch x := v.(type) {
		case float64:
			f = x
		default:
			n, err := asInt(v)
			if err != nil {
				return fmt.Errorf("camera: parameter %s: %w", name, err)
			}
			f = float64(n)
		}
		if err := p.checkRange(f); err != nil {
			return fmt.Errorf("camera: parameter %w", err)
		}
		if name == ParamFrameRate {
			c.FrameRate = f
		}
	}
	return nil
}

func asInt(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int:
		return int64(x), nil
	case int32:
		return int64(x), nil
	}
	return 0, fmt.Errorf("%v (%T): want an integer: %w", v, v, ErrBadParam)
}

// ControlParamName turns a V4L2 control name ("Exposure, Absolute", "White
// Balance Temperature") into its parameter form ("exposure_absolute",
// "white_balance_temperature"): lower case, runs of other characters -> '_'.
func ControlParamName(v4l2Name string) string {
	var b strings.Builder
	pending := false
	for _, r := range strings.ToLower(v4l2Name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if pending && b.Len() > 0 {
				b.WriteByte('_')
			}
			pending = false
			b.WriteRune(r)
			continue
		}
		pending = true
	}
	s := b.String()
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		s = "c_" + s
	}
	return s
}

// Topics are the topic names of one camera, relative to the node namespace.
type Topics struct {
	Image      string // "<name>/image_raw" (sensor_msgs/Image)
	Compressed string // "<name>/image_raw/compressed" (sensor_msgs/CompressedImage, image_transport naming)
	CameraInfo string // "<name>/camera_info" (sensor_msgs/CameraInfo)
}

// TopicsFor returns the topic names of camera name. A camera publishes
// Image for uncompressed formats and Compressed for MJPG/JPEG, never both.
func TopicsFor(name string) Topics {
	return Topics{
		Image:      name + "/image_raw",
		Compressed: name + "/image_raw/compressed",
		CameraInfo: name + "/camera_info",
	}
}

// QoS is a ROS 2 quality-of-service profile, as data.
type QoS struct {
	Reliability string // "best_effort" or "reliable"
	Durability  string // "volatile" or "transient_local"
	History     string // "keep_last" or "keep_all"
	Depth       int    // queue depth for keep_last [messages]
}

// SensorDataQoS is the profile images and camera info go out with: ROS 2's
// sensor-data profile (rmw_qos_profile_sensor_data): best effort, volatile,
// keep last 5. A late or lost frame is replaced by the next, never resent.
var SensorDataQoS = QoS{Reliability: "best_effort", Durability: "volatile", History: "keep_last", Depth: 5}
