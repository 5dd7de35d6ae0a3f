package node

import (
	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosqos"
)

// ControlPrefix starts the name of a V4L2 control parameter
// ("controls.gain"); see ControlParam.
const ControlPrefix = "controls."

// Topics are the topic names of one camera, relative to the node namespace.
type Topics struct {
	Image      string // "<name>/image_raw" (sensor_msgs/Image)
	Compressed string // "<name>/image_raw/compressed" (sensor_msgs/CompressedImage, image_transport naming)
	CameraInfo string // "<name>/camera_info" (sensor_msgs/CameraInfo)
}

// TopicsFor returns the topic names of camera name. A camera of an
// uncompressed format publishes Image and Compressed (its JPEG, encoded
// only while subscribed: Compressor); a MJPG/JPEG camera only Compressed.
func TopicsFor(name string) Topics {
	return Topics{
		Image:      name + "/image_raw",
		Compressed: name + "/image_raw/compressed",
		CameraInfo: name + "/camera_info",
	}
}

// ImageQoS is the default profile images (raw and compressed) and camera
// info go out with: ROS 2's system default (reliable, volatile, keep last
// 10), as REP-2003 asks of sensor drivers, so that reliable subscribers
// (image_pipeline, RViz) and best-effort ones both receive. The
// qos_overrides parameters change it per topic (Publishers).
var ImageQoS = rosqos.SensorProfile

// ImageSubQoS is what a viewer subscribes to images with: ROS 2's
// sensor-data profile (best effort, keep last 5), which matches a
// publisher of any reliability; a late frame is replaced by the next one.
var ImageSubQoS = qos.SensorData

// Publishers lists the publishers of cameras whose QoS the node's
// qos_overrides parameters override: per camera, image_raw (not for a
// compressed pixel format), image_raw/compressed (a MJPG camera's own
// frames, any other format's JPEG) and camera_info, each with ImageQoS by
// default. A camera whose pixel format does not parse is taken as raw
// (the node refuses it later, when it opens).
func Publishers(cameras []camera.Config) []rosqos.Publisher {
	var out []rosqos.Publisher
	for _, c := range cameras {
		t := TopicsFor(c.Name)
		if f, err := wire.ParsePixelFormat(c.PixelFormat); err != nil || !f.Compressed {
			out = append(out, rosqos.Publisher{Topic: t.Image, Default: ImageQoS}) // raw formats: their JPEG too, below
		}
		out = append(out, rosqos.Publisher{Topic: t.Compressed, Default: ImageQoS}, rosqos.Publisher{Topic: t.CameraInfo, Default: ImageQoS})
	}
	return out
}
