package wire_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/camera/node"
	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// The encoding a pixel format is published with, and the topics of a camera.
func ExampleLookupFormat() {
	for _, name := range []string{"YUYV", "GRBG", "GREY", "MJPG"} {
		f, _ := wire.ParsePixelFormat(name)
		fmt.Printf("%s -> %s (compressed %v)\n", f.Name, f.Encoding, f.Compressed)
	}
	t := node.TopicsFor("front_left")
	fmt.Println(t.Image, t.CameraInfo)
	// Output:
	// YUYV -> yuv422_yuy2 (compressed false)
	// GRBG -> bayer_grbg8 (compressed false)
	// GREY -> mono8 (compressed false)
	// MJPG -> jpeg (compressed true)
	// front_left/image_raw front_left/camera_info
}
