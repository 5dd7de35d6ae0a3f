//go:build linux && cgo

package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/syncbuf"
	"github.com/telebridge/telebridge/pkg/video/framecode"
)

// evenUDPPort finds a free even port on 127.0.0.1 whose odd neighbour is
// free too (ffmpeg binds both: RTP and RTCP).
func evenUDPPort(t *testing.T) int {
	for i := 0; i < 50; i++ {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			t.Fatal(err)
		}
		p := c.LocalAddr().(*net.UDPAddr).Port
		c.Close()
		if p%2 != 0 || p > 65000 {
			continue
		}
		c2, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: p + 1})
		if err != nil {
			continue
		}
		c2.Close()
		return p
	}
	t.Fatal("no free even UDP port pair on 127.0.0.1")
	return 0
}

// TestRTPToFFmpeg sends the pattern camera over RTP to 127.0.0.1 and
// decodes it with ffmpeg from the written SDP: 30 frames must decode and
// their frame codes must advance.
func TestRTPToFFmpeg(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg not installed (apt-get install ffmpeg; scripts/check.sh installs it)")
	}
	rtpDecode(t, func(sdp string) []string {
		return []string{"ffmpeg", "-hide_banner", "-loglevel", "error", "-protocol_whitelist", "file,udp,rtp",
			"-fflags", "nobuffer", "-flags", "low_delay", "-i", sdp, "-frames:v", "30", "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "-"}
	})
}

// TestRTPToGStreamer is the same with GStreamer (sdpdemux, rtph264depay,
// avdec_h264), where it is installed (Debian: gstreamer1.0-tools,
// -plugins-good, -plugins-bad, -libav; not needed by the build).
func TestRTPToGStreamer(t *testing.T) {
	if _, err := exec.LookPath("gst-launch-1.0"); err != nil {
		t.Skip("gst-launch-1.0 not installed (optional: apt-get install gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav)")
	}
	if err := exec.Command("gst-inspect-1.0", "sdpdemux").Run(); err != nil {
		t.Skip("GStreamer without sdpdemux (optional: apt-get install gstreamer1.0-plugins-bad)")
	}
	rtpDecode(t, func(sdp string) []string {
		return []string{"gst-launch-1.0", "-q", "filesrc", "location=" + sdp, "!", "sdpdemux", "!", "rtph264depay", "!",
			"h264parse", "!", "avdec_h264", "!", "videoconvert", "!", "video/x-raw,format=GRAY8", "!", "fdsink", "fd=1"}
	})
}

// rtpDecode runs `telebridge rtp` with the pattern camera to 127.0.0.1,
// then the decoder that command(sdp) names, which writes 640x480 grey
// frames to its standard output. Frames before the first one with a code
// (a decoder may show what it made of pictures before the first IDR) are
// skipped; then 30 frames must carry codes that advance.
func rtpDecode(t *testing.T, command func(sdp string) []string) {
	dir := t.TempDir()
	sdp := filepath.Join(dir, "front.sdp")
	port := evenUDPPort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"rtp", "--camera", "pattern:front", "--to", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), "--sdp", sdp},
			stdio{in: strings.NewReader(""), out: &out, err: &errOut})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(sdp); err == nil && bytes.Contains(b, []byte("sprop-parameter-sets")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no SDP written; stderr:\n%s", errOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	dctx, dcancel := context.WithTimeout(ctx, 60*time.Second)
	defer dcancel()
	args := command(sdp)
	cmd := exec.CommandContext(dctx, args[0], args[1:]...)
	var decErr bytes.Buffer
	cmd.Stderr = &decErr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	const w, h = 640, 480
	frame := make([]byte, w*h)
	var codes []framecode.Code
	var lat []time.Duration // decoded frame read minus stamped capture time
	skipped := 0
	for len(codes) < 30 {
		if _, err := io.ReadFull(stdout, frame); err != nil {
			break
		}
		c, err := framecode.Read(frame, w, w, h)
		switch {
		case err != nil && len(codes) == 0 && skipped < 150:
			skipped++
		case err != nil:
			t.Errorf("frame %d after the first with a code: %v", len(codes), err)
		default:
			codes = append(codes, c)
			lat = append(lat, time.Since(c.Time()))
		}
	}
	_ = cmd.Process.Kill()
	werr := cmd.Wait()
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("telebridge rtp exited %d; stderr:\n%s", code, errOut.String())
	}
	if len(codes) != 30 {
		t.Fatalf("%s decoded %d frames with a code, want 30 (%v)\n%s", args[0], len(codes), werr, decErr.String())
	}
	now := time.Now()
	for i, c := range codes {
		if age := now.Sub(c.Time()); age < 0 || age > time.Minute {
			t.Errorf("frame %d: capture time %v is %v before now", i, c.Time(), age)
		}
		if i > 0 && (c.Counter <= codes[i-1].Counter || c.Millis <= codes[i-1].Millis) {
			t.Errorf("frame %d: code %+v does not advance from %+v", i, c, codes[i-1])
		}
	}
	slices.Sort(lat)
	t.Logf("%s: 30 frames with codes (after %d without), counters %d..%d, capture times %v apart; capture to decoded frame (ms clock of the code, so +-1 ms): p50 %v, p95 %v, max %v; %s",
		args[0], skipped, codes[0].Counter, codes[29].Counter, codes[29].Time().Sub(codes[0].Time()),
		lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)*95/100].Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond),
		strings.TrimSpace(lastLine(errOut.String())))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
