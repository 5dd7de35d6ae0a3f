package graph

import (
	"time"

	"github.com/telebridge/telebridge/pkg/diag"
)

// InputTimeout is the age after which the console reports a machine's
// state as stale [s]: three periods of the Servosila's slowest telemetry
// (about 1 Hz on the real robot).
const InputTimeout = 3 * time.Second

// Diagnose reports the console's health at now as the status "console"
// (named on /diagnostics by diag.StatusName): WARN while a machine switched on in the
// configuration has sent nothing yet, or nothing for InputTimeout (the
// Servosila's telemetry, the Furbot's vehicle status): the operator would
// see a stale state; OK otherwise. Safe for concurrent use with the On*
// methods.
func (b *Backend) Diagnose(now time.Time) diag.Status {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := diag.Status{Name: "console"}
	s.Raise(diag.OK, "receiving every machine's state")
	if b.cfg.Servosila {
		s.Check(diag.Input{Name: "servosila telemetry", Count: b.srv.telemetryN, Last: b.srv.telemetryAt, Timeout: InputTimeout}, now, diag.Warn)
	}
	if b.cfg.Furbot {
		s.Check(diag.Input{Name: "furbot status", Count: b.fur.statusN, Last: b.fur.statusAt, Timeout: InputTimeout}, now, diag.Warn)
	}
	s.Add("cameras", len(b.cameras))
	return s
}
