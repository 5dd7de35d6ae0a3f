package console

import (
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// Default caps of open WebSockets (pages): Config.MaxPagesPerOperator and
// Config.MaxPagesPerSource. Each page costs the console a reader, a
// writer and a pinger, its state updates (10 a second) and its pings; a
// thousand of them cost it about 55 MB and half a core, taken from the
// operator's command path. An operator rarely has more than a few tabs
// (the drive page, the 3-D view, a spare); a control room behind one NAT
// address shares one source.
const (
	DefaultMaxPagesPerOperator = 32
	DefaultMaxPagesPerSource   = 16
)

// pageCaps counts the open WebSockets per operator and per source.
type pageCaps struct {
	perOperator, perSource int
	mu                     sync.Mutex
	operators, sources     map[string]int
}

func newPageCaps(perOperator, perSource int) *pageCaps {
	return &pageCaps{perOperator: perOperator, perSource: perSource, operators: map[string]int{}, sources: map[string]int{}}
}

// acquire counts one more page of operator from source and returns its
// release, or the reason it is refused (a cap reached; nothing counted).
func (c *pageCaps) acquire(operator, source string) (func(), error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.operators[operator]; n >= c.perOperator {
		return nil, fmt.Errorf("operator %q has %d pages open, the most allowed (MaxPagesPerOperator, --max-pages-per-operator): close one", operator, n)
	}
	if n := c.sources[source]; n >= c.perSource {
		return nil, fmt.Errorf("%d pages are open from %s, the most allowed (MaxPagesPerSource, --max-pages-per-source): close one", n, source)
	}
	c.operators[operator]++
	c.sources[source]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.operators[operator]--; c.operators[operator] <= 0 {
				delete(c.operators, operator)
			}
			if c.sources[source]--; c.sources[source] <= 0 {
				delete(c.sources, source)
			}
		})
	}, nil
}

// admitPage counts a new WebSocket of who against the caps; a page over
// a cap is refused with 429 Too Many Requests (before the upgrade) and a
// journal line. The release must be called when the page has gone.
func (s *Server) admitPage(w http.ResponseWriter, who access.Identity) (release func(), ok bool) {
	release, err := s.caps.acquire(who.Operator, who.Source)
	if err != nil {
		s.cnt.PagesRefused.Add(1)
		s.journal.Record(s.cfg.Clock.Now(), event{Kind: "page_refused", Level: slog.LevelWarn, Msg: "websocket refused: too many pages", Source: who.Source,
			Operator: who.Operator, Roles: who.Roles, Detail: err.Error(), Audit: true})
		http.Error(w, "console: "+err.Error(), http.StatusTooManyRequests)
		return nil, false
	}
	return release, true
}
