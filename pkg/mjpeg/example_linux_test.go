//go:build linux && cgo

package mjpeg_test

import (
	"context"
	"fmt"
	"image/jpeg"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/mjpeg"
)

// A camera shown in a browser: the stream is the camera's frame function,
// its viewer count is the camera's demand, and it is the HTTP handler of
// an <img src="/front.mjpg">. Here the camera is the synthetic test
// pattern (640x480 YUYV at 30 Hz) and the viewer a Go HTTP client.
func ExampleNewStream() {
	s, err := mjpeg.NewStream("front", mjpeg.Config{Rate: 10, Quality: 75})
	if err != nil {
		fmt.Println(err)
		return
	}
	cam, err := camera.New(camera.Config{Name: "front", Device: "pattern:front"}, s.Feed)
	if err != nil {
		fmt.Println(err)
		return
	}
	s.OnViewers(func(n int) { cam.SetSubscribers(n, 0) }) // nobody watches: no streaming
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = cam.Run(ctx) }()

	mux := http.NewServeMux()
	mux.Handle("/front.mjpg", s)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/front.mjpg")
	if err != nil {
		fmt.Println(err)
		return
	}
	mr := multipart.NewReader(resp.Body, mjpeg.Boundary)
	part, err := mr.NextPart()
	if err != nil {
		fmt.Println(err)
		return
	}
	img, err := jpeg.Decode(part)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("first frame:", img.Bounds().Dx(), "x", img.Bounds().Dy(), "viewers:", s.Viewers())
	resp.Body.Close() // the viewer leaves: the camera stops streaming
	for cam.Stats().Stops == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("viewers:", s.Viewers(), "camera stopped:", cam.Stats().Stops)
	// Output:
	// first frame: 640 x 480 viewers: 1
	// viewers: 0 camera stopped: 1
}
