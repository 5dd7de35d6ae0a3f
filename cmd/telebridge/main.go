// Command telebridge runs the telebridge drivers, simulators and tools
// without ROS 2: protocol decoders and encoders, the Servosila and Furbot
// drivers against a robot or an embedded simulator, calibration, cameras
// and kinematics.
//
// Usage:
//
//	telebridge <command> [flags]
//	telebridge help
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"golang.org/x/term"
)

// command is one subcommand of telebridge. Each part of the product adds
// its commands from its own file with register, so that the parts never
// edit a shared table.
type command struct {
	name    string // first word on the command line, e.g. "servosila"
	summary string // one line for `telebridge help`
	// run executes the command. args are the words after the command
	// name; stdin, stdout and stderr are the process streams (tests pass
	// buffers). A returned error is printed and makes the exit status 1.
	run func(ctx context.Context, args []string, stdio stdio) error
}

// stdio bundles the streams a command reads and writes.
type stdio struct {
	in       io.Reader
	out, err io.Writer
	// isTerminal reports whether in is an interactive terminal.
	isTerminal bool
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("telebridge: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// errUsage marks an error caused by a malformed command line; it exits
// with status 2 instead of 1.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, isTerminal: isTerminal(os.Stdin)})
	stop()
	os.Exit(code)
}

// run dispatches args to a command and returns the process exit status.
func run(ctx context.Context, args []string, io stdio) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(io.out)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(io.err, "telebridge: unknown command %q (try telebridge help)\n", args[0])
		return 2
	}
	if err := c.run(ctx, args[1:], io); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(io.err, "telebridge %s: %v\n", c.name, err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: telebridge <command> [flags]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'telebridge <command> -h' for the flags of a command.")
}

// newFlagSet returns a flag set for a subcommand that reports errors
// instead of exiting, and prints its help to io.err.
func newFlagSet(name string, io stdio) *flag.FlagSet {
	fs := flag.NewFlagSet("telebridge "+name, flag.ContinueOnError)
	fs.SetOutput(io.err)
	return fs
}

// parseFlags parses args into fs and wraps a parse failure as errUsage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

// isTerminal reports whether f is an interactive terminal. A
// character-device test is not enough: /dev/null is one too.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
