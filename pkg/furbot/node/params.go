package node

import (
	"time"

	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// ParameterBindings returns the single-process bridge's parameter table
// (bridge, controller and odometry, as `telebridge furbot` runs them)
// bound to BridgeConfig, for pkg/rosparam: the same names, units, ranges
// and read-only flags as BridgeParams. The ROS 2 nodes have their own
// tables (BridgeNodeBindings, TwistNodeBindings, OdomNodeBindings) built
// from the same rows. The addresses are not in it.
func ParameterBindings() rosparam.Bindings[furbot.BridgeConfig] {
	var out rosparam.Bindings[furbot.BridgeConfig]
	out = appendBindings(out, furbot.BridgeBindings, func(c *furbot.BridgeConfig) *furbot.BridgeConfig { return c }, false)
	out = appendBindings(out, control.ControllerBindings, func(c *furbot.BridgeConfig) *control.ControllerConfig { return &c.Controller }, false)
	return appendBindings(out, control.OdometryBindings, func(c *furbot.BridgeConfig) *control.OdometryConfig { return &c.Odometry }, false)
}

// ParameterTable returns the single-process bridge's rosparam.Table with
// the defaults of furbot.DefaultBridgeConfig.
func ParameterTable() rosparam.Table { return ParameterBindings().Table(furbot.DefaultBridgeConfig()) }

// appendBindings converts the rows of a package table to rosparam
// bindings of the root configuration R; sub selects the sub-configuration
// that holds the fields. readOnly forces every row read-only (for a node
// whose running code cannot apply them live).
func appendBindings[R, C any](out rosparam.Bindings[R], table []control.Binding[C], sub func(*R) *C, readOnly bool) rosparam.Bindings[R] {
	for _, b := range table {
		out = append(out, rosBinding(b, sub, readOnly))
	}
	return out
}

// rosBinding converts one entry of a package table.
func rosBinding[R, C any](b control.Binding[C], sub func(*R) *C, readOnly bool) rosparam.Binding[R] {
	opts := []rosparam.Opt{rosparam.Within(b.Min, b.Max)}
	if b.ReadOnly || readOnly {
		opts = append(opts, rosparam.ReadOnly())
	}
	unit := b.Unit
	if unit == "-" {
		unit = ""
	}
	switch {
	case b.Float != nil:
		return rosparam.BindDouble(b.Name, unit, b.Description, func(c *R) *float64 { return b.Float(sub(c)) }, opts...)
	case b.Int != nil:
		return rosparam.BindInt(b.Name, unit, b.Description, func(c *R) *int { return b.Int(sub(c)) }, opts...)
	default:
		return rosparam.BindSeconds(b.Name, b.Description, func(c *R) *time.Duration { return b.Duration(sub(c)) }, opts...)
	}
}
