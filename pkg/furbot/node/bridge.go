package node

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/furbot"
	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// BridgeNodeConfig configures the furbot_bridge ROS 2 node: a Bridge in
// External mode (control signals from furbot_twist_control) and what the
// node publishes. The ROS layer only wires it; every choice is here.
type BridgeNodeConfig struct {
	// Bridge configures the link; the node sets Listen, Vehicle and
	// StatusFrom from the address parameters and External to true. Its
	// Controller and Odometry are not used (the other two nodes run them).
	Bridge furbot.BridgeConfig
	// VehicleAddress is the vehicle's control port, "host:port"
	// (required; the launch file gives it).
	VehicleAddress string
	// Listen is the local address status frames arrive on, default
	// ":18003".
	Listen string
	// StatusFrom pins the source of status frames, "host:port"; empty
	// (default) accepts any port of the vehicle's address.
	StatusFrom string
	// BaseFrame is the frame_id of the telemetry headers, default
	// "base_link".
	BaseFrame string
	// DiagnosticsPeriod is the period of /diagnostics and of the battery
	// state [s], default 1 s.
	DiagnosticsPeriod time.Duration
}

// DefaultBridgeNodeConfig returns the bridge node's defaults.
func DefaultBridgeNodeConfig() BridgeNodeConfig {
	return BridgeNodeConfig{
		Bridge: furbot.DefaultBridgeConfig(), Listen: fmt.Sprintf(":%d", wire.StatusPort),
		BaseFrame: FrameBase, DiagnosticsPeriod: time.Second,
	}
}

// BridgeNodeBindings is the bridge node's parameter table: addresses and
// frames, then the bridge's own rows. All are read-only: a running Bridge
// keeps the configuration it was made with, and accepting a set that
// changes nothing would mislead the operator.
func BridgeNodeBindings() rosparam.Bindings[BridgeNodeConfig] {
	ro := rosparam.ReadOnly()
	b := rosparam.Bindings[BridgeNodeConfig]{
		rosparam.BindString("vehicle_address", "UDP address of the vehicle's control port (host:port)", func(c *BridgeNodeConfig) *string { return &c.VehicleAddress }, ro),
		rosparam.BindString("listen", "local UDP address for status frames (host:port, empty host: every interface)", func(c *BridgeNodeConfig) *string { return &c.Listen }, ro),
		rosparam.BindString("status_from", "only source of status frames (host:port); empty: any port of the vehicle's address", func(c *BridgeNodeConfig) *string { return &c.StatusFrom }, ro),
		rosparam.BindString("base_frame", "frame_id of the telemetry headers", func(c *BridgeNodeConfig) *string { return &c.BaseFrame }, ro),
		rosparam.BindSeconds("diagnostics_period", "period of /diagnostics and of the battery state", func(c *BridgeNodeConfig) *time.Duration { return &c.DiagnosticsPeriod }, rosparam.Within(0.1, 60), ro),
	}
	return appendBindings(b, furbot.BridgeBindings, func(c *BridgeNodeConfig) *furbot.BridgeConfig { return &c.Bridge }, true)
}

// BridgeNodeParameterTable returns the bridge node's declarations with
// their defaults.
func BridgeNodeParameterTable() rosparam.Table {
	return BridgeNodeBindings().Table(DefaultBridgeNodeConfig())
}

// LoadBridgeNodeConfig builds the bridge node's configuration from its
// start-up parameters, parses the addresses into Bridge and checks it.
func LoadBridgeNodeConfig(s *rosparam.Store) (BridgeNodeConfig, error) {
	return loadNodeConfig(BridgeName, BridgeNodeBindings(), DefaultBridgeNodeConfig(), s, (*BridgeNodeConfig).resolve)
}

// resolve parses the addresses into Bridge and validates the whole.
func (c *BridgeNodeConfig) resolve() error {
	v, err := netip.ParseAddrPort(c.VehicleAddress)
	if err != nil {
		return fmt.Errorf("%w: vehicle_address %q: %v", control.ErrConfig, c.VehicleAddress, err)
	}
	c.Bridge.Vehicle, c.Bridge.Listen, c.Bridge.External = v, c.Listen, true
	if c.StatusFrom != "" {
		if c.Bridge.StatusFrom, err = netip.ParseAddrPort(c.StatusFrom); err != nil {
			return fmt.Errorf("%w: status_from %q: %v", control.ErrConfig, c.StatusFrom, err)
		}
	}
	if c.BaseFrame == "" {
		return fmt.Errorf("%w: base_frame is empty", control.ErrConfig)
	}
	c.Bridge, err = c.Bridge.WithDefaults()
	return err
}

// loadNodeConfig reads a node's configuration from its start-up parameters
// over the defaults def, then completes and checks it with finish.
func loadNodeConfig[C any](node string, b rosparam.Bindings[C], def C, s *rosparam.Store, finish func(*C) error) (C, error) {
	var zero C
	if err := b.Load(&def, s); err != nil {
		return zero, fmt.Errorf("furbot: %s parameters: %w", node, err)
	}
	if err := finish(&def); err != nil {
		return zero, fmt.Errorf("furbot: %s parameters: %w", node, err)
	}
	return def, nil
}

// ControlSignals converts the raw fields of a telebridge_interfaces
// ControlSignals message into a control frame's values, for
// Bridge.SetControl (which validates them).
func ControlSignals(steer, throttle int32, brake int16, flags uint8) wire.Control {
	return wire.Control{Steer: steer, Throttle: throttle, Brake: brake, Flags: flags}
}

// DiagnoseBridge reports the bridge's health at now from its latest
// snapshot (have false before publishing starts) and counters: ERROR
// without a fresh status frame or before every subsystem has worked, WARN
// while a subsystem is not working, the control signals are stale or the
// e-stop is latched; OK otherwise. A second status lists every subsystem's
// state. The counters go in the values.
func DiagnoseBridge(cfg BridgeNodeConfig, snap furbot.Snapshot, have bool, stats furbot.BridgeStats, now time.Time) []diag.Status {
	link := diag.Status{Name: "vehicle link", HardwareID: cfg.VehicleAddress} // the publishing node prefixes its name, diag.StatusName
	link.Raise(diag.OK, "vehicle ready, telemetry published")
	subs := diag.Status{Name: "subsystems", HardwareID: cfg.VehicleAddress}
	subs.Raise(diag.OK, "every subsystem working")
	switch {
	case !have && stats.Accepted == 0:
		link.Raise(diag.Error, "no status frame from "+cfg.VehicleAddress)
		subs.Raise(diag.Error, "no status frame")
	case !have:
		link.Raise(diag.Error, "waiting for every subsystem to work; nothing published yet")
		subs.Raise(diag.Error, "not every subsystem has worked yet")
	default:
		age := now.Sub(snap.StatusAt)
		link.Add("status age", age)
		if age > cfg.Bridge.LinkTimeout {
			link.Raise(diag.Error, fmt.Sprintf("status is %.2f s old: vehicle disabled", age.Seconds()))
		}
		if !snap.Status.AllWorking() {
			link.Raise(diag.Warn, "a subsystem is not working: vehicle disabled")
		}
		switch {
		case snap.Output.EStop:
			link.Raise(diag.Warn, "emergency stop latched")
		case snap.Output.Stale:
			link.Raise(diag.Warn, "no fresh control signals: full brake")
		}
		for id := wire.BlockID(0); id < wire.NumBlocks; id++ {
			st, _ := snap.Status.BlockState(id)
			subs.Add(id.String(), st)
			if !snap.Status.Working(id) {
				subs.Raise(diag.Warn, id.String()+" not working")
			}
		}
		link.Add("control mode", snap.Output.Mode.String())
	}
	link.Add("status frames received", stats.Received)
	link.Add("status frames used", stats.Accepted)
	link.Add("dropped: foreign source", stats.Foreign)
	link.Add("dropped: invalid", stats.Invalid)
	link.Add("dropped: old", stats.Dropped)
	link.Add("dropped: implausible", stats.Implausible)
	link.Add("status gaps bridged by the odometer", stats.GapsBridged)
	link.Add("status gaps held (odometry lost the distance)", stats.GapsHeld)
	link.Add("control frames sent", stats.ControlSent)
	link.Add("send errors", stats.SendErrors)
	link.Add("missed periods", stats.MissedTicks)
	return []diag.Status{link, subs}
}
