package cmdvel

import (
	"errors"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/rosparam"
)

func TestCheck(t *testing.T) {
	now := time.Unix(1_700_000_000, 500_000_000)
	const bound = 500 * time.Millisecond
	cases := []struct {
		name   string
		stamp  time.Time
		maxAge time.Duration
		want   error
	}{
		{"fresh", now.Add(-100 * time.Millisecond), bound, nil},
		{"exactly the bound old", now.Add(-bound), bound, nil},
		{"just past the bound", now.Add(-bound - time.Nanosecond), bound, ErrStale},
		{"a second old", now.Add(-time.Second), bound, ErrStale},
		{"slightly ahead (clocks a little apart)", now.Add(100 * time.Millisecond), bound, nil},
		{"far ahead", now.Add(2 * time.Second), bound, ErrFuture},
		{"zero header stamp: unstamped", time.Unix(0, 0), bound, nil},
		{"zero time.Time: unstamped", time.Time{}, bound, nil},
		{"from a zero header via rosparam", rosparam.Time{}.Time(), bound, nil},
		{"check off", now.Add(-time.Hour), 0, nil},
		{"one nanosecond after the epoch is a stamp", time.Unix(0, 1), bound, ErrStale},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Check(c.stamp, now, c.maxAge)
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("Check(%v, %v, %v) = %v, want %v", c.stamp, now, c.maxAge, err, c.want)
			}
		})
	}
}

// A stream of fresh commands is checked at 20 Hz per subscriber: no
// allocation on the accepting path.
func TestCheckAllocatesNothingWhenFresh(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	stamp := now.Add(-10 * time.Millisecond)
	if a := testing.AllocsPerRun(100, func() { _ = Check(stamp, now, time.Second) }); a != 0 {
		t.Fatalf("Check allocates %v per call", a)
	}
}

func TestRefusalsLogPowersOfTwo(t *testing.T) {
	var r Refusals
	var logged []uint64
	for i := 0; i < 20; i++ {
		if ok, n := r.Add(); ok {
			logged = append(logged, n)
		}
	}
	want := []uint64{1, 2, 4, 8, 16}
	if len(logged) != len(want) {
		t.Fatalf("logged %v, want %v", logged, want)
	}
	for i := range want {
		if logged[i] != want[i] {
			t.Fatalf("logged %v, want %v", logged, want)
		}
	}
}

func TestBindingIsReadOnlyBool(t *testing.T) {
	type cfg struct{ Stamped bool }
	b := Binding(func(c *cfg) *bool { return &c.Stamped })
	if b.Name != ParamStamped || b.Type != rosparam.ParameterBool || !b.ReadOnly {
		t.Fatalf("binding %+v: want read-only bool %s", b.Param, ParamStamped)
	}
	var c cfg
	b.Set(&c, rosparam.Bool(true))
	if !c.Stamped {
		t.Fatal("Set(true) did not reach the field")
	}
}
