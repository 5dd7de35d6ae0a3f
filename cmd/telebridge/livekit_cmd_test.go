//go:build linux && cgo

package main

import (
	"strings"
	"testing"
)

// TestLiveKitCmdBadInput: `telebridge livekit` refuses what cannot publish,
// with a message naming it, before anything connects.
func TestLiveKitCmdBadInput(t *testing.T) {
	for _, v := range []string{envLiveKitKey, envLiveKitSecret, envLiveKitToken} {
		t.Setenv(v, "")
	}
	u := "ws://127.0.0.1:9"
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"livekit"}, 2, "--livekit-url is required"},
		{[]string{"livekit", "--livekit-url", u, "extra"}, 2, "unexpected argument"},
		{[]string{"livekit", "--livekit-url", u, "--bitrate", "5"}, 2, "--bitrate 5"},
		{[]string{"livekit", "--livekit-url", u, "--fps", "0"}, 2, "--fps 0"},
		{[]string{"livekit", "--livekit-url", u, "--camera", "/dev/nonexistent-video"}, 1, "no V4L2 capture device"},
		{[]string{"livekit", "--livekit-url", u, "--camera", "pattern:a", "--camera", "pattern:a"}, 2, "twice"},
		{[]string{"livekit", "--livekit-url", u}, 1, "no credentials"},
		{[]string{"livekit", "--livekit-url", u, "--livekit-token", "t", "--livekit-track", "rear=x"}, 2, `no camera "rear"`},
	}
	for _, c := range cases {
		code, _, errOut := call(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}
