package node

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/servosila"
)

// ErrReadOnly is returned for a live change of a parameter that the driver
// takes at start only (addresses, calibration, rates, motor slots).
var ErrReadOnly = fmt.Errorf("%w: read-only while running", ErrParam)

// ValidateLive checks that the parameters may change on a running driver
// whose configuration is cfg: none is read-only, and the configuration
// they give passes WithDefaults. It returns that configuration; nothing is
// changed. use_sim_time (another layer's) is ignored.
func ValidateLive(cfg servosila.Config, ps []rosparam.Parameter) (servosila.Config, error) {
	readOnly := map[string]bool{}
	for _, p := range DriverParameterTable() {
		readOnly[p.Name] = p.ReadOnly
	}
	for _, p := range ps {
		if readOnly[p.Name] {
			return servosila.Config{}, fmt.Errorf("%w: %s", ErrReadOnly, p.Name)
		}
	}
	// The pointer fields are shared with the running config, but only
	// read-only parameters write through them, and those were refused.
	next := cfg
	if err := ApplyParameters(&next, ps); err != nil {
		return servosila.Config{}, err
	}
	return next.WithDefaults()
}

// Reconfigure applies live parameter changes to a running driver (limits,
// minimum start velocity, timeouts, arm position control) between two
// packets: ValidateLive against the driver's configuration, then
// servosila.Driver.Reconfigure. The change is all or nothing: on error the
// driver keeps its configuration. Position targets in progress are kept
// and continue under the new gains and limits. Safe for concurrent use.
func Reconfigure(d *servosila.Driver, ps []rosparam.Parameter) error {
	return d.Reconfigure(func(cfg servosila.Config) (servosila.Config, error) { return ValidateLive(cfg, ps) })
}
