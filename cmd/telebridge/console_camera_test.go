package main

import (
	"bytes"
	"image/jpeg"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/video"
)

// TestConsoleCameraMode: --camera-width, --camera-height and --camera-fps
// reach the cameras: the MJPEG pictures have that size and come no faster
// than that rate (load can only slow them, so the bound holds on a busy
// machine).
func TestConsoleCameraMode(t *testing.T) {
	url, out, stop := startConsole(t, "--listen", "127.0.0.1:0", "--servosila", "off", "--furbot", "off",
		"--camera", "pattern:only", "--camera-width", "320", "--camera-height", "240", "--camera-fps", "4")
	defer stop()
	base, _, _ := strings.Cut(url, "?")
	resp, err := http.Get(strings.TrimSuffix(base, "/") + "/camera/only")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		t.Fatalf("camera response %d %q: %v (console output %q)", resp.StatusCode, resp.Header.Get("Content-Type"), err, out.String())
	}
	mr := multipart.NewReader(resp.Body, params["boundary"])
	var first time.Time
	n := 0
	for n < 9 {
		p, err := mr.NextPart()
		if err != nil {
			t.Fatalf("after %d pictures: %v", n, err)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		c, err := jpeg.DecodeConfig(bytes.NewReader(b))
		if err != nil || c.Width != 320 || c.Height != 240 {
			t.Fatalf("picture %d: %dx%d, %v; want 320x240", n, c.Width, c.Height, err)
		}
		if n == 0 {
			first = time.Now()
		}
		n++
	}
	// 8 intervals at 4 Hz take 2 s; allow one interval of jitter.
	if el := time.Since(first); el < 1750*time.Millisecond {
		t.Errorf("8 picture intervals in %v: faster than --camera-fps 4", el)
	}
}

// TestConsoleSaysWhatToInstallWithoutX264: without libx264 (here turned
// off with TELEBRIDGE_NO_X264 in a child run of this test) the console
// starts, and says in one line that the cameras are MJPEG only and what
// to install.
func TestConsoleSaysWhatToInstallWithoutX264(t *testing.T) {
	if os.Getenv(video.NoX264Env) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestConsoleSaysWhatToInstallWithoutX264$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), video.NoX264Env+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestConsoleSaysWhatToInstallWithoutX264") {
			t.Fatalf("child with %s=1: %v\n%s", video.NoX264Env, err, out)
		}
		return
	}
	_, out, stop := startConsole(t, "--listen", "127.0.0.1:0", "--servosila", "off", "--furbot", "off", "--camera", "pattern:only")
	if c := stop(); c != 0 {
		t.Fatalf("exit %d: %s", c, out.String())
	}
	n := 0
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "(cameras: MJPEG only, no WebRTC: no H.264 encoder: install libx264 (apt-get install libx264-164)") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d lines saying what to install, want 1:\n%s", n, out.String())
	}
}
