package camera_test

import (
	"fmt"
	"strings"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// The encoding a pixel format is published with, and the topics of a camera.
func ExampleLookupFormat() {
	for _, name := range []string{"YUYV", "GRBG", "GREY", "MJPG"} {
		f, _ := camera.ParsePixelFormat(name)
		fmt.Printf("%s -> %s (compressed %v)\n", f.Name, f.Encoding, f.Compressed)
	}
	t := camera.TopicsFor("front_left")
	fmt.Println(t.Image, t.CameraInfo)
	// Output:
	// YUYV -> yuv422_yuy2 (compressed false)
	// GRBG -> bayer_grbg8 (compressed false)
	// GREY -> mono8 (compressed false)
	// MJPG -> jpeg (compressed true)
	// front_left/image_raw front_left/camera_info
}

// Demand turns subscriber counts into stream on/off actions.
func ExampleDemand() {
	var d camera.Demand
	for _, n := range []int{0, 1, 3, 0} {
		a := d.Update(n, 0)
		switch a {
		case camera.Start:
			d.Started()
		case camera.Stop:
			d.Stopped()
		}
		fmt.Println(n, "subscribers:", a)
	}
	// Output:
	// 0 subscribers: hold
	// 1 subscribers: start
	// 3 subscribers: hold
	// 0 subscribers: stop
}

// A calibration file read, changed and written back (set_camera_info).
func ExampleParseCalibration() {
	c, err := camera.ParseCalibration([]byte(`image_width: 640
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
		camera.ParamCameras:  rosparam.StringArray([]string{"zoom"}),
		"zoom.device":        rosparam.String("pattern:zoom"),
		"zoom.pixel_format":  rosparam.String("YUYV"),
		"zoom.controls.gain": rosparam.Integer(40),
	}
	noDevice := func(camera.Config) ([]camera.Control, error) { return nil, camera.ErrNoDevice }
	plan, err := camera.PlanNode(over, noDevice)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := plan.Config.Cameras[0]
	fmt.Println(c.Name, c.Device, c.PixelFormat, c.Controls, len(plan.Table), "parameters")
	fmt.Println(camera.TopicsFor(c.Name).Image, camera.ServiceSetCameraInfo(c.Name))
	fmt.Println(plan.Warnings[0])
	// Output:
	// zoom pattern:zoom YUYV map[gain:40] 10 parameters
	// zoom/image_raw zoom/set_camera_info
	// camera zoom: no control parameters (device not probed: no V4L2 capture device)
}
