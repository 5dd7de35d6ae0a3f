package access

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Event is one thing worth a log line (and, when Audit is set, an audit
// record): a refusal, an e-stop, a lease change, a login.
type Event struct {
	Kind     string     // what happened, the key of the rate limit with Source
	Level    slog.Level // of the log line
	Msg      string     // the log line's message
	Source   string     // the remote address (host), "" for the console itself
	Operator string     // who, "" for the console itself
	Roles    Role       // the operator's roles
	Page     uint64     // the console's page, 0 for none
	Detail   string     // free text: what was refused and why
	Audit    bool       // also an audit record
}

// AuditRecord is one line of the audit log (JSON lines).
type AuditRecord struct {
	Time       string `json:"time"`                 // RFC 3339, UTC, nanoseconds
	Event      string `json:"event"`                // the kind
	Operator   string `json:"operator,omitempty"`   // Event.Operator
	Roles      string `json:"roles,omitempty"`      // Event.Roles as text ("drive,arm")
	Source     string `json:"source,omitempty"`     // Event.Source
	Page       uint64 `json:"page,omitempty"`       // Event.Page
	Detail     string `json:"detail,omitempty"`     // Event.Detail
	Suppressed uint64 `json:"suppressed,omitempty"` // same kind and source since the last record, not written
}

// Journal writes events to the log and the audit log, rate limited before
// anything is written: per source, operator and kind, one line per
// interval (operators come from the tokens file, so they do not multiply
// the lines without bound); the
// ones in between are counted and the count goes with the next line (or
// with the summary flush writes). Safe for concurrent use.
type Journal struct {
	log   *slog.Logger
	every time.Duration
	mu    sync.Mutex
	audit io.Writer // nil: no audit log
	seen  map[journalKey]*journalEntry
	lines uint64 // log lines written
	// auditErrAt is when the last audit write error was logged.
	auditErrAt time.Time
}

type journalKey struct{ source, operator, kind string }

type journalEntry struct {
	last       time.Time // of the last line written
	suppressed uint64
	ev         Event // the last suppressed one, for the summary
}

// maxJournalKeys bounds the limiter's memory; beyond it old keys are
// flushed early.
const maxJournalKeys = 4096

// NewJournal returns a Journal that logs to log, writes audit records to
// audit (nil: none), and lets one line per source, operator and kind
// through per interval every.
func NewJournal(log *slog.Logger, audit io.Writer, every time.Duration) *Journal {
	return &Journal{log: log, audit: audit, every: every, seen: map[journalKey]*journalEntry{}}
}

// Record writes e at now unless a line of the same source and kind was
// written within the interval; then it only counts it. It reports
// whether it wrote.
func (j *Journal) Record(now time.Time, e Event) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	k := journalKey{e.Source, e.Operator, e.Kind}
	en := j.seen[k]
	if en != nil && now.Sub(en.last) < j.every {
		en.suppressed++
		en.ev = e
		return false
	}
	var n uint64
	if en == nil {
		if len(j.seen) >= maxJournalKeys {
			j.flushLocked(now, true)
		}
		en = &journalEntry{}
		j.seen[k] = en
	}
	n, en.suppressed, en.last = en.suppressed, 0, now
	j.writeLocked(now, e, n)
	return true
}

// Flush writes the counts of events suppressed more than an interval ago
// and forgets sources that went quiet. Call it now and then (the server
// does, with its deadman tick) and at shutdown (all).
func (j *Journal) Flush(now time.Time, all bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.flushLocked(now, all)
}

func (j *Journal) flushLocked(now time.Time, all bool) {
	for k, en := range j.seen {
		if !all && now.Sub(en.last) < j.every {
			continue
		}
		if en.suppressed > 0 {
			e := en.ev
			e.Msg += " (summary of suppressed repeats)"
			j.writeLocked(now, e, en.suppressed)
		}
		delete(j.seen, k)
	}
}

func (j *Journal) writeLocked(now time.Time, e Event, suppressed uint64) {
	attrs := make([]any, 0, 14)
	attrs = append(attrs, "kind", e.Kind)
	if e.Source != "" {
		attrs = append(attrs, "source", e.Source)
	}
	if e.Operator != "" {
		attrs = append(attrs, "operator", e.Operator, "roles", e.Roles.String())
	}
	if e.Page != 0 {
		attrs = append(attrs, "page", e.Page)
	}
	if e.Detail != "" {
		attrs = append(attrs, "detail", e.Detail)
	}
	if suppressed > 0 {
		attrs = append(attrs, "suppressed", suppressed)
	}
	j.log.Log(context.Background(), e.Level, "console: "+e.Msg, attrs...)
	j.lines++
	if !e.Audit || j.audit == nil {
		return
	}
	r := AuditRecord{Time: now.UTC().Format(time.RFC3339Nano), Event: e.Kind, Operator: e.Operator, Source: e.Source, Page: e.Page, Detail: e.Detail, Suppressed: suppressed}
	if e.Operator != "" {
		r.Roles = e.Roles.String()
	}
	b, err := json.Marshal(&r)
	if err != nil {
		return
	}
	if _, err := j.audit.Write(append(b, '\n')); err != nil && now.Sub(j.auditErrAt) >= j.every {
		j.auditErrAt = now // one line per interval, not one per event
		j.log.Error("console: audit log write failed", "err", err)
	}
}

// Written returns the number of log lines written so far.
func (j *Journal) Written() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.lines
}
