package node

import (
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/compress"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// Output is what camera_publisher makes of a camera besides its native
// image: the JPEG of image_raw/compressed for cameras that do not deliver
// JPEG themselves, and an H.264 stream over RTP while the node runs. The
// zero value of a field means its default; Normalize fills them.
type Output struct {
	// JPEGQuality is the quality of image_raw/compressed for raw pixel
	// formats (1 worst .. 100 best; MJPG/JPEG pass through untouched).
	// Settable while running. Default compress.DefaultQuality (80).
	JPEGQuality int
	// RTPTo is where the camera is streamed as H.264 over RTP (RFC 6184),
	// "HOST:PORT", unicast or multicast; while it is set the camera
	// captures for as long as the node runs. Default "" (no RTP).
	RTPTo string
	// RTPBitrate is the H.264 target [bit/s], 10 000..100 000 000.
	// Default DefaultRTPBitrate.
	RTPBitrate int
	// RTPSDP is the file the session description is written to once the
	// first keyframe is out (what ffplay, VLC and GStreamer open). Default
	// "" (the SDP is only logged).
	RTPSDP string
}

// Defaults and ranges of Output.
const (
	DefaultRTPBitrate = 1_000_000   // [bit/s], as `telebridge rtp`
	MinRTPBitrate     = 10_000      // [bit/s]
	MaxRTPBitrate     = 100_000_000 // [bit/s]
)

// Parameter names of Output, relative to the camera ("zoom.rtp_to").
const (
	ParamJPEGQuality = "jpeg_quality"
	ParamRTPTo       = "rtp_to"
	ParamRTPBitrate  = "rtp_bitrate"
	ParamRTPSDP      = "rtp_sdp"
)

// Normalize returns o with its defaults filled, or an error wrapping
// camera.ErrBadParam naming the first bad field.
func (o Output) Normalize() (Output, error) {
	if o.JPEGQuality == 0 {
		o.JPEGQuality = compress.DefaultQuality
	}
	if o.RTPBitrate == 0 {
		o.RTPBitrate = DefaultRTPBitrate
	}
	if err := compress.CheckQuality(o.JPEGQuality); err != nil {
		return o, fmt.Errorf("%s: %w: %w", ParamJPEGQuality, camera.ErrBadParam, err)
	}
	if o.RTPBitrate < MinRTPBitrate || o.RTPBitrate > MaxRTPBitrate {
		return o, fmt.Errorf("%s %d bit/s: want %d..%d: %w", ParamRTPBitrate, o.RTPBitrate, MinRTPBitrate, MaxRTPBitrate, camera.ErrBadParam)
	}
	if err := CheckRTPTo(o.RTPTo); err != nil {
		return o, err
	}
	if o.RTPSDP != "" && o.RTPTo == "" {
		return o, fmt.Errorf("%s %q without %s: %w", ParamRTPSDP, o.RTPSDP, ParamRTPTo, camera.ErrBadParam)
	}
	if strings.ContainsRune(o.RTPSDP, 0) || strings.HasSuffix(o.RTPSDP, "/") {
		return o, fmt.Errorf("%s %q: want a file path: %w", ParamRTPSDP, o.RTPSDP, camera.ErrBadParam)
	}
	return o, nil
}

// RTP reports whether the camera is streamed over RTP.
func (o Output) RTP() bool { return o.RTPTo != "" }

// CheckRTPTo checks an rtp_to value: empty (off) or "HOST:PORT" with a
// host (name or address, IPv6 in brackets) and a port 1..65535; errors wrap
// camera.ErrBadParam. The name is resolved when the node starts.
func CheckRTPTo(to string) error {
	if to == "" {
		return nil
	}
	host, port, err := net.SplitHostPort(to)
	if err != nil {
		return fmt.Errorf("%s %q: want HOST:PORT: %w", ParamRTPTo, to, camera.ErrBadParam)
	}
	p, err := strconv.Atoi(port)
	if host == "" || err != nil || p < 1 || p > 65535 {
		return fmt.Errorf("%s %q: want HOST:PORT with a host and a port 1..65535: %w", ParamRTPTo, to, camera.ErrBadParam)
	}
	return nil
}

// OutputBindings returns the parameter table of a camera's Output, names
// relative to the camera ("jpeg_quality"; the node declares
// "<camera>.jpeg_quality"). jpeg_quality may be set while running (see
// QualityChanges); the RTP ones are read-only.
func OutputBindings() rosparam.Bindings[Output] {
	ro := rosparam.ReadOnly()
	return rosparam.Bindings[Output]{
		rosparam.BindInt(ParamJPEGQuality, "", "JPEG quality of image_raw/compressed for raw pixel formats (MJPG/JPEG pass through); settable while running",
			func(o *Output) *int { return &o.JPEGQuality }, rosparam.Within(compress.MinQuality, compress.MaxQuality)),
		rosparam.BindString(ParamRTPTo, "stream the camera as H.264 over RTP (RFC 6184) to HOST:PORT, unicast or multicast, while the node runs; empty = off",
			func(o *Output) *string { return &o.RTPTo }, ro,
			rosparam.Check(func(v rosparam.ParameterValue) error { return CheckRTPTo(v.StringValue) })),
		rosparam.BindInt(ParamRTPBitrate, "bit/s", "H.264 bitrate of the RTP stream",
			func(o *Output) *int { return &o.RTPBitrate }, ro, rosparam.Within(MinRTPBitrate, MaxRTPBitrate)),
		rosparam.BindString(ParamRTPSDP, "file the RTP stream's SDP is written to (for ffplay, VLC, GStreamer); empty = logged only",
			func(o *Output) *string { return &o.RTPSDP }, ro),
	}
}

// QualityChange is an accepted jpeg_quality change for a camera.
type QualityChange struct {
	Camera  int // index in the cameras parameter
	Quality int // the new JPEG quality
}

// QualityChanges picks the "<camera>.jpeg_quality" changes out of an
// accepted parameter update (already range-checked by the table).
func QualityChanges(update []rosparam.Parameter, names []string) []QualityChange {
	var out []QualityChange
	for _, p := range update {
		for i, n := range names {
			if p.Name == n+"."+ParamJPEGQuality && p.Value.Type == rosparam.ParameterInteger {
				out = append(out, QualityChange{Camera: i, Quality: int(p.Value.IntegerValue)})
			}
		}
	}
	return out
}

// outAt returns the output of camera i of nc, growing nc.Outputs with
// zero values.
func outAt(nc *NodeConfig, i int) *Output {
	for len(nc.Outputs) <= i {
		nc.Outputs = append(nc.Outputs, Output{})
	}
	return &nc.Outputs[i]
}

// outputBindingsFor returns "<name>.<parameter>" for each entry of
// OutputBindings, bound to camera i of a NodeConfig.
func outputBindingsFor(name string, i int) rosparam.Bindings[NodeConfig] {
	var bs rosparam.Bindings[NodeConfig]
	for _, b := range OutputBindings() {
		p := b.Param
		p.Name = name + "." + b.Name
		get, set := b.Get, b.Set
		bs = append(bs, rosparam.Binding[NodeConfig]{
			Param: p,
			Get:   func(nc *NodeConfig) rosparam.ParameterValue { return get(outAt(nc, i)) },
			Set:   func(nc *NodeConfig, v rosparam.ParameterValue) { set(outAt(nc, i), v) },
		})
	}
	return bs
}

// validateOutputs normalizes the outputs of nc's cameras (one per camera)
// and checks that no two cameras stream to the same destination.
func (nc *NodeConfig) validateOutputs() error {
	dests := map[string]string{}
	for i := range nc.Cameras {
		o, err := outAt(nc, i).Normalize()
		if err != nil {
			return fmt.Errorf("camera %s: %w", nc.Cameras[i].Name, err)
		}
		if c := nc.Cameras[i]; o.RTP() && (c.Width%2 != 0 || c.Height%2 != 0) {
			return fmt.Errorf("camera %s: %s with %dx%d: H.264 4:2:0 needs even sizes: %w", c.Name, ParamRTPTo, c.Width, c.Height, camera.ErrBadParam)
		}
		if other, dup := dests[o.RTPTo]; dup && o.RTP() {
			return fmt.Errorf("camera: %s and %s both stream to %s: %w", other, nc.Cameras[i].Name, o.RTPTo, camera.ErrBadParam)
		}
		dests[o.RTPTo] = nc.Cameras[i].Name
		nc.Outputs[i] = o
	}
	nc.Outputs = nc.Outputs[:len(nc.Cameras)]
	return nil
}
