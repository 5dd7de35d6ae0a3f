package console

import (
	"context"
	"fmt"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// joyPanel passes the page's gamepad on to a JoyBackend (MsgJoy). It has
// no view of its own: the page sends the pad with the machine it drives.
type joyPanel struct {
	be   JoyBackend // nil: the backend publishes no Joy
	info Info
	last Joy // the latest published, for Zero's neutral one
	held bool
}

func newJoyPanel(be Backend, info Info) panel {
	p := &joyPanel{info: info}
	if jb, ok := be.(JoyBackend); ok && info.Joy {
		p.be = jb
	}
	return p
}

func (p *joyPanel) Name() string                                  { return "joy" }
func (p *joyPanel) Types() []string                               { return []string{MsgJoy} }
func (p *joyPanel) Groups() []string                              { return []string{"joy"} }
func (p *joyPanel) State(func(string, any))                       {}
func (p *joyPanel) StopPage(context.Context, uint64) (int, error) { return 0, nil }

// EStopped publishes a neutral Joy: the backend's e-stop zeroes the
// machines, not what a joystick consumer last saw.
func (p *joyPanel) EStopped() {
	if p.held {
		_ = p.Zero(context.Background(), 0) // a topic publish, not a service call: it does not block
	}
}

// Zero publishes a neutral Joy for the machine of the last one.
func (p *joyPanel) Zero(ctx context.Context, _ int) error {
	if p.be == nil || p.last.Machine == "" {
		return nil
	}
	p.held = false
	p.last = Joy{Machine: p.last.Machine}
	if err := p.be.PublishJoy(ctx, p.last); err != nil {
		return fmt.Errorf("joy: %w", err)
	}
	return nil
}

func (p *joyPanel) Handle(ctx context.Context, c *call, _ string, raw []byte) error {
	var m joyMessage
	if err := decode(raw, &m); err != nil {
		return err
	}
	if p.be == nil {
		return fmt.Errorf("%w: this console publishes no joystick", ErrBadMessage)
	}
	switch {
	case m.Machine == "servosila" && p.info.Servosila, m.Machine == "furbot" && p.info.Furbot:
	default:
		return fmt.Errorf("%w: joy: no machine %q connected", ErrBadMessage, m.Machine)
	}
	j, err := JoyFromPad(m.Machine, m.Axes, m.Buttons)
	if err != nil {
		return err
	}
	moving := !j.Neutral()
	if moving {
		if err := c.Need(access.RoleDrive, "a joystick"); err != nil {
			return err
		}
	}
	// The pad moved to another machine: the previous one's consumer sees
	// it released first.
	if p.last.Machine != "" && p.last.Machine != j.Machine && p.held {
		if err := p.Zero(ctx, 0); err != nil {
			return err
		}
	}
	if err := p.be.PublishJoy(ctx, j); err != nil {
		return fmt.Errorf("joy: %w", err)
	}
	p.last, p.held = j, moving
	c.Hold(0, moving)
	return nil
}
