//go:build linux && cgo

package camera_test

import (
	"context"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

// Capture with a Device: open, start, take frames, stop. The frame's Data
// is the driver's buffer; copy it into a reused message before returning.
func ExampleOpen() {
	dev, err := camera.Open(camera.Config{Name: "front", Device: "/dev/video0", PixelFormat: "YUYV"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dev.Close()
	if err := dev.Start(); err != nil {
		fmt.Println(err)
		return
	}
	var msg camera.Image // reused: no allocation per frame
	for i := 0; i < 10; i++ {
		if _, err := dev.Next(time.Second, func(f *camera.Frame) { f.CopyTo(&msg) }); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(dev.Stats().Frames)
}

// A Camera streams only while someone subscribes; a ROS node reports the
// subscriber counts of the two topics and publishes from the callback.
func ExampleNew() {
	var msg camera.Image
	cam, err := camera.New(camera.Config{Name: "zoom", Device: "/dev/video3"}, func(f *camera.Frame) {
		f.CopyTo(&msg)
		// publish msg on zoom/image_raw, camera info on zoom/camera_info
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	go func() {
		cam.SetSubscribers(1, 0) // first subscriber: the stream starts
		time.Sleep(time.Second)
		cam.SetSubscribers(0, 0) // last one left: VIDIOC_STREAMOFF, no CPU
	}()
	_ = cam.Run(ctx)
	fmt.Println(cam.Stats().Frames > 0)
}
