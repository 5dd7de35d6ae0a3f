package rosparam

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	wall := time.Unix(1700000000, 123).UTC()
	c := NewClock(func() time.Time { return wall })
	if !c.Now().Equal(wall) || c.UseSimTime() || c.SimTimeValid() {
		t.Fatalf("wall clock: %v", c.Now())
	}
	c.SetUseSimTime(true)
	if got := c.Now(); !got.Equal(time.Unix(0, 0)) || c.Stamp() != (Time{}) {
		t.Errorf("before /clock: %v, want the epoch", got)
	}
	c.FeedClock(Time{Sec: 12, Nanosec: 500_000_000})
	if got := c.Now(); !got.Equal(time.Unix(12, 5e8)) || !c.SimTimeValid() {
		t.Errorf("sim time %v", got)
	}
	c.FeedClock(Time{Sec: 3}) // backwards: taken as is
	if got := c.Stamp(); got != (Time{Sec: 3}) {
		t.Errorf("after a jump back: %+v", got)
	}
	c.SetUseSimTime(false)
	if !c.Now().Equal(wall) {
		t.Errorf("back to wall: %v", c.Now())
	}
	// /clock received while off is used as soon as sim time is switched on.
	c.FeedClock(Time{Sec: 99})
	c.SetUseSimTime(true)
	if c.Stamp() != (Time{Sec: 99}) {
		t.Errorf("stamp %+v", c.Stamp())
	}
}

func TestTimeOf(t *testing.T) {
	cases := []struct {
		in   time.Time
		want Time
	}{
		{time.Unix(0, 0), Time{}},
		{time.Unix(1, 999_999_999), Time{Sec: 1, Nanosec: 999_999_999}},
		{time.Unix(-1, 500), Time{Sec: -1, Nanosec: 500}},
		{time.Unix(1<<40, 0), Time{Sec: 1<<31 - 1, Nanosec: 999_999_999}},
		{time.Unix(-1<<40, 0), Time{Sec: -1 << 31}},
	}
	for _, c := range cases {
		if got := TimeOf(c.in); got != c.want {
			t.Errorf("TimeOf(%v) = %+v, want %+v", c.in, got, c.want)
		}
		if c.in.Unix() == int64(c.want.Sec) && !c.want.Time().Equal(c.in) {
			t.Errorf("Time() of %+v = %v", c.want, c.want.Time())
		}
	}
}

// TestClockNowAllocs: Now sits in every control loop step.
func TestClockNowAllocs(t *testing.T) {
	c := NewClock(nil)
	c.FeedClock(Time{Sec: 1})
	for _, sim := range []bool{false, true} {
		c.SetUseSimTime(sim)
		if n := testing.AllocsPerRun(1000, func() { _ = c.Now() }); n != 0 {
			t.Errorf("Now (sim=%v) allocates %v times", sim, n)
		}
		if n := testing.AllocsPerRun(1000, func() { c.FeedClock(Time{Sec: 2}) }); n != 0 {
			t.Errorf("FeedClock allocates %v times", n)
		}
	}
}

func BenchmarkClockNowSim(b *testing.B) {
	c := NewClock(nil)
	c.SetUseSimTime(true)
	c.FeedClock(Time{Sec: 1})
	b.ReportAllocs()
	for b.Loop() {
		_ = c.Now()
	}
}

func BenchmarkFeedClock(b *testing.B) {
	c := NewClock(nil)
	b.ReportAllocs()
	for b.Loop() {
		c.FeedClock(Time{Sec: 1})
	}
}

func BenchmarkGetParameters(b *testing.B) {
	s, err := New(Config{Node: "/drv", Table: testTable()})
	if err != nil {
		b.Fatal(err)
	}
	names := []string{"rate", "limits.linear", "gains"}
	b.ReportAllocs()
	for b.Loop() {
		s.GetParameters(names)
	}
}

func BenchmarkSetParameters(b *testing.B) {
	s, err := New(Config{Node: "/drv", Table: testTable()})
	if err != nil {
		b.Fatal(err)
	}
	p := []Parameter{{"limits.linear", Double(1.5)}}
	b.ReportAllocs()
	for b.Loop() {
		s.SetParameters(p)
	}
}
