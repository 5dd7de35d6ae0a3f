package main

import (
	"context"
	"fmt"
)

type teleopSpeeds struct{ linear, angular, joint float64 }

// teleop is the interactive terminal mode (not written yet).
func teleop(ctx context.Context, s *servosilaSession, io stdio, sp teleopSpeeds) error {
	_ = ctx
	_ = sp
	fmt.Fprintln(io.err, "interactive teleoperation is not available yet; running the scripted drive")
	return s.script(ctx, io.out)
}
