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

// ParameterBindings returns the Furbot node's parameter table bound to
// BridgeConfig, for pkg/rosparam: the same names, units, ranges and
// read-only flags as BridgeParams, built from the one table in this
// package. The addresses (listen, vehicle, status_from) are not in it.
func ParameterBindings() rosparam.Bindings[BridgeConfig] {
	var out rosparam.Bindings[BridgeConfig]
	for _, b := range bridgeParams {
		out = append(out, rosBinding(b, func(c *BridgeConfig) *BridgeConfig { return c }))
	}
	for _, b := range controllerParams {
		out = append(out, rosBinding(b, func(c *BridgeConfig) *ControllerConfig { return &c.Controller }))
	}
	for _, b := range odometryParams {
		out = append(out, rosBinding(b, func(c *BridgeConfig) *OdometryConfig { return &c.Odometry }))
	}
	return out
}

// ParameterTable returns the Furbot node's rosparam.Table with the
// defaults of DefaultBridgeConfig.
func ParameterTable() rosparam.Table { return ParameterBindings().Table(DefaultBridgeConfig()) }

// rosBinding converts one entry of a package table; sub selects the
// sub-configuration that holds the field.
func rosBinding[C any](b binding[C], sub func(*BridgeConfig) *C) rosparam.Binding[BridgeConfig] {
	opts := []rosparam.Opt{rosparam.Within(b.Min, b.Max)}
	if b.ReadOnly {
		opts = append(opts, rosparam.ReadOnly())
	}
	unit := b.Unit
	if unit == "-" {
		unit = ""
	}
	switch {
	case b.f != nil:
		return rosparam.BindDouble(b.Name, unit, b.Description, func(c *BridgeConfig) *float64 { return b.f(sub(c)) }, opts...)
	case b.i != nil:
		return rosparam.BindInt(b.Name, unit, b.Description, func(c *BridgeConfig) *int { return b.i(sub(c)) }, opts...)
	default:
		return rosparam.BindSeconds(b.Name, b.Description, func(c *BridgeConfig) *time.Duration { return b.d(sub(c)) }, opts...)
	}
}
