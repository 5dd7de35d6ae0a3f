package rate

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

func TestRunStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := Run(ctx, time.Millisecond, func(tk Tick) error {
		if tk.Seq != uint64(n) {
			t.Errorf("tick %d has Seq %d", n, tk.Seq)
		}
		n++
		if n == 5 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v, want context.Canceled", err)
	}
	if n != 5 {
		t.Fatalf("step ran %d times after cancel at 5", n)
	}
}

func TestRunReturnsStepError(t *testing.T) {
	boom := errors.New("boom")
	err := Run(context.Background(), time.Millisecond, func(Tick) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("Run returned %v, want wrapped boom", err)
	}
}

func TestRunDeadlinesAreEvenlySpaced(t *testing.T) {
	const period = 2 * time.Millisecond
	var first, prev time.Time
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := Run(ctx, period, func(tk Tick) error {
		if tk.Seq == 0 {
			first = tk.Deadline
		} else if d := tk.Deadline.Sub(prev); d != period*time.Duration(1+tk.Missed) {
			t.Errorf("tick %d: deadline step %v with %d missed, want %v per period", tk.Seq, d, tk.Missed, period)
		}
		if tk.Now.Before(tk.Deadline) {
			t.Errorf("tick %d woke %v before its deadline", tk.Seq, tk.Deadline.Sub(tk.Now))
		}
		prev = tk.Deadline
		if tk.Seq == 3 {
			time.Sleep(3 * period) // overrun: the next tick must skip, not burst
		}
		if tk.Seq == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if prev.Sub(first) < 12*period {
		t.Fatalf("10 ticks with an overrun of 3 periods spanned only %v", prev.Sub(first))
	}
}

func TestRunRejectsBadPeriod(t *testing.T) {
	if err := Run(context.Background(), 0, func(Tick) error { return nil }); !errors.Is(err, ErrPeriod) {
		t.Fatalf("got %v", err)
	}
}

func TestHz(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want time.Duration
		ok   bool
	}{
		{100, 10 * time.Millisecond, true},
		{5, 200 * time.Millisecond, true},
		{0, 0, false},
		{-1, 0, false},
		{math.NaN(), 0, false},
		{math.Inf(1), 0, false},
	} {
		got, err := Hz(tc.f)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Hz(%g) = %v, %v; want %v ok=%v", tc.f, got, err, tc.want, tc.ok)
		}
	}
}

func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	period, _ := Hz(100)
	_ = Run(ctx, period, func(t Tick) error {
		// Read the latest command, run the controller, send a packet.
		return nil
	})
}
