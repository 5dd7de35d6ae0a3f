// Package consoletest runs an operator console (pkg/console) on a
// loopback port for the life of a test, for the tests of both console
// backends (pkg/console/direct, pkg/console/graph).
package consoletest

import (
	"context"
	"net"
	"testing"

	"github.com/telebridge/telebridge/pkg/console"
)

// Serve starts a console of cfg on a free port of 127.0.0.1 (cfg.Listen,
// when empty, becomes "127.0.0.1:0", so the console counts as on
// loopback) and returns it with its listening address (the URL to open
// is srv.URL(addr)). It serves until ctx is done or the test ends; the
// test's cleanup then waits for Serve to return and fails the test if it
// returned an error. Register the cleanup of what the console drives (its
// backend) before calling Serve, so that it runs after the console has
// stopped.
func Serve(t testing.TB, ctx context.Context, cfg console.Config) (*console.Server, net.Addr) {
	t.Helper()
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	srv, err := console.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("console: %v", err)
		}
	})
	return srv, ln.Addr()
}
