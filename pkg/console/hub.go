package console

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Counters are the console's counters of refused input. Fields may be
// read concurrently.
type Counters struct {
	BadMessages atomic.Uint64 // malformed, unknown, missing, non-finite or out-of-range
	ViewOnly    atomic.Uint64 // commands from pages without control
	RateLimited atomic.Uint64 // messages over a page's rate limit
	BackendErrs atomic.Uint64 // backend calls that failed
	Expired     atomic.Uint64 // held commands stopped by the deadman timeout
	Stops       atomic.Uint64 // pages that went away, hid or lost focus while driving
	AuthFails   atomic.Uint64 // requests without a valid token or from a foreign origin
}

// hub is the console's core: it owns the lease, the deadman and the
// per-page rate limits, validates page messages and calls the backend. It
// reads no clock: callers pass now. One mutex serialises everything, so
// backend calls happen in the order of decisions (a take-over's stop
// before the new holder's first command).
type hub struct {
	be      Backend
	info    Info
	log     *slog.Logger
	rate    float64 // messages per second per page
	burst   float64
	cnt     *Counters
	mu      sync.Mutex
	dm      deadman
	ls      lease
	pages   map[uint64]*bucket
	next    uint64
	targets [NumArmJoints]uint64        // page that set each running position target (0: none)
	maxVel  [NumServosilaJoints]float64 // [rad/s], the operator's maximum-velocity settings
	maxLin  float64                     // [m/s]
	maxAng  float64                     // [rad/s]
	scratch []group
}

func newHub(be Backend, timeout time.Duration, rate, burst float64, log *slog.Logger, cnt *Counters) *hub {
	h := &hub{be: be, info: be.Info(), log: log, rate: rate, burst: burst, cnt: cnt, pages: map[uint64]*bucket{}}
	h.dm.timeout = timeout
	h.maxVel = h.info.ServosilaMaxJoint
	h.maxLin, h.maxAng = h.info.ServosilaMaxLinear, h.info.ServosilaMaxAngular
	return h
}

// join registers a new page and returns its id and whether it controls.
func (h *hub) join() (uint64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.next++
	id := h.next
	h.pages[id] = &bucket{}
	return id, h.ls.join(id)
}

// leave stops what page drove and frees the lease if it held it.
func (h *hub) leave(ctx context.Context, id uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.pages, id)
	h.stopPage(ctx, id, "page closed")
	h.ls.leave(id)
}

// holder returns the page in control (0: none) and the number of pages.
func (h *hub) holder() (uint64, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ls.holder, len(h.pages)
}

// limits returns the operator's maximum velocities: linear [m/s],
// angular [rad/s], joints [rad/s].
func (h *hub) limits() (float64, float64, [NumServosilaJoints]float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.maxLin, h.maxAng, h.maxVel
}

// tick zeroes every held command older than the timeout at now.
func (h *hub) tick(ctx context.Context, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.scratch = h.dm.expired(now, h.scratch[:0])
	for _, g := range h.scratch {
		h.cnt.Expired.Add(1)
		h.log.Warn("console: command timed out, stopping", "group", groupNames[g])
		h.zero(ctx, g)
	}
}

// stopAll zeroes every held command (shutdown).
func (h *hub) stopAll(ctx context.Context) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.scratch = h.dm.release(0, h.scratch[:0])
	for _, g := range h.scratch {
		h.zero(ctx, g)
	}
}

// stopPage zeroes what page drives (every page if id is 0): its held
// commands and the position targets it set. Called with mu held.
func (h *hub) stopPage(ctx context.Context, id uint64, why string) {
	h.scratch = h.dm.release(id, h.scratch[:0])
	cancelled := 0
	for j, p := range h.targets {
		if p != 0 && (id == 0 || p == id) {
			h.targets[j] = 0
			cancelled++
			if err := h.be.ServosilaCancelTarget(ctx, j); err != nil {
				h.cnt.BackendErrs.Add(1)
				h.log.Error("console: cancel target failed", "joint", ServosilaJoints[j], "err", err)
			}
		}
	}
	if len(h.scratch) > 0 || cancelled > 0 {
		h.cnt.Stops.Add(1)
		h.log.Info("console: stopping what the page drove", "page", id, "why", why, "groups", len(h.scratch), "targets", cancelled)
	}
	for _, g := range h.scratch {
		h.zero(ctx, g)
	}
}

// zero sends the stop of group g. Called with mu held.
func (h *hub) zero(ctx context.Context, g group) {
	var err error
	switch g {
	case groupDrive:
		err = h.be.DriveServosila(ctx, 0, 0)
	case groupJoints:
		err = h.be.ServosilaJointVelocities(ctx, [NumServosilaJoints]float64{})
	case groupFurbot:
		err = h.be.DriveFurbot(ctx, 0, 0)
	case groupJog:
		err = h.be.JogStop(ctx)
	}
	if err != nil {
		h.cnt.BackendErrs.Add(1)
		h.log.Error("console: stop failed", "group", groupNames[g], "err", err)
	}
}

// handle processes one message of page id at now. The error is for the
// page (and has been counted and logged).
func (h *hub) handle(ctx context.Context, id uint64, raw []byte, now time.Time) error {
	err := h.dispatch(ctx, id, raw, now)
	switch {
	case err == nil:
	case errors.Is(err, ErrBadMessage):
		h.cnt.BadMessages.Add(1)
		h.log.Warn("console: refused a message", "page", id, "err", err)
	case errors.Is(err, ErrViewOnly):
		h.cnt.ViewOnly.Add(1)
		h.log.Warn("console: command from a view-only page", "page", id, "err", err)
	case errors.Is(err, errRateLimited):
		h.cnt.RateLimited.Add(1)
	default:
		h.cnt.BackendErrs.Add(1)
		h.log.Error("console: backend refused", "page", id, "err", err)
	}
	return err
}

var errRateLimited = errors.New("too many messages: slow down")

func (h *hub) dispatch(ctx context.Context, id uint64, raw []byte, now time.Time) error {
	m, err := parseMessage(raw)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	b := h.pages[id]
	if b == nil {
		return fmt.Errorf("console: page %d is not connected", id)
	}
	// Stops are never rate limited.
	if m.Type != MsgEStop && m.Type != MsgStop && m.Type != MsgJogStop && !b.allow(now, h.rate, h.burst) {
		return errRateLimited
	}
	// E-stop from every page, view-only included.
	switch m.Type {
	case MsgEStop:
		h.dm.release(0, nil)
		h.targets = [NumArmJoints]uint64{} // the e-stop cancels them
		h.log.Warn("console: emergency stop", "page", id)
		return h.be.EStop(ctx)
	case MsgStop:
		h.stopPage(ctx, id, "page hidden or blurred")
		return nil
	case MsgTake:
		prev := h.ls.take(id)
		if prev != id {
			// The machines stop before the new holder can move them.
			h.stopPage(ctx, 0, "control taken over")
			h.log.Info("console: control taken over", "page", id, "from", prev)
		}
		return nil
	}
	if h.ls.holder != id {
		return fmt.Errorf("%s: %w", m.Type, ErrViewOnly)
	}
	switch m.Type {
	case MsgLeave:
		h.stopPage(ctx, id, "control released")
		h.ls.leave(id)
		return nil
	case MsgRelease:
		return h.be.ReleaseEStop(ctx)
	case MsgDrive:
		if !h.info.Servosila {
			return fmt.Errorf("%w: no Servosila connected", ErrBadMessage)
		}
		lin, err := num("linear", m.Linear, h.maxLin)
		if err != nil {
			return err
		}
		ang, err := num("angular", m.Angular, h.maxAng)
		if err != nil {
			return err
		}
		if err := h.be.DriveServosila(ctx, lin, ang); err != nil {
			return fmt.Errorf("servosila drive: %w", err)
		}
		h.dm.drive(groupDrive, id, now, lin != 0 || ang != 0)
		return nil
	case MsgJoints:
		if !h.info.Servosila {
			return fmt.Errorf("%w: no Servosila connected", ErrBadMessage)
		}
		var v [NumServosilaJoints]float64
		nonzero := false
		for name, p := range m.Joints {
			j, err := servosilaJoint(name, false)
			if err != nil {
				return err
			}
			if v[j], err = num(name, p, h.maxVel[j]); err != nil {
				return err
			}
			nonzero = nonzero || v[j] != 0
		}
		if err := h.be.ServosilaJointVelocities(ctx, v); err != nil {
			return fmt.Errorf("servosila joints: %w", err)
		}
		h.dm.drive(groupJoints, id, now, nonzero)
		return nil
	case MsgTarget:
		j, err := servosilaJoint(m.Joint, true)
		if err != nil {
			return err
		}
		a, err := num(m.Joint, m.Value, -1)
		if err != nil {
			return err
		}
		if a < h.info.ServosilaLower[j] || a > h.info.ServosilaUpper[j] {
			return fmt.Errorf("%w: %s target %g rad outside [%g, %g]", ErrBadMessage, m.Joint, a, h.info.ServosilaLower[j], h.info.ServosilaUpper[j])
		}
		if err := h.be.ServosilaTarget(ctx, j, a); err != nil {
			return fmt.Errorf("servosila target: %w", err)
		}
		h.targets[j] = id
		return nil
	case MsgCancelTarget:
		j, err := servosilaJoint(m.Joint, true)
		if err != nil {
			return err
		}
		h.targets[j] = 0
		return h.be.ServosilaCancelTarget(ctx, j)
	case MsgHeadlight:
		if m.On == nil {
			return fmt.Errorf("%w: on: missing", ErrBadMessage)
		}
		return h.be.ServosilaHeadlight(ctx, *m.On)
	case MsgMaxVel:
		return h.setMax(m)
	case MsgFurbot:
		if !h.info.Furbot {
			return fmt.Errorf("%w: no Furbot connected", ErrBadMessage)
		}
		v, err := num("v", m.V, h.info.FurbotMaxSpeed)
		if err != nil {
			return err
		}
		w, err := num("w", m.W, h.info.FurbotMaxYawRate)
		if err != nil {
			return err
		}
		if err := h.be.DriveFurbot(ctx, v, w); err != nil {
			return fmt.Errorf("furbot drive: %w", err)
		}
		h.dm.drive(groupFurbot, id, now, v != 0 || w != 0)
		return nil
	case MsgJogJoint:
		n := len(h.info.JogJoints)
		if n == 0 {
			return fmt.Errorf("%w: no jog arm connected", ErrBadMessage)
		}
		if len(m.Values) != n {
			return fmt.Errorf("%w: values: %d, want %d", ErrBadMessage, len(m.Values), n)
		}
		mv := JogJointMove{Delta: m.Delta, Values: make([]float64, n)}
		var err error
		for i, p := range m.Values {
			if mv.Values[i], err = num(h.info.JogJoints[i], p, -1); err != nil {
				return err
			}
			if !m.Delta && (mv.Values[i] < h.info.JogLower[i] || mv.Values[i] > h.info.JogUpper[i]) {
				return fmt.Errorf("%w: %s goal %g outside [%g, %g]", ErrBadMessage, h.info.JogJoints[i], mv.Values[i], h.info.JogLower[i], h.info.JogUpper[i])
			}
		}
		if mv.Speed, err = speed(m.Speed); err != nil {
			return err
		}
		if err := h.be.JogJoint(ctx, mv); err != nil {
			return fmt.Errorf("jog joint: %w", err)
		}
		h.dm.drive(groupJog, id, now, true)
		return nil
	case MsgJogCartesian:
		if len(h.info.JogJoints) == 0 {
			return fmt.Errorf("%w: no jog arm connected", ErrBadMessage)
		}
		mv, err := cartesian(m, h.info.JogFrames)
		if err != nil {
			return err
		}
		if err := h.be.JogCartesian(ctx, mv); err != nil {
			return fmt.Errorf("jog cartesian: %w", err)
		}
		h.dm.drive(groupJog, id, now, true)
		return nil
	case MsgJogHeartbeat:
		if h.dm.g[groupJog].page != id {
			return nil // nothing of this page is moving: a late beat
		}
		if err := h.be.JogHeartbeat(ctx); err != nil {
			return fmt.Errorf("jog heartbeat: %w", err)
		}
		h.dm.drive(groupJog, id, now, true)
		return nil
	case MsgJogStop:
		h.dm.drive(groupJog, id, now, false)
		return h.be.JogStop(ctx)
	}
	return fmt.Errorf("%w: unknown type %q", ErrBadMessage, m.Type)
}

// setMax sets one maximum velocity, within the driver's limit. Called with
// mu held.
func (h *hub) setMax(m message) error {
	switch m.Joint {
	case "linear":
		v, err := num("linear", m.Value, h.info.ServosilaMaxLinear)
		if err != nil {
			return err
		}
		h.maxLin = math.Abs(v)
	case "angular":
		v, err := num("angular", m.Value, h.info.ServosilaMaxAngular)
		if err != nil {
			return err
		}
		h.maxAng = math.Abs(v)
	default:
		j, err := servosilaJoint(m.Joint, false)
		if err != nil {
			return err
		}
		v, err := num(m.Joint, m.Value, h.info.ServosilaMaxJoint[j])
		if err != nil {
			return err
		}
		h.maxVel[j] = math.Abs(v)
	}
	return nil
}

func cartesian(m message, frames []string) (JogCartesianMove, error) {
	mv := JogCartesianMove{Delta: m.Delta, Frame: m.Frame}
	if m.Pose == nil {
		return mv, fmt.Errorf("%w: pose: missing", ErrBadMessage)
	}
	known := m.Frame == ""
	for _, f := range frames {
		known = known || f == m.Frame
	}
	if !known {
		return mv, fmt.Errorf("%w: unknown frame %q", ErrBadMessage, m.Frame)
	}
	p := m.Pose
	var err error
	for _, f := range []struct {
		name string
		v    *float64
		dst  *float64
	}{{"x", p.X, &mv.Pose.X}, {"y", p.Y, &mv.Pose.Y}, {"z", p.Z, &mv.Pose.Z}, {"rz", p.RZ, &mv.Pose.RZ}, {"ry", p.RY, &mv.Pose.RY}, {"rx", p.RX, &mv.Pose.RX}} {
		if *f.dst, err = num(f.name, f.v, -1); err != nil {
			return mv, err
		}
	}
	if mv.Speed, err = speed(m.Speed); err != nil {
		return mv, err
	}
	return mv, nil
}
