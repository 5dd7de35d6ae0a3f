package graph

import (
	"context"
	"errors"
	"fmt"

	"github.com/telebridge/telebridge/pkg/console"
)

// lock publishes the console's e-stop on twist_mux's lock topics (true:
// every velocity source muted) and records it for PublishLocks. Without
// TwistMux it does nothing.
func (b *Backend) lock(on bool) error {
	b.mu.Lock()
	b.locked = on
	b.mu.Unlock()
	return b.PublishLocks()
}

// PublishLocks publishes the console's e-stop state again on every lock
// topic: the lock has no timeout (params/twist_mux.yaml), so a twist_mux
// started after the e-stop learns it from the next call. The node calls
// it every second; without TwistMux it does nothing.
func (b *Backend) PublishLocks() error {
	b.mu.Lock()
	on := b.locked
	b.mu.Unlock()
	var errs []error
	for _, t := range []string{b.names.ServosilaLock, b.names.FurbotLock} {
		if t == "" {
			continue
		}
		if err := b.port.PublishBool(t, on); err != nil {
			errs = append(errs, fmt.Errorf("graph: lock %s: %w", t, err))
		}
	}
	return errors.Join(errs...)
}

// PublishJoy publishes the page's gamepad on the Joy topic of the machine
// it drives (console.JoyBackend).
func (b *Backend) PublishJoy(_ context.Context, j console.Joy) error {
	topic := ""
	switch j.Machine {
	case "servosila":
		topic = b.names.ServosilaJoy
	case "furbot":
		topic = b.names.FurbotJoy
	}
	if topic == "" {
		return fmt.Errorf("graph: joy for %q: %w", j.Machine, errOff)
	}
	if err := b.port.PublishJoy(topic, j); err != nil {
		return fmt.Errorf("graph: joy %s: %w", topic, err)
	}
	return nil
}

var _ console.JoyBackend = (*Backend)(nil)
