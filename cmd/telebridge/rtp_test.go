//go:build linux && cgo && !nox264

package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
	dir := t.TempDir()
	sdp := filepath.Join(dir, "front.sdp")
	port := evenUDPPort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut lockedBuffer
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
	fctx, fcancel := context.WithTimeout(ctx, 60*time.Second)
	defer fcancel()
	cmd := exec.CommandContext(fctx, "ffmpeg", "-hide_banner", "-loglevel", "error", "-protocol_whitelist", "file,udp,rtp",
		"-i", sdp, "-frames:v", "30", "-f", "rawvideo", "-pix_fmt", "gray", "-")
	var ffErr bytes.Buffer
	cmd.Stderr = &ffErr
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
	for len(codes) < 30 {
		if _, err := io.ReadFull(stdout, frame); err != nil {
			break
		}
		c, err := framecode.Read(frame, w, w, h)
		if err != nil {
			t.Errorf("frame %d: %v", len(codes), err)
			continue
		}
		codes = append(codes, c)
	}
	werr := cmd.Wait()
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("telebridge rtp exited %d; stderr:\n%s", code, errOut.String())
	}
	if len(codes) != 30 {
		t.Fatalf("decoded %d frames with a code, want 30 (ffmpeg: %v)\n%s", len(codes), werr, ffErr.String())
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
	t.Logf("30 frames decoded by ffmpeg, counters %d..%d, capture times %v apart; %s",
		codes[0].Counter, codes[29].Counter, codes[29].Time().Sub(codes[0].Time()), strings.TrimSpace(lastLine(errOut.String())))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
