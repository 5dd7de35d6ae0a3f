package access

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Event is one thing worth a log line (and, when Audit is set, an audit
// record): a refusal, an e-stop, a lease change, a login.
type Event struct {
	Kind     string     // what happened; with Source and Operator the key of the merging
	Level    slog.Level // of the log line
	Msg      string     // the log line's message
	Source   string     // the remote address (host), "" for the console itself
	Operator string     // who, "" for the console itself
	Roles    Role       // the operator's roles
	Page     uint64     // the console's page, 0 for none
	Detail   string     // free text: what was refused and why
	Audit    bool       // also an audit record
}

// AuditRecord is one line of the audit log (JSON lines). A line stands
// for one event, at the time it happened, or, with Count above 1, for
// Count events of one kind from one source and operator merged, the
// first at Time and the last at Last.
type AuditRecord struct {
	Time     string `json:"time"`               // of the event (the first merged), RFC 3339, UTC, nanoseconds
	Event    string `json:"event"`              // the kind
	Operator string `json:"operator,omitempty"` // Event.Operator
	Roles    string `json:"roles,omitempty"`    // Event.Roles as text ("drive,arm")
	Source   string `json:"source,omitempty"`   // Event.Source
	Page     uint64 `json:"page,omitempty"`     // Event.Page (the last merged)
	Detail   string `json:"detail,omitempty"`   // Event.Detail (the last merged)
	Count    uint64 `json:"count,omitempty"`    // events merged into this line; absent: one
	Last     string `json:"last,omitempty"`     // time of the last merged event, with Count
}

// Critical reports whether events of kind are audit-critical: e-stops,
// e-stop releases, lease changes, logins, logouts and session ends. Each
// gets a line of its own at the time it happened while its source keeps
// to a human pace (CriticalBurst, then CriticalRate); only a flood beyond
// that is merged. Every other kind (refusals, errors) is noisy: one line
// per source, operator and kind per interval, the rest merged.
func Critical(kind string) bool {
	switch kind {
	case "estop", "release", "release_asked", "lease", "login", "logout", "session_expired", "session_ended":
		return true
	}
	return false
}

// CriticalBurst is how many audit-critical events of one kind, source
// and operator get a line each before CriticalRate applies.
const CriticalBurst = 10

// CriticalRate is the sustained rate of lines of one critical kind,
// source and operator beyond CriticalBurst [1/s]: faster events are
// merged (with their count, first and last times).
const CriticalRate = 0.5

// Journal writes events to the log and the audit log, each line at the
// time of its event (the log's lines too: their time is the event's, not
// the writing's). The volume is bounded per source, operator and kind
// (operators come from the tokens file, so they do not multiply the
// lines without bound): a noisy kind writes one line per interval, and
// an audit-critical one (Critical) one per event at a human pace; the
// events beyond are merged into one line with their count and the times
// of the first and the last, written when the next line of that key is
// (so lines of a key stay in order) or when Flush finds the merge an
// interval old. Safe for concurrent use.
type Journal struct {
	log   *slog.Logger
	every time.Duration
	mu    sync.Mutex
	audit io.Writer // nil: no audit log
	seen  map[journalKey]*journalEntry
	lines uint64 // log lines written
	// flushed is when Record last looked for merges to write.
	flushed time.Time
	// auditErrAt is when the last audit write error was logged.
	auditErrAt time.Time
}

type journalKey struct{ source, operator, kind string }

type journalEntry struct {
	budget      Bucket    // critical kinds: lines of their own
	last        time.Time // of the last line of its own (noisy kinds)
	active      time.Time // of the last event
	merged      uint64    // events merged, not written yet
	first, upTo time.Time // of the first and last merged
	ev          Event     // the last merged
}

// maxJournalKeys bounds the journal's memory; beyond it the merges of
// every key are written and the keys forgotten.
const maxJournalKeys = 4096

// NewJournal returns a Journal that logs to log, writes audit records to
// audit (nil: none), and merges noisy events per source, operator and
// kind into one line per interval every.
func NewJournal(log *slog.Logger, audit io.Writer, every time.Duration) *Journal {
	return &Journal{log: log, audit: audit, every: every, seen: map[journalKey]*journalEntry{}}
}

// Record writes e, which happened at now, or merges it with the events
// of its source, operator and kind (see Journal). It reports whether it
// wrote a line of its own.
func (j *Journal) Record(now time.Time, e Event) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	k := journalKey{e.Source, e.Operator, e.Kind}
	en := j.seen[k]
	if en == nil {
		if len(j.seen) >= maxJournalKeys {
			j.flushLocked(now, true)
		}
		en = &journalEntry{}
		j.seen[k] = en
	}
	en.active = now
	if now.Sub(j.flushed) >= time.Second {
		// Merges an interval old go out even while the console is idle.
		j.flushed = now
		j.flushLocked(now, false)
	}
	var own bool
	if Critical(e.Kind) {
		own = en.budget.Allow(now, CriticalRate, CriticalBurst)
	} else {
		own = en.last.IsZero() || now.Sub(en.last) >= j.every
	}
	if !own {
		if en.merged == 0 {
			en.first = now
		}
		en.merged++
		en.upTo, en.ev = now, e
		return false
	}
	j.writeMergedLocked(en)
	en.last = now
	j.writeLocked(now, e, 1, time.Time{})
	return true
}

// writeMergedLocked writes en's merged events, if any.
func (j *Journal) writeMergedLocked(en *journalEntry) {
	if en.merged == 0 {
		return
	}
	e := en.ev
	if en.merged > 1 {
		e.Msg += fmt.Sprintf(" (%d merged)", en.merged)
	}
	j.writeLocked(en.first, e, en.merged, en.upTo)
	en.merged = 0
}

// Flush writes the merges whose first event is an interval old (all:
// every merge) and forgets keys that went quiet. Call it now and then
// (the server does, with its state tick) and at shutdown (all).
func (j *Journal) Flush(now time.Time, all bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.flushLocked(now, all)
}

func (j *Journal) flushLocked(now time.Time, all bool) {
	// A critical key's budget refills in CriticalBurst/CriticalRate: a
	// key is forgotten only once it would be full again.
	quiet := max(j.every, time.Duration(CriticalBurst/CriticalRate*float64(time.Second)))
	for k, en := range j.seen {
		if en.merged > 0 && (all || now.Sub(en.first) >= j.every) {
			j.writeMergedLocked(en)
		}
		if all || (en.merged == 0 && now.Sub(en.active) >= quiet) {
			delete(j.seen, k)
		}
	}
}

// writeLocked writes e, of time at, standing for n events (the last at
// upTo when n > 1), to the log and, if it is an audit event, the audit
// log.
func (j *Journal) writeLocked(at time.Time, e Event, n uint64, upTo time.Time) {
	if h := j.log.Handler(); h.Enabled(context.Background(), e.Level) {
		r := slog.NewRecord(at, e.Level, "console: "+e.Msg, 0)
		r.AddAttrs(slog.String("kind", e.Kind))
		if e.Source != "" {
			r.AddAttrs(slog.String("source", e.Source))
		}
		if e.Operator != "" {
			r.AddAttrs(slog.String("operator", e.Operator), slog.String("roles", e.Roles.String()))
		}
		if e.Page != 0 {
			r.AddAttrs(slog.Uint64("page", e.Page))
		}
		if e.Detail != "" {
			r.AddAttrs(slog.String("detail", e.Detail))
		}
		if n > 1 {
			// first too: a handler may stamp its own time (log.Logger's).
			r.AddAttrs(slog.Uint64("count", n), slog.Time("first", at), slog.Time("last", upTo))
		}
		_ = h.Handle(context.Background(), r)
	}
	j.lines++
	if !e.Audit || j.audit == nil {
		return
	}
	r := AuditRecord{Time: at.UTC().Format(time.RFC3339Nano), Event: e.Kind, Operator: e.Operator, Source: e.Source, Page: e.Page, Detail: e.Detail}
	if n > 1 {
		r.Count, r.Last = n, upTo.UTC().Format(time.RFC3339Nano)
	}
	if e.Operator != "" {
		r.Roles = e.Roles.String()
	}
	b, err := json.Marshal(&r)
	if err != nil {
		return
	}
	if _, err := j.audit.Write(append(b, '\n')); err != nil && at.Sub(j.auditErrAt) >= j.every {
		j.auditErrAt = at // one line per interval, not one per event
		j.log.Error("console: audit log write failed", "err", err)
	}
}

// Written returns the number of log lines written so far.
func (j *Journal) Written() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.lines
}
