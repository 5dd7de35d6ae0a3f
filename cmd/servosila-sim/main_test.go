package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

func TestRunStartsAndStops(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	var out, errOut bytes.Buffer
	if err := run(ctx, []string{"-listen", "127.0.0.1:0", "-print", "50ms"}, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	if !strings.Contains(out.String(), "listening on 127.0.0.1:") || !strings.Contains(out.String(), "link false") {
		t.Errorf("output:\n%s", out.String())
	}
	if err := run(ctx, []string{"-telemetry-rate", "-1"}, &out, &errOut); err == nil {
		t.Error("negative telemetry rate accepted")
	}
}
