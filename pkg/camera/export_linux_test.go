//go:build linux && cgo

package camera

// OpenPattern opens the synthetic test source alone (not through a
// Camera), for the external tests that pair it with pkg/camera/node.
func OpenPattern(cfg Config) (*patternSource, error) { return openPattern(cfg, &counters{}) }

// StopRun is stopRun for the external tests.
var StopRun = stopRun
