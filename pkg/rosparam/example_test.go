package rosparam_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

// table is what a node's core package provides.
var table = rosparam.Table{
	{Name: "max_speed", Type: rosparam.ParameterDouble, Default: rosparam.Double(0.5), Unit: "m/s",
		Description: "Speed limit", Range: &rosparam.Range{From: 0, To: 2}},
	{Name: "address", Type: rosparam.ParameterString, Default: rosparam.String("10.42.0.1"),
		Description: "Robot address", ReadOnly: true},
}

// Example shows the start-up of a node and two service calls, as the ROS
// layer wires them.
func Example() {
	// os.Args[1:] of: telebridge_node --verbose --ros-args -r __ns:=/robot1 -p max_speed:=1.5
	args, err := rosparam.ParseArgs([]string{"--verbose", "--ros-args", "-r", "__ns:=/robot1", "-p", "max_speed:=1.5"})
	if err != nil {
		fmt.Println(err)
		return
	}
	name, ns := args.ResolveNode("drv", "/")
	store, err := rosparam.New(rosparam.Config{
		Node:      rosparam.FullyQualifiedName(ns, name),
		Table:     table,
		Overrides: &args.Overrides,
		OnChange: func(update []rosparam.Parameter) {
			for _, p := range update {
				fmt.Printf("apply %s = %v\n", p.Name, p.Value)
			}
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("node:", store.Node(), "own args:", args.NonROS)
	fmt.Println("max_speed:", store.GetParameters([]string{"max_speed"})[0])

	// ~/set_parameters, as `ros2 param set /robot1/drv ... ` calls it.
	for _, r := range store.SetParameters([]rosparam.Parameter{
		{Name: "max_speed", Value: rosparam.Double(1.8)},
		{Name: "max_speed", Value: rosparam.Double(3)},
		{Name: "address", Value: rosparam.String("1.2.3.4")},
	}) {
		fmt.Printf("%v %q\n", r.Successful, r.Reason)
	}
	// ~/list_parameters, as `ros2 param list` calls it.
	fmt.Println(store.ListParameters(nil, rosparam.DepthRecursive).Names)
	// Output:
	// node: /robot1/drv own args: [--verbose]
	// max_speed: 1.5
	// apply max_speed = 1.8
	// true ""
	// false "Parameter {max_speed} doesn't comply with floating point range."
	// false "parameter 'address' cannot be set because it is read-only"
	// [address max_speed use_sim_time]
}

// ExampleDumpYAML prints what `ros2 param dump` would.
func ExampleDumpYAML() {
	out, _ := rosparam.DumpYAML("/robot1/drv", []rosparam.Parameter{
		{Name: "limits.max_speed", Value: rosparam.Double(1)},
		{Name: "frame_id", Value: rosparam.String("base_link")},
	})
	fmt.Print(string(out))
	// Output:
	// /robot1/drv:
	//   ros__parameters:
	//     frame_id: base_link
	//     limits:
	//       max_speed: 1.0
}
