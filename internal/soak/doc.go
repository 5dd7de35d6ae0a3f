// Package soak is the long-run check of both vendor stacks: the Furbot
// bridge and the Servosila driver, each against its simulator through
// its own impairment proxy (pkg/impair), driven in a repeating pattern
// with optional blackouts, sampled every interval (resident and live
// heap, goroutines, control ticks sent and missed, packets behind the
// send schedule, link losses, odometry against the simulator's truth),
// and judged at the end against bounds on growth and missed ticks.
//
// `telebridge soak` is its command (flags to Options, then Run), and
// scripts/check.d/soak.sh runs it for a minute after the Go tests; the
// figures of long runs are in docs/reliability.md. Run binds every
// socket on loopback and reads the wall clock: it measures the real
// process, so its wall-time bounds hold only on a machine that is not
// starved.
package soak
