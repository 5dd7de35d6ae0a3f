package console

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// Counters are the console's counters of refused input. Fields may be
// read concurrently.
type Counters struct {
	BadMessages atomic.Uint64 // malformed, unknown, missing, non-finite or out-of-range
	ViewOnly    atomic.Uint64 // commands from pages without control
	Role        atomic.Uint64 // commands the page's operator has no role for
	Faster      atomic.Uint64 // commands the machine could only execute faster (zero sent)
	RateLimited atomic.Uint64 // messages over a page's rate limit
	BackendErrs atomic.Uint64 // backend calls that failed
	Expired     atomic.Uint64 // held commands stopped by the deadman timeout
	Stops       atomic.Uint64 // pages that went away, hid or lost focus while driving
	AuthFails   atomic.Uint64 // requests without a valid token or from a foreign origin
	Throttled   atomic.Uint64 // requests refused because their source failed too many logins
	EStopsHeld  atomic.Uint64 // e-stops not passed on again: the latch was set moments before
	EStopsSent  atomic.Uint64 // e-stops passed on to the backend
	Stale       atomic.Uint64 // commands dropped because a newer one of the same page and type came first (seq)
	// PagesRefused counts WebSockets refused over a page cap
	// (Config.MaxPagesPerOperator, MaxPagesPerSource).
	PagesRefused atomic.Uint64
}

// hubConfig configures a hub.
type hubConfig struct {
	timeout     time.Duration // deadman
	rate, burst float64       // messages per second per page, burst
	estopRepeat time.Duration // shortest interval between e-stops passed on while latched
	confirm     time.Duration // how long a release waits for its confirmation
	journal     *access.Journal
	cnt         *Counters
	// notify queues a message for one page; it must not block.
	notify func(page uint64, msg []byte)
}

// pageState is one connected page.
type pageState struct {
	bucket   access.Bucket
	operator string
	roles    access.Role
	source   string
	seq      map[string]uint64 // the highest sequence number taken, by message type
}

// slot is a registered panel and the index of its first deadman group.
type slot struct {
	p     panel
	first int
}

// hub is the console's core and names no machine: it owns the pages, the
// lease, the deadman, the roles, the per-page rate limits, the e-stop
// latch and its release, the journal (log and audit), and routes each
// machine's messages to its panel. It reads no clock: callers pass now.
// One mutex serialises everything, so backend calls happen in the order
// of decisions (a take-over's stop before the new holder's first
// command).
type hub struct {
	be      Backend
	info    Info
	cfg     hubConfig
	j       *access.Journal
	cnt     *Counters
	mu      sync.Mutex
	dm      deadman
	ls      lease
	pages   map[uint64]*pageState
	next    uint64
	slots   []*slot
	routes  map[string]*slot
	groups  []groupRef
	latched bool      // an e-stop was passed on and not released here since
	lastES  time.Time // when the last e-stop was passed on
	pending struct {  // a release waiting for its confirmation
		page  uint64
		nonce string
		at    time.Time
	}
	scratch []int
	link    cmdLink // how the held commands arrive
}

type groupRef struct {
	s     *slot
	local int
	name  string
}

func newHub(be Backend, cfg hubConfig) *hub {
	h := &hub{be: be, info: be.Info(), cfg: cfg, j: cfg.journal, cnt: cfg.cnt, pages: map[uint64]*pageState{}, routes: map[string]*slot{}}
	h.dm.timeout = cfg.timeout
	h.link.slow = cfg.timeout / 2
	for _, mk := range panels {
		p := mk(be, h.info)
		s := &slot{p: p}
		h.slots = append(h.slots, s)
		names := p.Groups()
		s.first = h.dm.add(len(names))
		for i, n := range names {
			h.groups = append(h.groups, groupRef{s, i, n})
		}
		for _, t := range p.Types() {
			h.routes[t] = s
		}
	}
	return h
}

// join registers a new page of an operator with roles from source and
// returns its id and whether it controls: the first page that may move
// something gets control, unless it joins to watch (a page that sends no
// command, such as the Furbot's 3-D view, which would otherwise leave the
// operator's own page view-only when it was opened first). A watcher may
// still take control.
func (h *hub) join(operator string, roles access.Role, source string, watch bool, now time.Time) (uint64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	id := h.next
	h.pages[id] = &pageState{operator: operator, roles: roles, source: source}
	control := false
	if !watch && (roles.Has(access.RoleDrive) || roles.Has(access.RoleArm)) {
		control = h.ls.join(id)
	}
	h.event(now, id, event{Kind: "page", Level: slog.LevelInfo, Msg: "page connected", Detail: fmt.Sprintf("control %v", control)})
	if control {
		h.event(now, id, event{Kind: "lease", Level: slog.LevelInfo, Msg: "control given", Detail: "first page", Audit: true})
	}
	return id, control
}

// event is one entry of the journal; the hub, the server and the panels
// write many, so the short name stays.
type event = access.Event

// event writes e for page id (its operator and source filled in) through
// the journal. Called with mu held.
func (h *hub) event(now time.Time, id uint64, e event) {
	if p := h.pages[id]; p != nil {
		e.Operator, e.Roles, e.Source = p.operator, p.roles, p.source
	}
	e.Page = id
	h.j.Record(now, e)
}

// operator returns the name of page id's operator ("" if gone).
func (h *hub) operator(id uint64) string {
	if p := h.pages[id]; p != nil {
		return p.operator
	}
	return ""
}

// leave stops what page drove and frees the lease if it held it.
func (h *hub) leave(ctx context.Context, id uint64, now time.Time, why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopPage(ctx, id, now, "page closed")
	if h.ls.leave(id) {
		h.event(now, id, event{Kind: "lease", Level: slog.LevelInfo, Msg: "control freed", Detail: why, Audit: true})
	}
	if h.pending.page == id {
		h.pending.page = 0
	}
	h.event(now, id, event{Kind: "page", Level: slog.LevelInfo, Msg: "page gone", Detail: why})
	delete(h.pages, id)
}

// holder returns the page in control (0: none) and the number of pages.
func (h *hub) holder() (uint64, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ls.holder, len(h.pages)
}

// state adds every panel's entries of the state update.
func (h *hub) state(add func(string, any)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range h.slots {
		h.slots[i].p.State(add)
	}
}

// tick zeroes every held command older than the timeout at now.
func (h *hub) tick(ctx context.Context, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.scratch = h.dm.expired(now, h.scratch[:0])
	for _, g := range h.scratch {
		h.cnt.Expired.Add(1)
		h.link.expired(now)
		h.j.Record(now, event{Kind: "expired", Level: slog.LevelWarn, Msg: "command timed out, stopping", Detail: h.groups[g].name})
		h.zero(ctx, now, g)
	}
}

// stopAll zeroes every held command (shutdown).
func (h *hub) stopAll(ctx context.Context, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.scratch = h.dm.release(0, h.scratch[:0])
	for _, g := range h.scratch {
		h.zero(ctx, now, g)
	}
}

// stopPage zeroes what page drives (every page if id is 0): its held
// commands and what it set in the panels. Called with mu held.
func (h *hub) stopPage(ctx context.Context, id uint64, now time.Time, why string) {
	h.scratch = h.dm.release(id, h.scratch[:0])
	cancelled := 0
	for i := range h.slots {
		n, err := h.slots[i].p.StopPage(ctx, id)
		cancelled += n
		if err != nil {
			h.cnt.BackendErrs.Add(1)
			h.j.Record(now, event{Kind: "backend_error", Level: slog.LevelError, Msg: "stop failed", Detail: err.Error()})
		}
	}
	if len(h.scratch) > 0 || cancelled > 0 {
		h.cnt.Stops.Add(1)
		h.event(now, id, event{Kind: "stop", Level: slog.LevelInfo, Msg: "stopping what the page drove", Detail: fmt.Sprintf("%s: %d groups, %d targets", why, len(h.scratch), cancelled)})
	}
	for _, g := range h.scratch {
		h.zero(ctx, now, g)
	}
}

// zero sends the stop of deadman group g. Called with mu held.
func (h *hub) zero(ctx context.Context, now time.Time, g int) {
	r := h.groups[g]
	if err := r.s.p.Zero(ctx, r.local); err != nil {
		h.cnt.BackendErrs.Add(1)
		h.j.Record(now, event{Kind: "backend_error", Level: slog.LevelError, Msg: "stop failed", Detail: r.name + ": " + err.Error()})
	}
}

// handle processes one message of page id at now. The error is for the
// page (and has been counted and, rate limited, logged).
func (h *hub) handle(ctx context.Context, id uint64, raw []byte, now time.Time) error {
	err := h.dispatch(ctx, id, raw, now)
	if err != nil {
		h.refused(id, now, err)
	}
	return err
}

// refused counts and journals a refusal of page id's input.
func (h *hub) refused(id uint64, now time.Time, err error) {
	e := event{Level: slog.LevelWarn, Detail: err.Error(), Audit: true}
	switch {
	case errors.Is(err, ErrBadMessage):
		h.cnt.BadMessages.Add(1)
		e.Kind, e.Msg = "bad_message", "refused a message"
	case errors.Is(err, ErrViewOnly):
		h.cnt.ViewOnly.Add(1)
		e.Kind, e.Msg = "view_only", "command from a view-only page"
	case errors.Is(err, ErrRole):
		h.cnt.Role.Add(1)
		e.Kind, e.Msg = "role", "command beyond the operator's roles"
	case errors.Is(err, ErrFaster):
		h.cnt.Faster.Add(1)
		e.Kind, e.Msg = "faster", "command the machine would execute faster: refused, zero sent"
	case errors.Is(err, errRateLimited):
		h.cnt.RateLimited.Add(1)
		e.Kind, e.Msg = "rate_limited", "page over its message rate"
	default:
		h.cnt.BackendErrs.Add(1)
		e.Kind, e.Msg, e.Level, e.Audit = "backend_error", "backend refused", slog.LevelError, false
	}
	h.mu.Lock()
	h.event(now, id, e)
	h.mu.Unlock()
}

// badFrame refuses a frame that is not a text message.
func (h *hub) badFrame(id uint64, now time.Time, what string) error {
	err := fmt.Errorf("%w: %s", ErrBadMessage, what)
	h.refused(id, now, err)
	return err
}

var errRateLimited = errors.New("too many messages: slow down")

func (h *hub) dispatch(ctx context.Context, id uint64, raw []byte, now time.Time) error {
	typ, seq, err := messageType(raw)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	pg := h.pages[id]
	if pg == nil {
		return fmt.Errorf("console: page %d is not connected", id)
	}
	// Stops are never rate limited.
	if typ != MsgEStop && typ != MsgStop && typ != MsgJogStop && !pg.bucket.Allow(now, h.cfg.rate, h.cfg.burst) {
		return errRateLimited
	}
	s := h.routes[typ]
	if s == nil {
		var m hubMessage
		if err := decode(raw, &m); err != nil {
			return err
		}
		return h.hubMessage(ctx, id, pg, m, now)
	}
	if h.ls.holder != id {
		return fmt.Errorf("%s: %w", typ, ErrViewOnly)
	}
	if seq != 0 {
		if seq <= pg.seq[typ] {
			// Overtaken by a newer command of this type from the same
			// page (the other transport): acting on it would undo the
			// newer one, e.g. drive again after the return to zero.
			h.cnt.Stale.Add(1)
			return nil
		}
		if pg.seq == nil {
			pg.seq = map[string]uint64{}
		}
		pg.seq[typ] = seq
	}
	c := call{Page: id, Now: now, Operator: pg.operator, Roles: pg.roles, h: h, first: s.first}
	return s.p.Handle(ctx, &c, typ, raw)
}

// allow takes one token of page id's rate limit at now for a message the
// hub does not route (WebRTC signalling); a refusal is counted and
// journaled like any other.
func (h *hub) allow(id uint64, now time.Time) error {
	h.mu.Lock()
	pg := h.pages[id]
	ok := pg != nil && pg.bucket.Allow(now, h.cfg.rate, h.cfg.burst)
	h.mu.Unlock()
	if pg == nil {
		return fmt.Errorf("console: page %d is not connected", id)
	}
	if !ok {
		h.refused(id, now, errRateLimited)
		return errRateLimited
	}
	return nil
}
