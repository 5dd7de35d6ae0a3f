package rosnode

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

// The parts of the node skeleton (Run) that need no rclgo: the node's
// goroutines and the live parameter handlers. They build without the ros2
// tag, so that they are tested without ROS.

// task is a goroutine of the node, named for its errors.
type task struct {
	name string
	f    func(ctx context.Context) error
}

// runTasks runs every task in a goroutine of its own until ctx is
// cancelled or one of them returns; then it cancels the others and waits
// for every one, and only then calls the finally functions, in reverse
// order. A task's error (other than the cancellation's) is logged as
// "name: error" through logf. It reports whether no task failed.
func runTasks(ctx context.Context, tasks []task, finally []func(), logf func(format string, args ...any)) bool {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var (
		wg     sync.WaitGroup
		failed atomic.Bool
	)
	for _, t := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer stop()
			err := t.f(ctx)
			if err != nil && !(errors.Is(err, context.Canceled) && ctx.Err() != nil) {
				logf("%s: %v", t.name, err)
				failed.Store(true)
			}
		}()
	}
	wg.Wait()
	for i := len(finally) - 1; i >= 0; i-- {
		finally[i]()
	}
	return !failed.Load()
}

// live holds the handlers of live parameter changes (Node.Live); the
// parameter store calls them through validate and onChange. The zero
// value has none. Safe for concurrent use.
type live struct {
	hooks atomic.Pointer[liveHooks]
}

type liveHooks struct {
	check func([]rosparam.Parameter) error
	apply func([]rosparam.Parameter)
}

// set installs the handlers; either may be nil.
func (l *live) set(check func([]rosparam.Parameter) error, apply func([]rosparam.Parameter)) {
	l.hooks.Store(&liveHooks{check, apply})
}

// validate returns the store's Validate: spec (the node's Validate, which
// may be nil), then the installed check.
func (l *live) validate(spec func([]rosparam.Parameter, func(string) rosparam.ParameterValue) error) func([]rosparam.Parameter, func(string) rosparam.ParameterValue) error {
	return func(update []rosparam.Parameter, current func(string) rosparam.ParameterValue) error {
		if spec != nil {
			if err := spec(update, current); err != nil {
				return err
			}
		}
		if h := l.hooks.Load(); h != nil && h.check != nil {
			return h.check(update)
		}
		return nil
	}
}

// onChange is the store's OnChange: the installed apply.
func (l *live) onChange(update []rosparam.Parameter) {
	if h := l.hooks.Load(); h != nil && h.apply != nil {
		h.apply(update)
	}
}
