package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/runtest"
	"github.com/telebridge/telebridge/pkg/impair"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
)

// TestServosilaScriptCommandLoss is issue 19's report: `telebridge
// servosila --script` against a simulator with the robot's 1 Hz telemetry,
// through a relay that goes dark both ways for 2 s (or 1 s) once the
// drive has begun. The script says so in a line of its own and exits
// non-zero; through the same relay without a blackout it reports no loss
// and exits 0.
func TestServosilaScriptCommandLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("three scripted drives at 1 Hz telemetry, about 10 s each")
	}
	t.Parallel()
	for _, tc := range []struct {
		name     string
		blackout time.Duration
	}{
		{"2s", 2 * time.Second},
		{"1s", time.Second},
		{"none", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sim, err := servosilasim.New(servosilasim.Config{TelemetryRate: 1})
			if err != nil {
				t.Fatal(err)
			}
			runtest.Go(t, "sim", sim.Run)
			p, err := impair.New(impair.Config{Upstream: sim.Addr(), Seed: 41})
			if err != nil {
				t.Fatal(err)
			}
			runtest.Go(t, "proxy", p.Run)
			darkened := make(chan struct{})
			if tc.blackout > 0 {
				// Dark once two telemetry packets reached the driver: it
				// is driving, and has seen the robot's period.
				runtest.Go(t, "blackout", func(ctx context.Context) error {
					defer close(darkened)
					for p.Stats(impair.Down).Sent < 2 {
						select {
						case <-ctx.Done():
							return nil
						case <-time.After(10 * time.Millisecond):
						}
					}
					p.SetBlackout(impair.Up, true)
					p.SetBlackout(impair.Down, true)
					select {
					case <-ctx.Done():
					case <-time.After(tc.blackout):
					}
					p.SetBlackout(impair.Up, false)
					p.SetBlackout(impair.Down, false)
					return nil
				})
			}
			code, out, errOut := call(t, "", "servosila", "--script", "--robot", p.Addr().String())
			t.Logf("exit %d; proxy dropped up %d, down %d\n%s%s", code, p.Stats(impair.Up).Blackout, p.Stats(impair.Down).Blackout, out, errOut)
			if tc.blackout == 0 {
				if code != 0 || strings.Contains(out, "COMMAND LOSS") || !strings.Contains(out, "ok: scripted drive done") {
					t.Errorf("clean link: exit %d, want 0, no command loss and ok", code)
				}
				return
			}
			<-darkened
			if p.Stats(impair.Up).Blackout == 0 {
				t.Fatal("the relay dropped no command: the blackout missed the drive")
			}
			if code != 1 {
				t.Errorf("exit %d after a %v blackout, want 1", code, tc.blackout)
			}
			if !strings.Contains(out, "COMMAND LOSS: the robot did not confirm the commands") || !strings.Contains(out, "FAILED: every command reached the robot") {
				t.Errorf("output does not report the command loss")
			}
			if strings.Contains(out, "ok: scripted drive done") {
				t.Errorf("output says ok")
			}
		})
	}
}
