package console

import (
	"context"
	"fmt"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// Jog arm message types. Held commands (the deadman applies) are marked *.
const (
	MsgJogJoint     = "jog_joint"     // * delta, values, speed
	MsgJogCartesian = "jog_cartesian" // * delta, pose, frame, speed
	MsgJogHeartbeat = "jog_heartbeat" // keeps the jog move (and its deadman) alive
	MsgJogStop      = "jog_stop"
)

type jogMessage struct {
	Type   string     `json:"type"`
	Delta  bool       `json:"delta"`
	Values []*float64 `json:"values"`
	Pose   *pose      `json:"pose"`
	Frame  string     `json:"frame"`
	Speed  *float64   `json:"speed"`
	Seq    uint64     `json:"seq"` // checked by the hub (messageType)
}

type pose struct {
	X, Y, Z, RZ, RY, RX *float64
}

// jogPanel drives the jog arm (RoleArm). The jog controller scales its
// maximum velocities by the speed override and has no minimum speed: a
// slow jog is executed slow, so nothing is refused for being slow.
type jogPanel struct {
	be   Backend
	info Info
}

func newJogPanel(be Backend, info Info) panel { return &jogPanel{be: be, info: info} }

func (p *jogPanel) Name() string { return "jog" }
func (p *jogPanel) Types() []string {
	return []string{MsgJogJoint, MsgJogCartesian, MsgJogHeartbeat, MsgJogStop}
}
func (p *jogPanel) Groups() []string                              { return []string{"jog"} }
func (p *jogPanel) State(func(string, any))                       {}
func (p *jogPanel) EStopped()                                     {}
func (p *jogPanel) StopPage(context.Context, uint64) (int, error) { return 0, nil }
func (p *jogPanel) Zero(ctx context.Context, _ int) error         { return p.be.JogStop(ctx) }

func (p *jogPanel) Handle(ctx context.Context, c *call, typ string, raw []byte) error {
	var m jogMessage
	if err := decode(raw, &m); err != nil {
		return err
	}
	switch typ {
	case MsgJogStop:
		c.Hold(0, false)
		return p.be.JogStop(ctx)
	case MsgJogHeartbeat:
		if !c.Drives(0) {
			return nil // nothing of this page is moving: a late beat
		}
		if err := p.be.JogHeartbeat(ctx); err != nil {
			return fmt.Errorf("jog heartbeat: %w", err)
		}
		c.Hold(0, true)
		return nil
	}
	n := len(p.info.JogJoints)
	if n == 0 {
		return fmt.Errorf("%w: no jog arm connected", ErrBadMessage)
	}
	switch typ {
	case MsgJogJoint:
		if len(m.Values) != n {
			return fmt.Errorf("%w: values: %d, want %d", ErrBadMessage, len(m.Values), n)
		}
		mv := JogJointMove{Delta: m.Delta, Values: make([]float64, n)}
		var err error
		for i, q := range m.Values {
			if mv.Values[i], err = num(p.info.JogJoints[i], q, -1); err != nil {
				return err
			}
			if !m.Delta && (mv.Values[i] < p.info.JogLower[i] || mv.Values[i] > p.info.JogUpper[i]) {
				return fmt.Errorf("%w: %s goal %g outside [%g, %g]", ErrBadMessage, p.info.JogJoints[i], mv.Values[i], p.info.JogLower[i], p.info.JogUpper[i])
			}
		}
		if mv.Speed, err = speed(m.Speed); err != nil {
			return err
		}
		if err := c.Need(access.RoleArm, "jogging the arm"); err != nil {
			return err
		}
		if err := p.be.JogJoint(ctx, mv); err != nil {
			return fmt.Errorf("jog joint: %w", err)
		}
	case MsgJogCartesian:
		mv, err := cartesian(m, p.info.JogFrames)
		if err != nil {
			return err
		}
		if err := c.Need(access.RoleArm, "jogging the arm"); err != nil {
			return err
		}
		if err := p.be.JogCartesian(ctx, mv); err != nil {
			return fmt.Errorf("jog cartesian: %w", err)
		}
	}
	c.Hold(0, true)
	return nil
}

func cartesian(m jogMessage, frames []string) (JogCartesianMove, error) {
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
	q := m.Pose
	var err error
	for _, f := range []struct {
		name string
		v    *float64
		dst  *float64
	}{{"x", q.X, &mv.Pose.X}, {"y", q.Y, &mv.Pose.Y}, {"z", q.Z, &mv.Pose.Z}, {"rz", q.RZ, &mv.Pose.RZ}, {"ry", q.RY, &mv.Pose.RY}, {"rx", q.RX, &mv.Pose.RX}} {
		if *f.dst, err = num(f.name, f.v, -1); err != nil {
			return mv, err
		}
	}
	if mv.Speed, err = speed(m.Speed); err != nil {
		return mv, err
	}
	return mv, nil
}
