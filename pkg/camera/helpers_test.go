package camera

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

type countersForTest struct{ c atomic.Uint64 }

// stopRun cancels a running Camera.Run (its result arrives on done) and
// fails the test unless it returns nil within 5 s.
func stopRun(t *testing.T, cancel context.CancelFunc, done <-chan error) {
	t.Helper()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}
