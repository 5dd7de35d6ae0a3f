package console

import (
	"testing"
	"time"
)

// TestCmdLinkReport: re-sends later than half the timeout count as late
// and make the report slow for 2 s; an expiry does too; on time they
// do not.
func TestCmdLinkReport(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	steps := []struct {
		at    int // [ms]
		gap   int // a re-send after gap [ms]; -1: an expiry; 0: only a report
		slow  bool
		late  uint64
		gapMS float64
	}{
		{at: 100, gap: 100, slow: false, late: 0, gapMS: 100},
		{at: 240, gap: 140, slow: false, late: 0, gapMS: 140},
		{at: 410, gap: 170, slow: true, late: 1, gapMS: 170},
		{at: 2000, gap: 0, slow: true, late: 1, gapMS: 0},
		{at: 2411, gap: 0, slow: false, late: 1, gapMS: 0},
		{at: 3000, gap: -1, slow: true, late: 2, gapMS: 300},
	}
	l := cmdLink{slow: 150 * time.Millisecond}
	for _, s := range steps {
		switch {
		case s.gap > 0:
			l.arrived(time.Duration(s.gap)*time.Millisecond, ms(s.at))
		case s.gap < 0:
			l.expired(ms(s.at))
		}
		r := l.report(ms(s.at))
		if r.Slow != s.slow || r.Late != s.late || r.GapMS != s.gapMS || r.SlowMS != 150 || (s.late > 0 && r.LateGapMS != map[uint64]float64{1: 170, 2: 300}[s.late]) {
			t.Errorf("at %d ms: %+v, want slow %v, late %d, gap %g ms", s.at, r, s.slow, s.late, s.gapMS)
		}
	}
}

// TestDeadmanGap: drive returns the interval since the held command it
// renews, and 0 for a first command, a zero, or another page's.
func TestDeadmanGap(t *testing.T) {
	var d deadman
	d.timeout = 300 * time.Millisecond
	g := d.add(1)
	t0 := time.Unix(1000, 0)
	if gap := d.drive(g, 1, t0, true); gap != 0 {
		t.Fatalf("first command: gap %v", gap)
	}
	if gap := d.drive(g, 1, t0.Add(120*time.Millisecond), true); gap != 120*time.Millisecond {
		t.Fatalf("re-send: gap %v, want 120ms", gap)
	}
	if gap := d.drive(g, 2, t0.Add(200*time.Millisecond), true); gap != 0 {
		t.Fatalf("another page's: gap %v", gap)
	}
	if gap := d.drive(g, 2, t0.Add(250*time.Millisecond), false); gap != 0 {
		t.Fatalf("a zero: gap %v", gap)
	}
}
