//go:build linux && !cgo

package camera

import "fmt"

// openDevice without cgo: V4L2 devices go through go4vl's cgo bindings,
// so a build with only Go (CGO_ENABLED=0) has the pattern sources only.
func openDevice(cfg Config, _ *counters) (source, error) {
	return nil, fmt.Errorf("camera %s: %s: V4L2 devices need a cgo build (a C compiler: apt-get install gcc, then build again with CGO_ENABLED=1); pattern:NAME sources work: %w", cfg.Name, cfg.Device, ErrNoDevice)
}
