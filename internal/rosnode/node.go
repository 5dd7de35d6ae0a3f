//go:build ros2

package rosnode

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/rosqos"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// options describe a node to start.
type options struct {
	// Name is the node's default name.
	Name string
	// Args are the command-line arguments after the program name.
	Args []string
	// Table is the node's parameter table, from its core package.
	Table rosparam.Table
	// Validate checks a whole update against the current values (optional).
	Validate func(update []rosparam.Parameter, current func(string) rosparam.ParameterValue) error
	// Publishers take qos_overrides parameters (optional).
	Publishers []rosqos.Publisher
}

// Node is a started rclgo node with its parameters, as Run hands it to a
// node's setup.
type Node struct {
	*rclgo.Node
	// Params holds the node's parameters; safe for concurrent use.
	Params *rosparam.Store
	// Args are the node's own (non-ROS) command-line arguments.
	Args []string

	events  eventPublisher
	qos     map[string]qos.Profile // Publishers' profiles, by topic as given
	closers []func() error
	tasks   []task   // Go's, run while the node spins
	finally []func() // Finally's, run after them
	live    live     // Live's handlers
}

// start initialises rclgo with the ROS arguments in opts.Args, creates the
// node, declares its parameters from the table with the overrides of
// --params-file and -p, and serves the parameter services. It warns (on the
// node's logger) about overrides that match no parameter.
func start(opts options) (*Node, error) {
	args, err := rosparam.ParseArgs(opts.Args)
	if err != nil {
		return nil, fmt.Errorf("rosnode: %w", err)
	}
	rclArgs, _, err := rclgo.ParseArgs(args.RCL)
	if err != nil {
		return nil, fmt.Errorf("rosnode: rcl arguments: %w", err)
	}
	if err := rclgo.Init(rclArgs); err != nil {
		return nil, fmt.Errorf("rosnode: init: %w", err)
	}
	n := &Node{Args: args.NonROS}
	n.closers = append(n.closers, rclgo.Uninit)
	node, err := rclgo.NewNode(opts.Name, "")
	if err != nil {
		n.Close()
		return nil, fmt.Errorf("rosnode: create node %s: %w", opts.Name, err)
	}
	n.Node = node
	n.closers = append(n.closers, node.Close)
	resolved, err := n.qosParams(&opts, args.Remaps)
	if err != nil {
		n.Close()
		return nil, err
	}
	if err := n.startParams(opts, &args.Overrides); err != nil {
		n.Close()
		return nil, err
	}
	if err := n.qosProfiles(opts.Publishers, resolved); err != nil {
		n.Close()
		return nil, err
	}
	for _, name := range n.Params.Unused() {
		n.Logger().Warnf("parameter override %q matches no parameter of this node", name)
	}
	return n, nil
}

// Now returns the node's time: the wall clock, or /clock with use_sim_time.
func (n *Node) Now() time.Time { return n.Params.Clock().Now() }

// spin runs the node's callbacks until ctx is cancelled.
func (n *Node) spin(ctx context.Context) error {
	err := n.Node.Context().Spin(ctx)
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return nil
	}
	return err
}

// Close releases the node and rclgo, in reverse order of creation.
func (n *Node) Close() error {
	var errs []error
	for i := len(n.closers) - 1; i >= 0; i-- {
		if err := n.closers[i](); err != nil {
			errs = append(errs, err)
		}
	}
	n.closers = nil
	return errors.Join(errs...)
}

// onClose registers a resource to release in Close.
func (n *Node) onClose(f func() error) { n.closers = append(n.closers, f) }
