package console

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// hubMessage handles the messages of no machine: e-stop, stop, lease and
// release. Called with mu held.
func (h *hub) hubMessage(ctx context.Context, id uint64, pg *pageState, m hubMessage, now time.Time) error {
	switch m.Type {
	case MsgEStop:
		// From every page, view-only included.
		return h.estop(ctx, id, now)
	case MsgStop:
		h.stopPage(ctx, id, now, "page hidden or blurred")
		return nil
	case MsgTake:
		return h.take(ctx, id, pg, now)
	}
	if h.ls.holder != id {
		return fmt.Errorf("%s: %w", m.Type, ErrViewOnly)
	}
	switch m.Type {
	case MsgLeave:
		h.stopPage(ctx, id, now, "control released")
		h.ls.leave(id)
		h.pending.page = 0
		h.event(now, id, event{Kind: "lease", Level: slog.LevelInfo, Msg: "control freed", Detail: "released by the page", Audit: true})
		return nil
	case MsgRelease:
		if !pg.roles.Has(access.RoleDrive) {
			return fmt.Errorf("releasing the e-stop needs the drive role; %s has %s: %w", pg.operator, pg.roles, ErrRole)
		}
		var b [8]byte
		_, _ = rand.Read(b[:])
		h.pending.page, h.pending.nonce, h.pending.at = id, hex.EncodeToString(b[:]), now
		msg, _ := json.Marshal(map[string]any{"type": "confirm_release", "nonce": h.pending.nonce, "timeout_ms": h.cfg.confirm.Milliseconds()})
		h.cfg.notify(id, msg)
		h.event(now, id, event{Kind: "release_asked", Level: slog.LevelInfo, Msg: "e-stop release asked, waiting for the page's confirmation", Audit: true})
		return nil
	case MsgReleaseConfirm:
		if !pg.roles.Has(access.RoleDrive) {
			return fmt.Errorf("releasing the e-stop needs the drive role; %s has %s: %w", pg.operator, pg.roles, ErrRole)
		}
		p := h.pending
		h.pending.page = 0
		if p.page != id || m.Nonce == "" || m.Nonce != p.nonce {
			return fmt.Errorf("%w: no e-stop release of this page waits for a confirmation: press Release e-stop first", ErrBadMessage)
		}
		if now.Sub(p.at) > h.cfg.confirm {
			return fmt.Errorf("%w: the release confirmation came after %v: press Release e-stop again", ErrBadMessage, h.cfg.confirm)
		}
		h.latched = false
		h.event(now, id, event{Kind: "release", Level: slog.LevelWarn, Msg: "e-stop released", Audit: true})
		return h.be.ReleaseEStop(ctx)
	}
	return fmt.Errorf("%w: unknown type %q", ErrBadMessage, m.Type)
}

// estop latches the e-stop of every machine. While the latch is set,
// repeated e-stops reach the backend at most every estopRepeat (a flood
// of them is not a flood of packets). Called with mu held.
func (h *hub) estop(ctx context.Context, id uint64, now time.Time) error {
	h.dm.release(0, nil) // the backend's e-stop zeroes every axis
	for i := range h.slots {
		h.slots[i].p.EStopped()
	}
	h.pending.page = 0
	if h.latched && now.Sub(h.lastES) < h.cfg.estopRepeat {
		h.cnt.EStopsHeld.Add(1)
		h.event(now, id, event{Kind: "estop", Level: slog.LevelWarn, Msg: "emergency stop (latched already)", Audit: true})
		return nil
	}
	h.latched, h.lastES = true, now
	h.cnt.EStopsSent.Add(1)
	h.event(now, id, event{Kind: "estop", Level: slog.LevelWarn, Msg: "emergency stop", Audit: true})
	return h.be.EStop(ctx)
}

// take gives page id control: any page with a moving role when nobody
// holds it, an admin's page from another page. The machines stop first;
// the page that loses control is told; a latched e-stop stays latched.
// Called with mu held.
func (h *hub) take(ctx context.Context, id uint64, pg *pageState, now time.Time) error {
	if !pg.roles.Has(access.RoleDrive) && !pg.roles.Has(access.RoleArm) {
		return fmt.Errorf("taking control needs the drive or arm role; %s has %s: %w", pg.operator, pg.roles, ErrRole)
	}
	prev := h.ls.holder
	if prev == id {
		return nil
	}
	if prev != 0 && !pg.roles.Has(access.RoleAdmin) {
		return fmt.Errorf("page %d (%s) controls; only an admin takes over: %w", prev, h.operator(prev), ErrRole)
	}
	h.ls.take(id)
	h.pending.page = 0
	// The machines stop before the new holder can move them.
	h.stopPage(ctx, 0, now, "control taken over")
	detail := "nobody held it"
	if prev != 0 {
		detail = fmt.Sprintf("from page %d (%s)", prev, h.operator(prev))
		msg, _ := json.Marshal(map[string]any{"type": "lost_control", "page": id, "operator": pg.operator, "estop_latched": h.latched})
		h.cfg.notify(prev, msg)
	}
	h.event(now, id, event{Kind: "lease", Level: slog.LevelInfo, Msg: "control taken", Detail: detail, Audit: true})
	return nil
}
