//go:build linux && cgo

package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

func TestCameraCommandWithoutDevice(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "video9")
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"camera", "capture", "--device", missing, "-n", "3", "--out", t.TempDir()}, 1, "no V4L2 capture device"},
		{[]string{"camera", "list", "--device", missing}, 1, "no V4L2 capture device"},
		{[]string{"camera", "capture", "-n", "3"}, 2, "required"},
		{[]string{"camera", "bogus"}, 2, "unknown camera subcommand"},
		{[]string{"camera"}, 2, "missing subcommand"},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := run(context.Background(), tc.args, stdio{out: &out, err: &errb})
		if code != tc.code || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errb.String(), tc.code, tc.msg)
		}
	}
}

func TestCaptureSummary(t *testing.T) {
	t0 := time.Unix(100, 0)
	stamps := []time.Time{t0, t0.Add(40 * time.Millisecond), t0.Add(80 * time.Millisecond), t0.Add(120 * time.Millisecond)}
	s := captureSummary(stamps, 160*time.Millisecond, camera.Stats{Frames: 4, Dropped: 1})
	for _, want := range []string{"frames 4, dropped 1, corrupted 0", "achieved 25.00 fps (buffer timestamps), 25.00 fps (wall clock)",
		"strictly increasing: true", "median 40ms"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary %q lacks %q", s, want)
		}
	}
	stamps[2] = stamps[1]
	if s := captureSummary(stamps, time.Second, camera.Stats{}); !strings.Contains(s, "strictly increasing: false") {
		t.Errorf("repeated stamp not reported: %q", s)
	}
}
