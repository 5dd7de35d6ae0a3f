package furbot

import (
	"time"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

// DefaultBridgeConfig returns a BridgeConfig with every numeric default
// filled in (bridge, controller and odometry). The addresses stay empty:
// the vehicle's address has no default.
func DefaultBridgeConfig() BridgeConfig {
	var c BridgeConfig
	// The defaults are within their ranges (TestParamTablesWellFormed),
	// so filling them cannot fail.
	_ = applyParams(bridgeParams, &c)
	_ = applyParams(controllerParams, &c.Controller)
	_ = applyParams(odometryParams, &c.Odometry)
	return c
}

// ParameterBindings returns the single-process bridge's parameter table
// (bridge, controller and odometry, as `telebridge furbot` runs them)
// bound to BridgeConfig, for pkg/rosparam: the same names, units, ranges
// and read-only flags as BridgeParams. The ROS 2 nodes have their own
// tables (BridgeNodeBindings, TwistNodeBindings, OdomNodeBindings) built
// from the same rows. The addresses are not in it.
func ParameterBindings() rosparam.Bindings[BridgeConfig] {
	var out rosparam.Bindings[BridgeConfig]
	out = appendBindings(out, bridgeParams, func(c *BridgeConfig) *BridgeConfig { return c }, false)
	out = appendBindings(out, controllerParams, func(c *BridgeConfig) *ControllerConfig { return &c.Controller }, false)
	return appendBindings(out, odometryParams, func(c *BridgeConfig) *OdometryConfig { return &c.Odometry }, false)
}

// ParameterTable returns the single-process bridge's rosparam.Table with
// the defaults of DefaultBridgeConfig.
func ParameterTable() rosparam.Table { return ParameterBindings().Table(DefaultBridgeConfig()) }

// appendBindings converts the rows of a package table to rosparam
// bindings of the root configuration R; sub selects the sub-configuration
// that holds the fields. readOnly forces every row read-only (for a node
// whose running code cannot apply them live).
func appendBindings[R, C any](out rosparam.Bindings[R], table []binding[C], sub func(*R) *C, readOnly bool) rosparam.Bindings[R] {
	for _, b := range table {
		out = append(out, rosBinding(b, sub, readOnly))
	}
	return out
}

// rosBinding converts one entry of a package table.
func rosBinding[R, C any](b binding[C], sub func(*R) *C, readOnly bool) rosparam.Binding[R] {
	opts := []rosparam.Opt{rosparam.Within(b.Min, b.Max)}
	if b.ReadOnly || readOnly {
		opts = append(opts, rosparam.ReadOnly())
	}
	unit := b.Unit
	if unit == "-" {
		unit = ""
	}
	switch {
	case b.f != nil:
		return rosparam.BindDouble(b.Name, unit, b.Description, func(c *R) *float64 { return b.f(sub(c)) }, opts...)
	case b.i != nil:
		return rosparam.BindInt(b.Name, unit, b.Description, func(c *R) *int { return b.i(sub(c)) }, opts...)
	default:
		return rosparam.BindSeconds(b.Name, b.Description, func(c *R) *time.Duration { return b.d(sub(c)) }, opts...)
	}
}
