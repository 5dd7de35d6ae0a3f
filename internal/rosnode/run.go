//go:build ros2

package rosnode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/rosqos"
)

// Spec is what Run needs to know of a node; every field but Validate comes
// from the node's contract in pkg/<machine>/node.
type Spec[C any] struct {
	// Name is the node's default name (a launch file or `-r __node:=`
	// may change it).
	Name string
	// Table is the node's parameter table.
	Table rosparam.Table
	// Validate checks a whole update against the current values, the
	// start-up values included (optional; see also Node.Live).
	Validate func(update []rosparam.Parameter, current func(string) rosparam.ParameterValue) error
	// Load builds the node's configuration from its start-up parameters
	// and checks it.
	Load func(*rosparam.Store) (C, error)
	// Publishers are the node's publishers whose QoS the
	// qos_overrides.<topic>.publisher.* parameters override (its sensor
	// publishers, from its core package); setup creates them with
	// Node.PublisherOpts.
	Publishers []rosqos.Publisher
}

// Run is a node's whole process. It starts rclgo and the node from the
// command line, loads the configuration (spec.Load) and calls
// setup, which builds the node's core from it, creates every publisher,
// subscription and service (rclgo takes them once, when spinning starts)
// and registers the node's goroutines with Go. Then the node spins and
// its goroutines run until SIGINT or SIGTERM, or until any of them (or
// spinning) returns; every one is then cancelled and waited for, so that
// what the node drives has been told to stop before the process exits.
//
// An error before spinning is printed after the node's name; an error of
// a goroutine or of spinning is logged on the node's logger as it
// happens. Either exits with status 1.
func Run[C any](spec Spec[C], setup func(n *Node, cfg C) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, spec, setup)
	stop()
	if err != nil {
		Exit(spec.Name, err)
	}
}

// Exit prints err after the node's name and exits with status 1, as Run
// does. It is for what fails before Run can start the node (a node that
// must read its command line first, like camera_publisher).
func Exit(name string, err error) {
	var logged errLogged
	if !errors.As(err, &logged) {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	}
	os.Exit(1)
}

// errLogged is an error already reported on the node's logger.
type errLogged struct{ error }

func run[C any](ctx context.Context, spec Spec[C], setup func(*Node, C) error) error {
	n, err := start(options{Name: spec.Name, Args: os.Args[1:], Table: spec.Table, Validate: spec.Validate, Publishers: spec.Publishers})
	if err != nil {
		return err
	}
	defer n.Close()
	cfg, err := spec.Load(n.Params)
	if err != nil {
		return err
	}
	if err := setup(n, cfg); err != nil {
		return err
	}
	return n.run(ctx)
}

// Go registers f to run, in a goroutine of its own, while the node spins:
// the node's loop, or the runtime of the machine it drives. f lives as
// long as the node: it returns once ctx is cancelled, and only once what
// it drives has been told to stop (its last packets sent, its stop
// message published); Run waits for it before the process exits. When f
// returns earlier, the node stops; an error (other than ctx's) is logged
// as "name: error". Call Go from setup only.
func (n *Node) Go(name string, f func(ctx context.Context) error) {
	n.tasks = append(n.tasks, task{name, f})
}

// Finally registers f to run once the node has stopped: spinning has
// ended (no callback runs any more) and every goroutine of Go has
// returned. It is for the node's last words (counts of what it did, that
// the machine was told to stop). The functions run in the reverse order of
// their registration. Call Finally from setup only.
func (n *Node) Finally(f func()) { n.finally = append(n.finally, f) }

// run spins the node and runs its goroutines (runTasks).
func (n *Node) run(ctx context.Context) error {
	tasks := append([]task{{"spin", n.spin}}, n.tasks...)
	logf := func(format string, args ...any) { _ = n.Logger().Errorf(format, args...) }
	if !runTasks(ctx, tasks, n.finally, logf) {
		return errLogged{errors.New("stopped on error")}
	}
	return nil
}

// Live installs the handlers of live parameter changes, from setup once
// the core they change exists (before that only start-up values are set,
// which Spec.Load checks). check, when not nil, refuses an update the
// core cannot take (after Spec.Validate); it runs with the parameter store
// locked and must not call it. apply, when not nil, hands an accepted
// update to the core; it runs in a service callback and must not block.
func (n *Node) Live(check func(update []rosparam.Parameter) error, apply func(update []rosparam.Parameter)) {
	n.live.set(check, apply)
}
