package video

import (
	"bytes"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/video/framecode"
)

// TestFrameCodeSurvivesH264 stamps codes into the moving pattern, encodes
// it with x264 at 1 Mbit/s, decodes it with ffmpeg (full size, and scaled
// to half and to 1.5x) and reads every code back.
func TestFrameCodeSurvivesH264(t *testing.T) {
	requireX264(t)
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg not installed (apt-get install ffmpeg; scripts/check.sh installs it)")
	}
	enc, err := NewEncoder(EncoderConfig{Width: 640, Height: 480, FrameRate: 30, Bitrate: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	const n = 60
	m := newMovingPattern(640, 480)
	var pic I420
	var stream bytes.Buffer
	t0 := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	for k := 0; k < n; k++ {
		m.frame(&pic, k)
		framecode.StampPlanar(pic.Y, pic.U, pic.V, 640, 480, framecode.New(t0.Add(time.Duration(k)*33*time.Millisecond), uint16(k)))
		au, _, err := enc.Encode(&pic, false)
		if err != nil {
			t.Fatal(err)
		}
		stream.Write(au)
	}
	for _, sz := range [][2]int{{640, 480}, {320, 240}, {960, 720}} {
		cmd := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "h264", "-i", "-",
			"-vf", fmt.Sprintf("scale=%d:%d", sz[0], sz[1]), "-f", "rawvideo", "-pix_fmt", "gray", "-")
		cmd.Stdin = bytes.NewReader(stream.Bytes())
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("ffmpeg: %v\n%s", err, errb.String())
		}
		fs := sz[0] * sz[1]
		if len(out) != n*fs {
			t.Fatalf("%dx%d: decoded %d bytes, want %d frames", sz[0], sz[1], len(out), n)
		}
		for k := 0; k < n; k++ {
			c, err := framecode.Read(out[k*fs:(k+1)*fs], sz[0], sz[0], sz[1])
			want := framecode.New(t0.Add(time.Duration(k)*33*time.Millisecond), uint16(k))
			if err != nil || c != want {
				t.Errorf("%dx%d frame %d: %+v, %v; want %+v", sz[0], sz[1], k, c, err, want)
			}
		}
	}
}
