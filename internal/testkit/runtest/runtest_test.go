package runtest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
)

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) { r.errs = append(r.errs, format) }
func (r *recorder) Helper()                           {}

func TestGoStopsAndReports(t *testing.T) {
	tests := []struct {
		name    string
		runErr  error
		wantErr bool
	}{
		{"clean stop", nil, false},
		{"run fails", errors.New("socket closed"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			stopped := false
			stop := runtest.Go(rec, "sim", func(ctx context.Context) error {
				<-ctx.Done()
				stopped = true
				return tc.runErr
			})
			stop()
			stop() // a second stop is harmless
			if !stopped {
				t.Fatal("stop returned before the run ended")
			}
			if got := len(rec.errs) > 0; got != tc.wantErr {
				t.Fatalf("errors reported: %v, want error %v", rec.errs, tc.wantErr)
			}
		})
	}
}
