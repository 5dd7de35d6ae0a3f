package furbot

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// BridgeConfig configures a Bridge. Zero fields take the defaults shown;
// BridgeParams lists the numeric ones as data.
type BridgeConfig struct {
	// Listen is the local UDP address status frames arrive on; control
	// frames leave from it too. Default ":18003" (StatusPort); tests use
	// "127.0.0.1:0".
	Listen string
	// Vehicle is where control frames go, e.g. 192.168.1.10:18004
	// (required).
	Vehicle netip.AddrPort
	// StatusFrom is the only source status frames are accepted from; a
	// zero port accepts any port of that address. Default: Vehicle's
	// address, any port.
	StatusFrom netip.AddrPort
	// Rate is the rate of the publishing and control loop [Hz], default
	// 100.
	Rate float64
	// LinkTimeout is the age of the latest status frame after which the
	// link counts as lost: the controller disables the vehicle [s],
	// default 0.1 s.
	LinkTimeout time.Duration
	// StopFrames is how many full-brake frames Run sends when it stops,
	// default 3.
	StopFrames int
	// External makes the bridge send the control signals handed to
	// SetControl (by the furbot_bridge ROS node, which gets them from
	// furbot_twist_control) instead of running its own Controller;
	// SetCommand then has no effect. Default false.
	External bool
	// ControlTimeout is, with External, the age after which the latest
	// control signals are stale: the vehicle then gets disabled frames
	// with full brake until fresh signals arrive [s], default 0.2 s (20
	// periods: room for a DDS hop on a loaded machine, within the
	// vehicle's own 250 ms watchdog).
	ControlTimeout time.Duration
	// Controller configures the Twist controller (not used with External).
	Controller control.ControllerConfig
	// Odometry configures the odometry.
	Odometry control.OdometryConfig
	// Clock is the time source of the loop, of command and status
	// receipt times (optional, default time.Now). Tests inject a virtual
	// clock together with Manual.
	Clock func() time.Time
	// Manual replaces the fixed-rate timer: Run then executes one period
	// per call to Step, at Clock's time. It is the lock-step mode of the
	// tests; the socket and the receive goroutine work as usual.
	Manual bool
	// OnSnapshot, if set, receives every published snapshot, on the loop
	// goroutine, 100 times a second once every subsystem has worked. It
	// must return quickly and must not keep the pointer (copy the value).
	OnSnapshot func(*Snapshot)
}

type bc = BridgeConfig

// BridgeBindings is the table of the bridge's own numeric fields (the
// controller's and the odometry's are control.ControllerBindings and
// control.OdometryBindings).
var BridgeBindings = []control.Binding[bc]{
	control.Double("rate", wire.FrameRate, "Hz", 1, 1000, "publishing and control frame rate", func(c *bc) *float64 { return &c.Rate }).RO(),
	control.Seconds("link_timeout", 0.1, 0.02, 5, "status age after which the link counts as lost and the vehicle is disabled", func(c *bc) *time.Duration { return &c.LinkTimeout }),
	control.Seconds("control_timeout", 0.2, 0.02, 5, "age after which external control signals are stale and the vehicle is disabled with full brake", func(c *bc) *time.Duration { return &c.ControlTimeout }),
	control.Integer("stop_frames", 3, "-", 1, 100, "full-brake frames sent on shutdown", func(c *bc) *int { return &c.StopFrames }).RO(),
}

// DefaultBridgeConfig returns a BridgeConfig with every numeric default
// filled in (bridge, controller and odometry). The addresses stay empty:
// the vehicle's address has no default.
func DefaultBridgeConfig() BridgeConfig {
	var c BridgeConfig
	// The defaults are within their ranges (TestParamTablesWellFormed),
	// so filling them cannot fail.
	_ = control.ApplyParams(BridgeBindings, &c)
	_ = control.ApplyParams(control.ControllerBindings, &c.Controller)
	_ = control.ApplyParams(control.OdometryBindings, &c.Odometry)
	return c
}

// BridgeParams returns the parameter table of the bridge: its own
// parameters, then the controller's and the odometry's. The addresses
// (listen, vehicle, status_from) are strings and are not in the table.
func BridgeParams() []control.Param {
	out := control.Params(BridgeBindings)
	out = append(out, control.ControllerParams()...)
	return append(out, control.OdometryParams()...)
}

// WithDefaults returns c with its zero fields filled with the defaults and
// every field checked; the error wraps control.ErrConfig. NewBridge calls it.
func (c BridgeConfig) WithDefaults() (BridgeConfig, error) {
	if c.Listen == "" {
		c.Listen = fmt.Sprintf(":%d", wire.StatusPort)
	}
	if !c.Vehicle.IsValid() || c.Vehicle.Port() == 0 {
		return c, fmt.Errorf("%w: vehicle address %v needs an address and a port", control.ErrConfig, c.Vehicle)
	}
	if !c.StatusFrom.IsValid() {
		c.StatusFrom = netip.AddrPortFrom(c.Vehicle.Addr(), 0)
	}
	if c.Clock == nil {
		c.Clock = time.Now
	}
	if err := control.ApplyParams(BridgeBindings, &c); err != nil {
		return c, err
	}
	return c, nil
}
