// Package node is the ROS contract of camera_publisher, in pure Go (no
// rclgo): the node name, the topics of a camera (TopicsFor: image_raw,
// image_raw/compressed, camera_info) and their QoS (ImageQoS), the
// diagnostics and set_camera_info profiles, the parameter table of a
// camera and of the node (Bindings, NodeBindings on pkg/rosparam, bound
// to camera.Config; ParamCameras, ControlPrefix, ControlParam for the
// V4L2 controls a device offers), the ROS 2 parameters file reader
// (ParseParamsFile), the node's start-up and run-time decisions
// (PlanNode, ControlChanges, Diagnose), and the message side: the
// sensor_msgs/CameraInfo of a camera from its calibration file in the
// camera_calibration_parsers format, found through camera_info_url
// (file:// or package:// on AMENT_PREFIX_PATH) and rewritten by
// set_camera_info (Calibration, InfoManager), the reused outgoing
// messages of a camera (Messages), its image_raw/compressed of any format
// (Compressor) and its JPEG and RTP settings (Output, OutputBindings,
// QualityChanges, Wants).
//
// cmd/camera_publisher, the console's graph backend, the parameter file
// generator and the docs read these names instead of restating them. The
// runtime (pkg/camera) never imports this package. Sizes are [px],
// periods time.Duration.
package node
