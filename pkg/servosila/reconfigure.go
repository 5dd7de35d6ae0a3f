package servosila

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

// ErrReadOnly is returned for a live change of a parameter that the driver
// takes at start only (addresses, calibration, rates, motor slots).
var ErrReadOnly = fmt.Errorf("%w: read-only while running", ErrParam)

// ValidateLive checks that the parameters may change on a running driver
// whose configuration is cfg: none is read-only, and the configuration
// they give passes WithDefaults. It returns that configuration; nothing is
// changed. use_sim_time (another layer's) is ignored.
func ValidateLive(cfg Config, ps []rosparam.Parameter) (Config, error) {
	readOnly := map[string]bool{}
	for _, p := range ParameterTable() {
		readOnly[p.Name] = p.ReadOnly
	}
	for _, p := range ps {
		if readOnly[p.Name] {
			return Config{}, fmt.Errorf("%w: %s", ErrReadOnly, p.Name)
		}
	}
	// The pointer fields are shared with the running config, but only
	// read-only parameters write through them, and those were refused.
	next := cfg
	if err := next.ApplyParameters(ps); err != nil {
		return Config{}, err
	}
	return next.WithDefaults()
}

// Reconfigure applies live parameter changes (limits, minimum start
// velocity, timeouts, arm position control) between two packets. The
// change is all or nothing: on error the driver keeps its configuration.
// Position targets in progress are kept and continue under the new gains
// and limits. Safe for concurrent use.
func (d *Driver) Reconfigure(ps []rosparam.Parameter) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	next, err := ValidateLive(d.cfg, ps)
	if err != nil {
		return err
	}
	if err := d.arm.reconfigure(next.Arm, next.MaxJoint); err != nil {
		return err
	}
	// Only the live fields are written: the receive goroutine reads the
	// start-up ones (frame types, motor slots) without the lock.
	// TestReconfigureAppliesEveryLiveParameter keeps this list complete.
	d.cfg.MinStartVelocity = next.MinStartVelocity
	d.cfg.MaxLinear, d.cfg.MaxAngular = next.MaxLinear, next.MaxAngular
	d.cfg.MaxJoint = next.MaxJoint
	d.cfg.CommandTimeout, d.cfg.TelemetryTimeout = next.CommandTimeout, next.TelemetryTimeout
	d.cfg.Arm = next.Arm
	return nil
}
