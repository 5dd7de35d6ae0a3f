package node

import (
	"fmt"
	"strings"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// Bindings returns the parameter table of one camera bound to camera.Config, with
// names relative to the camera ("width"; the node declares
// "<camera>.width", see NodeBindings). Defaults come from a normalized
// camera.Config, so Config.Normalize stays their one source.
func Bindings() rosparam.Bindings[camera.Config] {
	ro := rosparam.ReadOnly()
	return rosparam.Bindings[camera.Config]{
		rosparam.BindString(camera.ParamDevice, "V4L2 device node",
			func(c *camera.Config) *string { return &c.Device }, ro,
			rosparam.Check(func(v rosparam.ParameterValue) error { return camera.CheckDevice(v.StringValue) })),
		rosparam.BindInt(camera.ParamWidth, "px", "requested image width; the driver may choose the nearest size",
			func(c *camera.Config) *int { return &c.Width }, ro, rosparam.Within(1, camera.MaxSize)),
		rosparam.BindInt(camera.ParamHeight, "px", "requested image height; the driver may choose the nearest size",
			func(c *camera.Config) *int { return &c.Height }, ro, rosparam.Within(1, camera.MaxSize)),
		rosparam.BindDouble(camera.ParamFrameRate, "Hz", "requested frame rate; the driver may choose the nearest rate",
			func(c *camera.Config) *float64 { return &c.FrameRate }, ro, rosparam.Within(camera.MinFrameRate, camera.MaxFrameRate)),
		rosparam.BindString(camera.ParamPixelFormat, "V4L2 pixel format, published without conversion",
			func(c *camera.Config) *string { return &c.PixelFormat }, ro,
			rosparam.Constraint("YUYV, UYVY, GREY, Y16, RGB3, BGR3, BGGR, GBRG, GRBG, RGGB, MJPG, JPEG"),
			rosparam.Check(func(v rosparam.ParameterValue) error { _, err := wire.ParsePixelFormat(v.StringValue); return err })),
		rosparam.BindString(camera.ParamEncoding, "ROS image encoding; empty derives it from pixel_format",
			func(c *camera.Config) *string { return &c.Encoding }, ro,
			rosparam.Constraint("only layout-preserving overrides: mono8 or bayer_*8 for 8-bit single-channel formats")),
		rosparam.BindString(camera.ParamFrameID, "frame_id of images and camera info",
			func(c *camera.Config) *string { return &c.FrameID }, ro),
		rosparam.BindString(camera.ParamCameraInfoURL, "calibration YAML: file:///path or package://pkg/path, ${NAME} = camera; empty = uncalibrated",
			func(c *camera.Config) *string { return &c.CameraInfoURL }, ro,
			rosparam.Check(func(v rosparam.ParameterValue) error {
				if v.StringValue == "" {
					return nil
				}
				_, err := camera.ParseInfoURL(v.StringValue)
				return err
			})),
		rosparam.BindInt(camera.ParamBufferCount, "", "number of memory-mapped driver buffers",
			func(c *camera.Config) *int { return &c.BufferCount }, ro, rosparam.Within(camera.MinBufferCount, camera.MaxBufferCount)),
	}
}

// NodeConfig is the configuration of the camera_publisher node: its
// cameras, in the order of the "cameras" parameter.
type NodeConfig struct {
	Cameras []camera.Config // in the order of the "cameras" parameter
	// Outputs are the cameras' JPEG and RTP settings, one per camera in
	// the same order (Validate fills missing ones with defaults).
	Outputs []Output
}

// Validate normalizes every camera and checks that no two cameras share a
// name or a device.
func (nc *NodeConfig) Validate() error {
	names, devices := map[string]bool{}, map[string]string{}
	for i := range nc.Cameras {
		c, err := nc.Cameras[i].Normalize()
		if err != nil {
			return err
		}
		if names[c.Name] {
			return fmt.Errorf("camera: two cameras named %q: %w", c.Name, camera.ErrBadParam)
		}
		if other, dup := devices[c.Device]; dup {
			return fmt.Errorf("camera: %s and %s both use %s: %w", other, c.Name, c.Device, camera.ErrBadParam)
		}
		names[c.Name], devices[c.Device] = true, c.Name
		nc.Cameras[i] = c
	}
	return nc.validateOutputs()
}

// ParamCameras is the node parameter listing the camera names (a string
// array, read-only); each name is the prefix of that camera's parameters
// and the namespace of its topics.
const ParamCameras = "cameras"

// DefaultNodeConfig returns a node configuration with the named cameras at
// their defaults (normalized), or an error for a bad or repeated name.
func DefaultNodeConfig(names []string) (NodeConfig, error) {
	if len(names) == 0 {
		return NodeConfig{}, fmt.Errorf("camera: %s: no cameras: %w", ParamCameras, camera.ErrBadParam)
	}
	nc := NodeConfig{Cameras: make([]camera.Config, len(names))}
	seen := map[string]bool{}
	for i, n := range names {
		if seen[n] {
			return NodeConfig{}, fmt.Errorf("camera: %s: %q twice: %w", ParamCameras, n, camera.ErrBadParam)
		}
		seen[n] = true
		c, err := camera.Config{Name: n}.Normalize()
		if err != nil {
			return NodeConfig{}, err
		}
		nc.Cameras[i] = c
	}
	if err := nc.validateOutputs(); err != nil {
		return NodeConfig{}, err
	}
	return nc, nil
}

// NodeBindings returns the node's parameter table for the named cameras:
// "cameras", then "<camera>.<parameter>" for each camera and each entry of
// Bindings. Take the defaults from DefaultNodeConfig(names). V4L2 controls
// ("<camera>.controls.<name>") depend on the device and are not in the
// table: see ControlOverrides and ControlParam.
func NodeBindings(names []string) rosparam.Bindings[NodeConfig] {
	list := append([]string(nil), names...)
	bs := rosparam.Bindings[NodeConfig]{{
		Param: rosparam.Param{Name: ParamCameras, Type: rosparam.ParameterStringArray, ReadOnly: true,
			Description: "camera names: parameter prefixes and topic namespaces"},
		Get: func(nc *NodeConfig) rosparam.ParameterValue {
			out := make([]string, len(nc.Cameras))
			for i, c := range nc.Cameras {
				out[i] = c.Name
			}
			return rosparam.StringArray(out)
		},
		// The list is fixed when the table is built; a value is taken as
		// renaming the cameras in place (the table's names stay).
		Set: func(nc *NodeConfig, v rosparam.ParameterValue) {
			for i, n := range v.StringArrayValue {
				camAt(nc, list, i).Name = n
			}
		},
	}}
	for i, n := range list {
		for _, b := range Bindings() {
			p := b.Param
			p.Name = n + "." + b.Name
			get, set := b.Get, b.Set
			bs = append(bs, rosparam.Binding[NodeConfig]{
				Param: p,
				Get:   func(nc *NodeConfig) rosparam.ParameterValue { return get(camAt(nc, list, i)) },
				Set:   func(nc *NodeConfig, v rosparam.ParameterValue) { set(camAt(nc, list, i), v) },
			})
		}
		bs = append(bs, outputBindingsFor(n, i)...)
	}
	return bs
}

// camAt returns camera i of nc, growing nc.Cameras with named zero configs.
func camAt(nc *NodeConfig, names []string, i int) *camera.Config {
	for len(nc.Cameras) <= i {
		nc.Cameras = append(nc.Cameras, camera.Config{Name: names[len(nc.Cameras)]})
	}
	return &nc.Cameras[i]
}

// CameraNames returns the "cameras" value among a node's start-up
// parameter overrides (rosparam.Overrides.For), which the node needs
// before it can build its table.
func CameraNames(over map[string]rosparam.ParameterValue) ([]string, error) {
	v, ok := over[ParamCameras]
	if !ok {
		return nil, fmt.Errorf("camera: parameter %q not given: %w", ParamCameras, camera.ErrBadParam)
	}
	if v.Type != rosparam.ParameterStringArray || len(v.StringArrayValue) == 0 {
		return nil, fmt.Errorf("camera: parameter %q: want a non-empty string array, got %s: %w",
			ParamCameras, rosparam.TypeName(v.Type), camera.ErrBadParam)
	}
	for _, n := range v.StringArrayValue {
		if !camera.ValidName(n) {
			return nil, fmt.Errorf("camera: camera name %q: want a letter then letters, digits or '_': %w", n, camera.ErrBadParam)
		}
	}
	return append([]string(nil), v.StringArrayValue...), nil
}

// ControlOverrides returns the V4L2 control values given for camera
// ("<camera>.controls.<name>": integer, or bool as 0/1) among a node's
// overrides, to put in camera.Config.Controls before the device is opened.
func ControlOverrides(over map[string]rosparam.ParameterValue, cam string) (map[string]int64, error) {
	prefix := cam + "." + ControlPrefix
	out := map[string]int64{}
	for name, v := range over {
		ctl, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		if !camera.ValidName(ctl) {
			return nil, fmt.Errorf("camera %s: control %q: %w", cam, ctl, camera.ErrBadParam)
		}
		switch v.Type {
		case rosparam.ParameterInteger:
			out[ctl] = v.IntegerValue
		case rosparam.ParameterBool:
			out[ctl] = 0
			if v.BoolValue {
				out[ctl] = 1
			}
		default:
			return nil, fmt.Errorf("camera %s: control %s: want an integer, got %s: %w", cam, ctl, rosparam.TypeName(v.Type), camera.ErrBadParam)
		}
	}
	return out, nil
}

// ControlParam returns the declaration of a settable control as
// "<camera>.controls.<name>" (integer, the device's default and range),
// for the node to declare once the device is open.
func ControlParam(cam string, c wire.Control) rosparam.Param {
	p := rosparam.Param{
		Name: cam + "." + ControlPrefix + c.Param, Type: rosparam.ParameterInteger,
		Default:     rosparam.Integer(c.Default),
		Description: "V4L2 control \"" + c.Name + "\" (" + c.Type + ")",
	}
	if c.Max > c.Min {
		p.Range = &rosparam.Range{From: float64(c.Min), To: float64(c.Max)}
	}
	return p
}
