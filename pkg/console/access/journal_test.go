package access_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// records is a slog handler that keeps every record.
type records struct {
	mu sync.Mutex
	rs []slog.Record
}

func (h *records) Enabled(context.Context, slog.Level) bool { return true }
func (h *records) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rs = append(h.rs, r.Clone())
	return nil
}
func (h *records) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *records) WithGroup(string) slog.Handler      { return h }

// auditLines parses an audit log into generic records (what a reader of
// the file sees, whatever the Go type).
func auditLines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// count returns how many events an audit line stands for.
func count(m map[string]any) int {
	if c, ok := m["count"].(float64); ok {
		return int(c)
	}
	return 1
}

// TestJournalTimes is the probe: a lease taken and released
// within 10 s by one operator from one source, and two e-stops 2.5 s
// apart, each get a line of their own, written at once with the time
// they happened (before: the release was held back and written 77 s
// later with the time of the flush, the second e-stop kept only as a
// count); the log's lines carry the events' times too. A flood of a
// noisy refusal is merged into one line with its count and the times of
// its first and last event, never the time of its writing.
func TestJournalTimes(t *testing.T) {
	var audit bytes.Buffer
	h := &records{}
	j := access.NewJournal(slog.New(h), &audit, 10*time.Second)
	at := func(s string) time.Time {
		v, err := time.Parse("15:04:05.000", s)
		if err != nil {
			t.Fatal(err)
		}
		return time.Date(2026, 11, 28, v.Hour(), v.Minute(), v.Second(), v.Nanosecond(), time.UTC)
	}
	who := access.Event{Operator: "alice", Roles: access.RoleDrive, Source: "10.0.0.5", Page: 2, Level: slog.LevelInfo, Audit: true}
	ev := func(kind, msg string) access.Event { e := who; e.Kind, e.Msg = kind, msg; return e }
	want := []struct{ time, event string }{
		{"04:48:10.400", "lease"}, // taken
		{"04:48:17.900", "lease"}, // released
		{"04:48:20.000", "estop"},
		{"04:48:22.500", "estop"},
	}
	for _, w := range want {
		if !j.Record(at(w.time), ev(w.event, w.event)) {
			t.Errorf("%s at %s not written at once", w.event, w.time)
		}
	}
	// A page floods a refusal: 100 in a second.
	for i := range 100 {
		j.Record(at("04:48:30.000").Add(time.Duration(i)*10*time.Millisecond), ev("view_only", "command from a view-only page"))
	}
	j.Flush(at("04:49:34.900"), false)
	lines := auditLines(t, audit.Bytes())
	if len(lines) != len(want)+2 {
		t.Fatalf("%d audit lines, want %d:\n%s", len(lines), len(want)+2, audit.String())
	}
	for i, w := range want {
		if got := lines[i]; got["event"] != w.event || got["time"] != at(w.time).Format(time.RFC3339Nano) || count(got) != 1 {
			t.Errorf("line %d: %v, want %s at %s", i, got, w.event, at(w.time).Format(time.RFC3339Nano))
		}
	}
	first, merged := lines[len(want)], lines[len(want)+1]
	if first["time"] != at("04:48:30.000").Format(time.RFC3339Nano) || count(first) != 1 {
		t.Errorf("first refusal: %v", first)
	}
	if merged["event"] != "view_only" || count(merged) != 99 || merged["time"] != at("04:48:30.010").Format(time.RFC3339Nano) || merged["last"] != at("04:48:30.990").Format(time.RFC3339Nano) {
		t.Errorf("merged refusals: %v, want 99 from 04:48:30.010 to 04:48:30.990", merged)
	}
	// The log's lines: the same times.
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.rs) != len(lines) {
		t.Fatalf("%d log lines, %d audit lines", len(h.rs), len(lines))
	}
	for i, r := range h.rs {
		if got := r.Time.UTC().Format(time.RFC3339Nano); got != lines[i]["time"] {
			t.Errorf("log line %d %q at %s, its event at %s", i, r.Message, got, lines[i]["time"])
		}
	}
}

// TestJournalFlood: a page that sends e-stops as fast as it can gets a
// line of its own per e-stop at a human pace (CriticalBurst, then
// CriticalRate) and the rest merged; every e-stop is accounted for, the
// merged lines in order with their first and last times.
func TestJournalFlood(t *testing.T) {
	var audit bytes.Buffer
	j := access.NewJournal(slog.New(&records{}), &audit, 10*time.Second)
	t0 := time.Date(2026, 11, 28, 4, 0, 0, 0, time.UTC)
	const n, every = 20_000, time.Millisecond // 20 s at 1 kHz
	for i := range n {
		j.Record(t0.Add(time.Duration(i)*every), access.Event{Kind: "estop", Msg: "emergency stop", Source: "10.0.0.7", Operator: "bob", Audit: true})
	}
	j.Flush(t0.Add(n*every), true)
	lines := auditLines(t, audit.Bytes())
	total, prev := 0, t0
	for _, l := range lines {
		total += count(l)
		ts, _ := time.Parse(time.RFC3339Nano, l["time"].(string))
		if ts.Before(prev) {
			t.Fatalf("line %v before an earlier one at %s", l, prev)
		}
		prev = ts
		if last, ok := l["last"].(string); ok {
			prev, _ = time.Parse(time.RFC3339Nano, last)
		}
	}
	if total != n {
		t.Fatalf("%d e-stops in the audit log, %d sent", total, n)
	}
	own := access.CriticalBurst + int(access.CriticalRate*float64(n)*every.Seconds()) + 1
	if len(lines) > 2*own {
		t.Fatalf("%d lines for %d e-stops in %v, want at most %d", len(lines), n, n*every, 2*own)
	}
	t.Logf("%d e-stops in %v: %d audit lines, %d bytes", n, n*every, len(lines), audit.Len())
}
