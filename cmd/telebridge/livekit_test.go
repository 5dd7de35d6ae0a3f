package main

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/syncbuf"
)

// TestConsoleLiveKitFlagsRefused: LiveKit options that cannot publish are
// refused with a word before anything connects.
func TestConsoleLiveKitFlagsRefused(t *testing.T) {
	for _, v := range []string{envLiveKitKey, envLiveKitSecret, envLiveKitToken} {
		t.Setenv(v, "")
	}
	url := []string{"--livekit-url", "ws://127.0.0.1:9"}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--livekit-room", "robot1"}, "without --livekit-url"},
		{append(url, "--camera", "pattern:front"), "no credentials"},
		{append(url, "--camera", "pattern:front", "--livekit-token", "t", "--livekit-api-key", "k", "--livekit-api-secret", "s"), "both"},
		{append(url, "--camera", "pattern:front", "--livekit-api-key", "k", "--livekit-api-secret", "s"), "no room"},
		{append(url, "--camera", "pattern:front", "--livekit-token", "t", "--livekit-track", "rear=x"), `no camera "rear"`},
		{append(url, "--camera", "pattern:front", "--livekit-token", "t", "--livekit-track", "front"), "CAMERA=NAME"},
		{append(url, "--camera", "off", "--livekit-token", "t"), "no camera to publish"},
		{[]string{"--livekit-url", "udp://127.0.0.1:9", "--camera", "pattern:front", "--livekit-token", "t"}, "scheme"},
	} {
		var out, errb syncbuf.Buffer
		code := run(context.Background(), append([]string{"console", "--listen", "127.0.0.1:0", "--state-dir", t.TempDir(), "--servosila", "off", "--furbot", "off"}, c.args...),
			stdio{in: strings.NewReader(""), out: &out, err: &errb})
		if code == 0 || !strings.Contains(errb.String()+out.String(), c.says) {
			t.Errorf("%v: exit %d, output %q %q, want it to say %q", c.args, code, out.String(), errb.String(), c.says)
		}
	}
}

// TestConsoleLiveKitUnreachable: with the SFU unreachable the console
// serves as usual, logs the failed attempts, and stops cleanly.
func TestConsoleLiveKitUnreachable(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens there now
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncbuf.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"console", "--listen", "127.0.0.1:0", "--state-dir", t.TempDir(), "--servosila", "off", "--furbot", "off",
			"--camera", "pattern:front", "--livekit-url", "ws://127.0.0.1:" + strconv.Itoa(port), "--livekit-room", "robot1",
			"--livekit-api-key", "k", "--livekit-api-secret", "s", "--livekit-track", "front=robot1-front"},
			stdio{in: strings.NewReader(""), out: &out, err: &errb})
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !urlRe.MatchString(out.String()) || !strings.Contains(errb.String(), "livekit: not publishing; reconnecting") {
		select {
		case c := <-code:
			t.Fatalf("console exited %d: %s %s", c, out.String(), errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s: output %q, log %q", out.String(), errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "LiveKit: every camera published once into ws://127.0.0.1:") {
		t.Errorf("no LiveKit note in %q", out.String())
	}
	resp, err := http.Get(urlRe.FindStringSubmatch(out.String())[1])
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("page: %d", resp.StatusCode)
	}
	cancel()
	if c := <-code; c != 0 {
		t.Fatalf("exit %d: %s %s", c, out.String(), errb.String())
	}
}
