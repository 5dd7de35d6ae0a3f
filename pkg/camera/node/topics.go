package node

import "github.com/telebridge/telebridge/pkg/qos"

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

// ImageQoS is the profile images (raw and compressed) and camera info go
// out with: ROS 2's sensor-data profile (best effort, volatile, keep last
// 5). A late or lost frame is replaced by the next one, never resent.
var ImageQoS = qos.SensorData
