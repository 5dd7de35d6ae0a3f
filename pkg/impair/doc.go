// Package impair is a seeded, reproducible UDP impairment proxy for tests
// and soak runs: it sits between a driver and a simulator (or a robot) and
// degrades the link the way Wi-Fi and radio links do.
//
// The driver sends to Proxy.Addr instead of the robot; the proxy forwards
// to Config.Upstream from a socket of its own, so the robot answers the
// proxy, which forwards the answers to the latest driver address. Each
// direction (Up: driver to robot, Down: robot to driver) has its own
// Impairment:
//
//   - independent loss (Loss) and burst loss (Burst, a Gilbert-Elliott
//     chain of a good and a bad state);
//   - delay and jitter (Delay + uniform [0, Jitter) per packet, or, with
//     Wander, a delay in [Delay, Delay+Jitter) that varies slowly over
//     time and keeps the packets in order, as Wi-Fi's does);
//   - duplication (Duplicate), reordering (Reorder: a packet held back by
//     ReorderDelay so that later ones overtake it);
//   - truncation (Truncate) and bit flips (BitFlip, FlipBits bits);
//   - blackout windows, scheduled (Blackouts, from the start of Run) or
//     switched at run time (SetBlackout).
//
// Decisions are drawn from a PCG generator seeded by Config.Seed and the
// direction, one draw sequence per packet in arrival order, so the same
// seed and the same packets give the same decisions (which packets are
// lost, duplicated, cut, flipped and how much each is delayed); only the
// timing is real. Blackout windows are the exception: they depend on the
// clock, and a packet in one consumes no draws.
//
// Concurrency: each socket has one reading goroutine; each direction has
// one sending goroutine, the only writer of its outgoing socket. Counters
// (Stats) and the run-time switches (SetBlackout, Set) are safe for
// concurrent use.
package impair
