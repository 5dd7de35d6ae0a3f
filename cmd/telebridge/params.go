package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

func init() {
	register(command{
		name:    "params",
		summary: "check ROS 2 parameter files and show what a node would get from them",
		run:     runParams,
	})
}

// runParams reads parameter files and --ros-args rules with the rules of a
// ROS 2 node (pkg/rosparam) and prints, for -node, the values that node
// would start with, as `ros2 param dump` would print them.
//
//	telebridge params [-node /ns/name] [FILE...] [--ros-args -p a:=1 --params-file F ...]
func runParams(_ context.Context, args []string, io stdio) error {
	parsed, err := rosparam.ParseArgs(args)
	if err != nil {
		return err
	}
	fs := newFlagSet("params", io)
	node := fs.String("node", "", "fully qualified node name (e.g. /robot1/servosila_driver); "+
		"prints the values it would get; without it the files are only checked")
	fs.Usage = func() {
		fmt.Fprintln(io.err, "usage: telebridge params [-node /ns/name] [FILE...] [--ros-args -p name:=value --params-file FILE ...]")
		fmt.Fprintln(io.err, "Files named before --ros-args are read first, in order.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, parsed.NonROS); err != nil {
		return err
	}
	// Files named as arguments come first, then the --ros-args rules.
	var all rosparam.Overrides
	for _, f := range fs.Args() {
		if err := all.LoadFile(f); err != nil {
			return err
		}
	}
	if len(fs.Args()) == 0 && len(parsed.ROS) == 0 {
		fs.Usage()
		return fmt.Errorf("%w: no parameter file and no --ros-args", errUsage)
	}
	if err := all.Merge(&parsed.Overrides); err != nil {
		return err
	}
	if *node == "" {
		fmt.Fprintf(io.out, "ok: %d node pattern(s): %s\n", len(all.Patterns()), strings.Join(all.Patterns(), " "))
		return nil
	}
	fqn := *node
	if !strings.HasPrefix(fqn, "/") {
		fqn = "/" + fqn
	}
	values := all.For(fqn)
	params := make([]rosparam.Parameter, 0, len(values))
	for name, v := range values {
		if v.Type == rosparam.ParameterNotSet { // an empty sequence: typed by the node's table
			v = rosparam.StringArray(nil)
		}
		params = append(params, rosparam.Parameter{Name: name, Value: v})
	}
	sort.Slice(params, func(i, j int) bool { return params[i].Name < params[j].Name })
	out, err := rosparam.DumpYAML(fqn, params)
	if err != nil {
		return err
	}
	_, err = io.out.Write(out)
	return err
}
