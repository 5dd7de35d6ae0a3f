package node_test

import (
	"fmt"
	"strings"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/node"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// A calibration file read, changed and written back (set_camera_info).
func ExampleParseCalibration() {
	c, err := node.ParseCalibration([]byte(`image_width: 640
image_height: 480
camera_name: zoom
camera_matrix:
  rows: 3
  cols: 3
  data: [500, 0, 320, 0, 500, 240, 0, 0, 1]
distortion_model: plumb_bob
distortion_coefficients:
  rows: 1
  cols: 5
  data: [0, 0, 0, 0, 0]
rectification_matrix:
  rows: 3
  cols: 3
  data: [1, 0, 0, 0, 1, 0, 0, 0, 1]
projection_matrix:
  rows: 3
  cols: 4
  data: [500, 0, 320, 0, 0, 500, 240, 0, 0, 0, 1, 0]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	info := c.Info()
	fmt.Println(info.Width, info.Height, info.DistortionModel, info.K[0])
	c.CameraMatrix[0] = 512.5
	text := string(c.YAML())
	fmt.Print(text[:strings.Index(text, "distortion_model")])
	// Output:
	// 640 480 plumb_bob 500
	// image_width: 640
	// image_height: 480
	// camera_name: zoom
	// camera_matrix:
	//   rows: 3
	//   cols: 3
	//   data: [512.5, 0, 320, 0, 500, 240, 0, 0, 1]
}

// ExamplePlanNode: what camera_publisher decides before it declares its
// parameters, from its start-up overrides.
func ExamplePlanNode() {
	over := map[string]rosparam.ParameterValue{
		node.ParamCameras:    rosparam.StringArray([]string{"zoom"}),
		"zoom.device":        rosparam.String("pattern:zoom"),
		"zoom.pixel_format":  rosparam.String("YUYV"),
		"zoom.controls.gain": rosparam.Integer(40),
	}
	noDevice := func(camera.Config) ([]wire.Control, error) { return nil, camera.ErrNoDevice }
	plan, err := node.PlanNode(over, noDevice)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := plan.Config.Cameras[0]
	fmt.Println(c.Name, c.Device, c.PixelFormat, c.Controls, len(plan.Table), "parameters")
	fmt.Println(node.TopicsFor(c.Name).Image, node.ServiceSetCameraInfo(c.Name))
	fmt.Println(plan.Warnings[0])
	// Output:
	// zoom pattern:zoom YUYV map[gain:40] 14 parameters
	// zoom/image_raw zoom/set_camera_info
	// camera zoom: no control parameters (device not probed: no V4L2 capture device)
}
