package control

import (
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// tracks is an echo of the two track records (the rest zero).
func tracks(l, r int16) wire.SpeedEcho {
	var e wire.SpeedEcho
	e[wire.LeftTrackSlot], e[wire.RightTrackSlot] = l, r
	return e
}

const trackMask = 1<<wire.LeftTrackSlot | 1<<wire.RightTrackSlot

// ev is one step of a command check's input: a packet sent (sent), or a
// telemetry packet (tick > 0) with the verdict expected of it (want).
type ev struct {
	at     float64 // [s] after the start
	sent   bool
	cmd    wire.SpeedEcho // sent: the expected echo; telemetry: the echo
	speed  wire.SpeedEcho // telemetry: the motor speeds
	tick   uint64
	resync bool
	want   Verdict
}

// send returns the packets of a command sent at 5 Hz from from to to [s].
func send(cmd wire.SpeedEcho, from, to float64) []ev {
	var out []ev
	for t := from; t < to+1e-9; t += 0.2 {
		out = append(out, ev{at: t, sent: true, cmd: cmd})
	}
	return out
}

// tel returns a telemetry packet echoing cmd (and moving at it).
func tel(at float64, tick uint64, cmd wire.SpeedEcho, want Verdict) ev {
	return ev{at: at, tick: tick, cmd: cmd, speed: cmd, want: want}
}

// ok is the verdict of a packet that confirms the commands.
var ok = Verdict{Confirmed: true}

func seq(parts ...[]ev) []ev {
	var out []ev
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func one(e ...ev) []ev { return e }

// TestCommandCheck is the check as a table of inputs on an injected clock
// and the verdicts they must give.
func TestCommandCheck(t *testing.T) {
	fwd, turn, zero := tracks(21466, 21466), tracks(8000, 20000), tracks(0, 0)
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
	for _, c := range []struct {
		name string
		cfg  CommandCheckConfig
		evs  []ev
	}{
		{"echo of the command in force", CommandCheckConfig{}, seq(send(fwd, 0, 3),
			one(tel(1, 1, fwd, ok), tel(2, 2, fwd, ok), tel(3, 3, fwd, ok)))},
		{"echo of a command replaced within the window", CommandCheckConfig{}, seq(send(fwd, 0, 1.8), send(turn, 2, 3),
			one(tel(1, 1, fwd, ok), tel(2.3, 2, fwd, ok), tel(3.3, 3, turn, ok)))},
		{"echo of a command replaced beyond the window: one event", CommandCheckConfig{}, seq(send(fwd, 0, 1.8), send(turn, 2, 5),
			one(tel(1, 1, fwd, ok), tel(2, 2, fwd, ok),
				tel(3, 3, fwd, Verdict{Mismatch: true, New: true, Unconfirmed: ms(1)}),
				tel(4, 4, fwd, Verdict{Mismatch: true, Unconfirmed: ms(2)}),
				tel(5, 5, turn, ok)))},
		{"a mismatch that runs into a silence is one event", CommandCheckConfig{}, seq(send(fwd, 0, 1.8), send(turn, 2, 7),
			one(tel(1, 1, fwd, ok), tel(2, 2, fwd, ok),
				tel(3, 3, fwd, Verdict{Mismatch: true, New: true, Unconfirmed: ms(1)}),
				tel(5, 4, turn, Verdict{}),
				tel(6, 5, turn, Verdict{Silence: true, Confirmed: true, Unconfirmed: ms(1)}),
				tel(7, 6, turn, ok)))},
		{"zeros while driving: the robot stopped", CommandCheckConfig{}, seq(send(fwd, 0, 3),
			one(tel(1, 1, fwd, ok), tel(2, 2, zero, Verdict{Mismatch: true, Stopped: true, New: true, Unconfirmed: ms(1)})))},
		{"zero echo but moving: not stopped", CommandCheckConfig{}, seq(send(fwd, 0, 3),
			one(tel(1, 1, fwd, ok), ev{at: 2, tick: 2, cmd: zero, speed: fwd, want: Verdict{Mismatch: true, New: true, Unconfirmed: ms(2)}}))},
		{"zeros sent, zeros echoed", CommandCheckConfig{}, seq(send(fwd, 0, 1), send(zero, 1.2, 3),
			one(tel(1, 1, fwd, ok), tel(2, 2, zero, ok)))},
		{"within the tolerance", CommandCheckConfig{Tolerance: 2}, seq(send(fwd, 0, 2),
			one(tel(1, 1, tracks(21468, 21464), ok), tel(2, 2, tracks(21469, 21466), Verdict{Mismatch: true, New: true, Unconfirmed: ms(2)})))},
		{"echo comparison disabled", CommandCheckConfig{Tolerance: -1}, seq(send(fwd, 0, 2),
			one(tel(1, 1, fwd, ok), tel(2, 2, zero, ok)))},
		{"no command sent yet: no verdict", CommandCheckConfig{}, one(tel(1, 1, zero, Verdict{}), ev{at: 1.1, sent: true, cmd: zero}, tel(2, 2, zero, ok))},
		{"a missing packet at 1 Hz is a gap", CommandCheckConfig{}, seq(send(fwd, 0, 6),
			one(tel(1, 1, fwd, ok), tel(2, 2, fwd, ok), tel(3, 3, fwd, ok), tel(4, 4, fwd, ok),
				tel(6, 6, fwd, Verdict{Gap: true, New: true, Confirmed: true, Missing: 1, Unconfirmed: ms(1)})))},
		{"a 2 s blackout at 1 Hz", CommandCheckConfig{}, seq(send(fwd, 0, 8),
			one(tel(1, 1, fwd, ok), tel(2, 2, fwd, ok), tel(3, 3, fwd, ok),
				tel(6, 5, fwd, Verdict{Gap: true, New: true, Confirmed: true, Missing: 1, Unconfirmed: ms(2)}),
				tel(7, 6, fwd, ok)))},
		{"missing packets at 10 Hz below the threshold", CommandCheckConfig{}, seq(send(fwd, 0, 2),
			one(tel(1.0, 1, fwd, ok), tel(1.1, 2, fwd, ok), tel(1.2, 3, fwd, ok), tel(1.3, 4, fwd, ok),
				tel(1.7, 8, fwd, ok)))},
		{"missing packets at 10 Hz beyond it", CommandCheckConfig{}, seq(send(fwd, 0, 3),
			one(tel(1.0, 1, fwd, ok), tel(1.1, 2, fwd, ok), tel(1.2, 3, fwd, ok), tel(1.3, 4, fwd, ok),
				tel(2.0, 11, fwd, Verdict{Gap: true, New: true, Confirmed: true, Missing: 6, Unconfirmed: ms(0.6)})))},
		{"a silent robot, confirmed by the next packet", CommandCheckConfig{}, seq(send(fwd, 0, 7),
			one(tel(1, 1, fwd, ok), tel(2, 2, fwd, ok), tel(3, 3, fwd, ok),
				tel(5, 4, fwd, Verdict{}), // pending: not confirmed, not yet a loss
				tel(6, 5, fwd, Verdict{Silence: true, New: true, Confirmed: true, Unconfirmed: ms(1)})))},
		{"a silence after one measured interval", CommandCheckConfig{}, seq(send(fwd, 0, 7),
			one(tel(1, 1, fwd, ok), tel(2, 2, fwd, ok),
				tel(5, 3, fwd, Verdict{}),
				tel(6, 4, fwd, Verdict{Silence: true, New: true, Confirmed: true, Unconfirmed: ms(2)}),
				tel(7, 5, fwd, ok)))},
		{"a stalled receiver is not a silence", CommandCheckConfig{}, seq(send(fwd, 0, 7),
			one(tel(1, 1, fwd, ok), tel(2, 2, fwd, ok), tel(3, 3, fwd, ok),
				tel(4.8, 4, fwd, Verdict{}), // late by 0.8 s
				tel(5.0, 5, fwd, ok)))},
		{"a late packet widens the window", CommandCheckConfig{}, seq(send(fwd, 0, 3.4), send(turn, 3.6, 5),
			one(tel(1, 1, fwd, ok), tel(2, 2, fwd, ok), tel(3, 3, fwd, ok),
				tel(4.4, 4, fwd, ok))), // sent by the robot at ~4 s with the command it had, read 0.4 s late
		},
		{"a resync is not a gap", CommandCheckConfig{}, seq(send(fwd, 0, 8),
			one(tel(1, 40, fwd, ok), tel(2, 41, fwd, ok), tel(3, 42, fwd, ok),
				ev{at: 6, tick: 1, resync: true, cmd: fwd, speed: fwd, want: ok},
				tel(7, 2, fwd, ok)))},
		{"the period is measured: 0.5 Hz", CommandCheckConfig{}, seq(send(fwd, 0, 16),
			// The first interval, longer than the assumed 1 s, leaves its
			// packet unconfirmed until the next one shows the period.
			one(tel(1, 1, fwd, ok), tel(3, 2, fwd, Verdict{}), tel(5, 3, fwd, ok), tel(7, 4, fwd, ok), tel(9, 5, fwd, ok),
				tel(13, 7, fwd, Verdict{Gap: true, New: true, Confirmed: true, Missing: 1, Unconfirmed: ms(2)}),
				tel(15, 8, fwd, ok)))},
		{"no silence at 10 Hz: a stall", CommandCheckConfig{}, seq(send(fwd, 0, 3),
			one(tel(1.0, 1, fwd, ok), tel(1.1, 2, fwd, ok), tel(1.2, 3, fwd, ok), tel(1.3, 4, fwd, ok),
				tel(2.0, 5, fwd, ok),
				tel(2.1, 6, fwd, ok)))},
		{"silence at 10 Hz with a lower threshold", CommandCheckConfig{Threshold: 50 * time.Millisecond}, seq(send(fwd, 0, 3),
			one(tel(1.0, 1, fwd, ok), tel(1.1, 2, fwd, ok), tel(1.2, 3, fwd, ok), tel(1.3, 4, fwd, ok),
				tel(2.0, 5, fwd, Verdict{}),
				tel(2.1, 6, fwd, Verdict{Silence: true, New: true, Confirmed: true, Unconfirmed: ms(0.6)})))},
	} {
		t.Run(c.name, func(t *testing.T) {
			cc, err := NewCommandCheck(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Unix(1000, 0)
			for i, e := range c.evs {
				at := t0.Add(ms(e.at))
				if e.sent {
					cc.Sent(at, &e.cmd, trackMask)
					continue
				}
				got := cc.Telemetry(at, e.tick, e.resync, &e.cmd, &e.speed)
				got.Unconfirmed = got.Unconfirmed.Round(time.Millisecond)
				if got != e.want {
					t.Errorf("event %d (telemetry tick %d at %.1f s): got %+v, want %+v", i, e.tick, e.at, got, e.want)
				}
			}
		})
	}
}

func TestCommandCheckConfig(t *testing.T) {
	c, err := CommandCheckConfig{}.WithDefaults()
	if err != nil || c.Window != 500*time.Millisecond || c.Tolerance != 1 || c.Threshold != 500*time.Millisecond || c.Period != time.Second {
		t.Errorf("defaults %+v, %v", c, err)
	}
	if _, err := NewCommandCheck(CommandCheckConfig{Window: -1}); err == nil {
		t.Error("negative window accepted")
	}
}

// TestCommandCheckHistory: the check remembers a command replaced by
// many others sent since, as far as its history reaches; beyond it, a
// stale echo gives no verdict rather than a false one.
func TestCommandCheckHistory(t *testing.T) {
	cc, _ := NewCommandCheck(CommandCheckConfig{Window: 10 * time.Second})
	t0 := time.Unix(1000, 0)
	first := tracks(1, 1)
	cc.Sent(t0, &first, trackMask)
	for i := 1; i <= sentHistory+10; i++ {
		e := tracks(int16(100+i), 0)
		cc.Sent(t0.Add(time.Duration(i)*10*time.Millisecond), &e, trackMask)
	}
	at := t0.Add(3 * time.Second)
	if v := cc.Telemetry(at, 1, false, &first, &first); v.Loss() || v.Confirmed {
		t.Errorf("an echo older than the history: %+v, want no verdict", v)
	}
	recent := tracks(int16(100+sentHistory), 0)
	if v := cc.Telemetry(at.Add(time.Second), 2, false, &recent, &recent); v.Loss() || !v.Confirmed {
		t.Errorf("an echo within the history: %+v, want confirmed", v)
	}
}

func TestCommandCheckAllocs(t *testing.T) {
	cc, _ := NewCommandCheck(CommandCheckConfig{})
	t0 := time.Unix(1000, 0)
	e := tracks(100, 100)
	var tick uint64
	n := testing.AllocsPerRun(100, func() {
		tick++
		at := t0.Add(time.Duration(tick) * time.Second)
		cc.Sent(at, &e, trackMask)
		cc.Telemetry(at, tick, false, &e, &e)
	})
	if n != 0 {
		t.Errorf("%v allocations per packet, want 0", n)
	}
}

// BenchmarkCommandCheck is one telemetry packet checked against a full
// history of distinct commands (the worst case of the match).
func BenchmarkCommandCheck(b *testing.B) {
	cc, _ := NewCommandCheck(CommandCheckConfig{Window: time.Hour})
	t0 := time.Unix(1000, 0)
	for i := range sentHistory {
		e := tracks(int16(i), 0)
		cc.Sent(t0.Add(time.Duration(i)*time.Millisecond), &e, trackMask)
	}
	old := tracks(-1, -1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		cc.Telemetry(t0.Add(time.Duration(i)*time.Second), uint64(i+1), false, &old, &old)
	}
}
