//go:build linux && cgo

package main

import (
	"strings"
	"testing"
)

// TestRTPBadInput: malformed command lines are usage errors (exit 2), an
// unknown device or destination a plain error (exit 1), each with a
// message naming what is wrong; nothing is sent.
func TestRTPBadInput(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"rtp"}, 2, "--to HOST:PORT is required"},
		{[]string{"rtp", "--to", "127.0.0.1:5004", "extra"}, 2, "unexpected argument"},
		{[]string{"rtp", "--to", "127.0.0.1:5004", "--bitrate", "5"}, 2, "--bitrate 5"},
		{[]string{"rtp", "--to", "127.0.0.1:5004", "--width", "641"}, 2, "even sizes"},
		{[]string{"rtp", "--to", "127.0.0.1:5004", "--width", "8"}, 2, "--width 8"},
		{[]string{"rtp", "--to", "127.0.0.1:5004", "--height", "9000"}, 2, "--height 9000"},
		{[]string{"rtp", "--to", "127.0.0.1:5004", "--fps", "1001"}, 2, "--fps 1001"},
		{[]string{"rtp", "--to", "127.0.0.1:5004", "--camera", "/dev/nonexistent-video"}, 1, "no V4L2 capture device"},
		{[]string{"rtp", "--to", "127.0.0.1:0"}, 1, "want HOST:PORT"},
		{[]string{"rtp", "--to", "127.0.0.1:5004", "--mtu", "50"}, 1, "MTU 50"},
		{[]string{"rtp", "--to", "127.0.0.1:5004", "--fps", "0"}, 2, "--fps 0"},
		{[]string{"rtp", "--to", "127.0.0.1:5004", "--format", "H265"}, 1, "H265"},
	}
	for _, c := range cases {
		code, _, errOut := call(t, "", c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}
