package console

import (
	"context"
	"fmt"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// MsgFurbot is the Furbot's held command (the deadman applies): v [m/s],
// w [rad/s].
const MsgFurbot = "furbot_drive"

type furbotMessage struct {
	Type string   `json:"type"`
	V    *float64 `json:"v"`
	W    *float64 `json:"w"`
	Seq  uint64   `json:"seq"` // checked by the hub (messageType)
}

// furbotPanel drives a Furbot with a Twist (RoleDrive). The bridge's
// speed controller has no start speed: a small Twist is executed as
// small, or not at all (steering below the bridge's steering speeds),
// never faster, so nothing is refused for being slow.
type furbotPanel struct {
	be   Backend
	info Info
}

func newFurbotPanel(be Backend, info Info) panel { return &furbotPanel{be: be, info: info} }

func (p *furbotPanel) Name() string            { return "furbot" }
func (p *furbotPanel) Types() []string         { return []string{MsgFurbot} }
func (p *furbotPanel) Groups() []string        { return []string{"furbot"} }
func (p *furbotPanel) State(func(string, any)) {}
func (p *furbotPanel) EStopped()               {}
func (p *furbotPanel) StopPage(context.Context, uint64) (int, error) {
	return 0, nil
}
func (p *furbotPanel) Zero(ctx context.Context, _ int) error { return p.be.DriveFurbot(ctx, 0, 0) }

func (p *furbotPanel) Handle(ctx context.Context, c *call, _ string, raw []byte) error {
	var m furbotMessage
	if err := decode(raw, &m); err != nil {
		return err
	}
	if !p.info.Furbot {
		return fmt.Errorf("%w: no Furbot connected", ErrBadMessage)
	}
	v, err := num("v", m.V, p.info.FurbotMaxSpeed)
	if err != nil {
		return err
	}
	w, err := num("w", m.W, p.info.FurbotMaxYawRate)
	if err != nil {
		return err
	}
	if v != 0 || w != 0 {
		if err := c.Need(access.RoleDrive, "driving the Furbot"); err != nil {
			return err
		}
	}
	if err := p.be.DriveFurbot(ctx, v, w); err != nil {
		return fmt.Errorf("furbot drive: %w", err)
	}
	c.Hold(0, v != 0 || w != 0)
	return nil
}
