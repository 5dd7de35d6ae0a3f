// Package runtest runs the long-lived parts of a test rig (simulators,
// proxies, drivers: anything with a Run(ctx) error) in goroutines that end
// with the test.
package runtest

import (
	"context"
	"sync"
	"testing"
	"time"
)

// Go runs f in a goroutine until the returned stop is called or the test
// ends, whichever is first; an error from f fails the test, naming it.
// stop cancels f's context and waits for f to return; it may be called
// more than once. Cleanups run last-registered first, so parts started
// after the ones they talk to (a driver after its simulator) stop first.
func Go(t testing.TB, name string, f func(context.Context) error) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := f(ctx); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return stop
}

// WaitFor polls cond every 2 ms until it holds, and fails the test after
// limit, naming what it waited for. Tests of real-time loops wait for what
// they assert with a limit far beyond what an idle machine needs, so that
// CPU load delays them rather than failing them; the condition, not the
// time, is what they assert.
func WaitFor(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
