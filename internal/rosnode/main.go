//go:build ros2

package rosnode

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Main runs a node's body and exits the process: run gets a context that
// SIGINT and SIGTERM cancel (and stop, to cancel it from inside), and must
// stop whatever the node drives before it returns. An error is printed
// after the node's name and exits with status 1.
func Main(name string, run func(ctx context.Context, stop context.CancelFunc) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, stop)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

// SpinAsync runs the node's callbacks in a goroutine until ctx is
// cancelled; the channel receives Spin's result.
func (n *Node) SpinAsync(ctx context.Context) <-chan error {
	done := make(chan error, 1)
	go func() { done <- n.Spin(ctx) }()
	return done
}
