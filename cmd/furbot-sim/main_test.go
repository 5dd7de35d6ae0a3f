package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

func TestRunStartsAndStops(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"--listen", "127.0.0.1:0", "--print", "100ms"}, &out, &errOut); err != nil {
		t.Fatalf("run: %v (%s)", err, errOut.String())
	}
	if !strings.Contains(out.String(), "control frames on 127.0.0.1:") || !strings.Contains(out.String(), "yaw") {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"--status-to", "nowhere"}, &out, &errOut); err == nil {
		t.Error("bad --status-to accepted")
	}
}
