package rosnode

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

// journal records events from several goroutines in order.
type journal struct {
	mu     sync.Mutex
	events []string
}

func (j *journal) add(format string, args ...any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.events = append(j.events, fmt.Sprintf(format, args...))
}

func (j *journal) list() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.events)
}

// machine is a task that, once cancelled, takes a while to tell its
// machine to stop (its last packets), as a driver's Run does.
func machine(j *journal, name string) task {
	return task{name, func(ctx context.Context) error {
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond)
		j.add("%s told to stop", name)
		return nil
	}}
}

// A signal (the parent context) stops every task; the process may exit
// (runTasks returns) only once every machine has been told to stop, and
// the last words come after all of them, in reverse order.
func TestRunTasksSignalStopsEveryMachineBeforeReturning(t *testing.T) {
	var j journal
	ctx, signal := context.WithCancel(context.Background())
	loop := task{"loop", func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err() // a rate loop's cancellation is not an error
	}}
	go func() {
		time.Sleep(10 * time.Millisecond)
		signal()
	}()
	ok := runTasks(ctx, []task{machine(&j, "driver"), loop, machine(&j, "bridge")},
		[]func(){func() { j.add("first registered") }, func() { j.add("second registered") }},
		func(format string, args ...any) { j.add("logged: "+format, args...) })
	j.add("returned")
	if !ok {
		t.Errorf("runTasks reported a failure after a clean stop")
	}
	got := j.list()
	if len(got) != 5 || !slices.Contains(got[:2], "driver told to stop") || !slices.Contains(got[:2], "bridge told to stop") ||
		got[2] != "second registered" || got[3] != "first registered" || got[4] != "returned" {
		t.Errorf("events %q: want both machines told to stop, then the last words in reverse order, then the return", got)
	}
}

// A task that returns (a loop's error, the console's server) stops the
// node: the others are cancelled and waited for; the error is logged with
// the task's name and reported.
func TestRunTasksOneReturningStopsTheOthers(t *testing.T) {
	var j journal
	boom := errors.New("publish odom: boom")
	failing := task{"publish loop", func(context.Context) error { return boom }}
	done := make(chan bool, 1)
	go func() {
		done <- runTasks(context.Background(), []task{machine(&j, "driver"), failing}, nil,
			func(format string, args ...any) { j.add("logged: "+format, args...) })
	}()
	select {
	case ok := <-done:
		if ok {
			t.Errorf("runTasks reported success after a task failed")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a failing task did not stop the node")
	}
	got := j.list()
	if !slices.Contains(got, "logged: publish loop: publish odom: boom") || !slices.Contains(got, "driver told to stop") {
		t.Errorf("events %q: want the error logged with its task's name and the machine told to stop", got)
	}
}

// A task that ends cleanly stops the node too (nothing is left to run it
// for), and that is no failure.
func TestRunTasksCleanReturnStopsTheOthers(t *testing.T) {
	var j journal
	ok := runTasks(context.Background(), []task{machine(&j, "cameras"), {"console", func(context.Context) error { return nil }}}, nil,
		func(format string, args ...any) { j.add("logged: "+format, args...) })
	if got := j.list(); !ok || !slices.Equal(got, []string{"cameras told to stop"}) {
		t.Errorf("ok %v, events %q: want success and the cameras stopped", ok, got)
	}
}

// A cancellation error from a task that returns while the node is still
// running is a failure: only the node's own stop makes it harmless.
func TestRunTasksEarlyCancellationIsAnError(t *testing.T) {
	var j journal
	early := task{"loop", func(context.Context) error { return fmt.Errorf("wrapped: %w", context.Canceled) }}
	if runTasks(context.Background(), []task{early}, nil, func(format string, args ...any) { j.add(format, args...) }) {
		t.Errorf("an unexplained cancellation counted as a clean stop")
	}
}

func TestLiveHandlers(t *testing.T) {
	var l live
	update := []rosparam.Parameter{{Name: "max_speed", Value: rosparam.ParameterValue{Type: rosparam.ParameterDouble, DoubleValue: 2}}}
	current := func(string) rosparam.ParameterValue { return rosparam.ParameterValue{} }
	specErr, checkErr := errors.New("spec refuses"), errors.New("core refuses")
	refuseSpec := false
	spec := func([]rosparam.Parameter, func(string) rosparam.ParameterValue) error {
		if refuseSpec {
			return specErr
		}
		return nil
	}
	validate := l.validate(spec)

	// Start-up: no handlers yet; only the spec's check applies.
	if err := validate(update, current); err != nil {
		t.Errorf("start-up update refused without a check installed: %v", err)
	}
	l.onChange(update) // nothing installed: nothing happens

	var applied []rosparam.Parameter
	l.set(func([]rosparam.Parameter) error { return checkErr }, func(u []rosparam.Parameter) { applied = u })
	if err := validate(update, current); !errors.Is(err, checkErr) {
		t.Errorf("validate = %v, want the core's refusal", err)
	}
	refuseSpec = true
	if err := validate(update, current); !errors.Is(err, specErr) {
		t.Errorf("validate = %v, want the spec's refusal first", err)
	}
	l.onChange(update)
	if len(applied) != 1 || applied[0].Name != "max_speed" {
		t.Errorf("apply got %v, want the update", applied)
	}

	// Either handler may be nil.
	l.set(nil, nil)
	refuseSpec = false
	if err := validate(update, current); err != nil {
		t.Errorf("validate with no check = %v", err)
	}
	l.onChange(update)
}
