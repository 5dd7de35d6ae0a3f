package mjpeg_test

import (
	"fmt"
	"image/jpeg"
	"net/http"
	"net/http/httptest"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/mjpeg"
)

// A snapshot with nobody watching makes the stream wanted (OnViewers(1))
// until a frame is encoded; here a goroutine stands in for the camera and
// feeds one grey frame when asked.
func ExampleStream_Snapshot() {
	s, err := mjpeg.NewStream("rear", mjpeg.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	frame := &camera.Frame{Width: 64, Height: 48, Step: 64, Encoding: "mono8", Data: make([]byte, 64*48)}
	wanted := make(chan int, 8)
	s.OnViewers(func(n int) { wanted <- n })
	<-wanted // OnViewers reports the current count (0) at once
	go func() {
		if <-wanted == 1 { // the camera would start streaming here
			s.Feed(frame)
		}
	}()

	srv := httptest.NewServer(http.HandlerFunc(s.Snapshot))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	img, err := jpeg.Decode(resp.Body)
	if err != nil {
		fmt.Println(err)
		return
	}
	st := s.Stats()
	fmt.Println(resp.Header.Get("Content-Type"), img.Bounds().Dx(), "x", img.Bounds().Dy())
	fmt.Println("frames in:", st.FramesIn, "encoded:", st.Encoded, "input:", st.InputEncoding)
	// Output:
	// image/jpeg 64 x 48
	// frames in: 1 encoded: 1 input: mono8
}
