package console

import (
	"context"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// panel is one machine's part of the console server: its message types,
// their validation and its backend calls. The hub owns everything shared
// (lease, deadman, roles, rate limit, e-stop, fan-out, audit) and hands a
// panel only the messages of its types from the page in control. A panel's
// methods are called with the hub's lock held, one at a time.
type panel interface {
	// Name names the panel in logs ("servosila").
	Name() string
	// Types are the message types the panel handles.
	Types() []string
	// Groups name the panel's groups of held axes, each with its own
	// deadman (call.Hold); Zero stops one.
	Groups() []string
	// Handle validates and executes one message of page c.Page, which
	// holds control. raw is the whole message (decode it with decode).
	Handle(ctx context.Context, c *call, typ string, raw []byte) error
	// Zero stops group g (an index into Groups): its deadman expired or
	// its page went.
	Zero(ctx context.Context, g int) error
	// StopPage ends what page set that is not a held command (the
	// Servosila's position targets), every page's if page is 0, and
	// returns how many things it stopped.
	StopPage(ctx context.Context, page uint64) (int, error)
	// EStopped tells the panel that the backend's e-stop ended everything
	// (no backend call needed).
	EStopped()
	// State adds the panel's entries to every state update of the pages
	// (e.g. the operator's maximum velocities as "limits").
	State(add func(key string, v any))
}

// panels are the machines' panels, one registration line each.
var panels = []func(Backend, Info) panel{
	newServosilaPanel,
	newFurbotPanel,
	newJogPanel,
	newBalancePanel,
	newJoyPanel,
}

// call is the context of one message handed to a panel: which page sent
// it, when, and with which operator's roles.
type call struct {
	Page     uint64
	Now      time.Time
	Operator string
	Roles    access.Role
	h        *hub
	first    int // the panel's first deadman group
}

// Need refuses with ErrRole unless the operator has role r for what.
func (c *call) Need(r access.Role, what string) error {
	if c.Roles.Has(r) {
		return nil
	}
	return fmt.Errorf("%s needs the %s role; %s has %s: %w", what, r, c.Operator, c.Roles, ErrRole)
}

// Hold records a command of the panel's group g from this page: a
// non-zero one starts its deadman, a zero one leaves it idle.
func (c *call) Hold(g int, nonzero bool) {
	if gap := c.h.dm.drive(c.first+g, c.Page, c.Now, nonzero); gap > 0 {
		c.h.link.arrived(gap, c.Now)
	}
}

// Drives reports whether this page's command holds group g.
func (c *call) Drives(g int) bool { return c.h.dm.driver(c.first+g) == c.Page }
