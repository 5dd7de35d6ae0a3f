package console

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

//go:embed assets
var assets embed.FS

// Config configures a Server. Zero fields take the stated defaults.
type Config struct {
	// Backend is what the console drives (required).
	Backend Backend
	// Listen is the TCP address to serve on. Default "127.0.0.1:8080".
	Listen string
	// Token is the access token. Off loopback it is required: empty makes
	// New generate one (see Server.Token). On loopback it is optional.
	Token string
	// CommandTimeout is how long a held command from a page stays valid
	// without being re-sent; then its axes go to zero. Default 300 ms.
	CommandTimeout time.Duration
	// TickPeriod is how often held commands are checked for expiry, so a
	// silent page stops within CommandTimeout + TickPeriod. Default 20 ms.
	TickPeriod time.Duration
	// StateRate is the rate of state updates to each page [Hz]. Default 10.
	StateRate float64
	// RateLimit is the messages per second a page may send, Burst the
	// burst above it; stops and e-stops are never limited. Defaults 60
	// and 60.
	RateLimit, Burst float64
	// Clock is the time source of deadman, lease and rate limits. Default
	// the wall clock.
	Clock Clock
	// Logger receives refusals, stops and take-overs. Default
	// slog.Default().
	Logger *slog.Logger
}

// Server is the operator console: an HTTP server for the page, its
// assets, one WebSocket per page and the camera streams. Create it with
// New and run it with Serve or ListenAndServe.
type Server struct {
	cfg   Config
	hub   *hub
	auth  *auth
	cnt   Counters
	mux   *http.ServeMux
	mu    sync.Mutex
	conns map[uint64]*conn
	drops atomic.Uint64
	wake  chan struct{} // a page connected: run the loop
}

// conn is one page's WebSocket. Only its writer goroutine writes to ws.
type conn struct {
	id  uint64
	out chan []byte
}

// New validates cfg and returns a Server.
func New(cfg Config) (*Server, error) {
	if cfg.Backend == nil {
		return nil, errors.New("console: no backend")
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:8080"
	}
	if _, _, err := net.SplitHostPort(cfg.Listen); err != nil {
		return nil, fmt.Errorf("console: listen address %q: %w", cfg.Listen, err)
	}
	if cfg.Token == "" && !IsLoopback(cfg.Listen) {
		t, err := NewToken()
		if err != nil {
			return nil, err
		}
		cfg.Token = t
	}
	if cfg.CommandTimeout == 0 {
		cfg.CommandTimeout = 300 * time.Millisecond
	}
	if cfg.TickPeriod == 0 {
		cfg.TickPeriod = 20 * time.Millisecond
	}
	if cfg.StateRate == 0 {
		cfg.StateRate = 10
	}
	if cfg.RateLimit == 0 {
		cfg.RateLimit = 60
	}
	if cfg.Burst == 0 {
		cfg.Burst = 60
	}
	if cfg.CommandTimeout < 0 || cfg.TickPeriod < 0 || !(cfg.StateRate > 0 && cfg.StateRate <= 100) || !(cfg.RateLimit > 0) || !(cfg.Burst >= 1) {
		return nil, fmt.Errorf("console: bad timing configuration (timeout %v, tick %v, state rate %g Hz, rate limit %g/s, burst %g)",
			cfg.CommandTimeout, cfg.TickPeriod, cfg.StateRate, cfg.RateLimit, cfg.Burst)
	}
	if cfg.Clock == nil {
		cfg.Clock = wallClock{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{cfg: cfg, conns: map[uint64]*conn{}, wake: make(chan struct{}, 1)}
	s.hub = newHub(cfg.Backend, cfg.CommandTimeout, cfg.RateLimit, cfg.Burst, cfg.Logger, &s.cnt)
	s.auth = &auth{token: cfg.Token, cnt: &s.cnt}
	static, _ := fs.Sub(assets, "assets")
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /ws", s.serveWS)
	mux.HandleFunc("GET /camera/{name}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		cfg.Backend.ServeCamera(r.PathValue("name"), w, r)
	})
	s.mux = mux
	return s, nil
}

// Token returns the access token in force ("" on loopback without one).
func (s *Server) Token() string { return s.cfg.Token }

// Counters returns the server's counters.
func (s *Server) Counters() *Counters { return &s.cnt }

// Handler returns the console's HTTP handler (authentication included).
func (s *Server) Handler() http.Handler {
	return s.auth.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The page is a control surface: no framing by other sites.
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; frame-ancestors 'none'")
		s.mux.ServeHTTP(w, r)
	}))
}

// URL returns the address to open for a listener at addr, with the token
// if there is one. A listener on every interface (0.0.0.0, ::) is given
// as 127.0.0.1, which opens on this machine (other devices use one of its
// addresses with the same port).
func (s *Server) URL(addr net.Addr) string {
	host := addr.String()
	if t, ok := addr.(*net.TCPAddr); ok && t.IP.IsUnspecified() {
		host = net.JoinHostPort("127.0.0.1", strconv.Itoa(t.Port))
	}
	u := "http://" + host + "/"
	if s.cfg.Token != "" {
		u += "?token=" + s.cfg.Token
	}
	return u
}

// ListenAndServe listens on Config.Listen, calls ready with the URL to
// open, and serves until ctx is cancelled (see Serve).
func (s *Server) ListenAndServe(ctx context.Context, ready func(url string)) error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("console: listen: %w", err)
	}
	if ready != nil {
		ready(s.URL(ln.Addr()))
	}
	return s.Serve(ctx, ln)
}

// Serve serves on ln until ctx is cancelled; it then stops every held
// command, closes the pages and returns nil (or the error that ended it).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.loop(ctx) }()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
		cancel()
	}
	// The machines stop first, then the pages go.
	s.hub.stopAll(context.WithoutCancel(ctx))
	sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer scancel()
	_ = hs.Shutdown(sctx)
	wg.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// loop runs the deadman tick and the state broadcast while pages are
// connected; with none it sleeps (a page leaving has stopped what it
// drove, so nothing can expire).
func (s *Server) loop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		s.run(ctx)
	}
}

func (s *Server) run(ctx context.Context) {
	dead := time.NewTicker(s.cfg.TickPeriod)
	defer dead.Stop()
	state := time.NewTicker(time.Duration(float64(time.Second) / s.cfg.StateRate))
	defer state.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-dead.C:
			s.hub.tick(ctx, s.cfg.Clock.Now())
		case <-state.C:
			if !s.broadcast(ctx) {
				// Last tick after the last page left: expire anything
				// still held, then sleep.
				s.hub.tick(ctx, s.cfg.Clock.Now())
				if _, n := s.hub.holder(); n == 0 {
					return
				}
			}
		}
	}
}

// stateMsg is the state update every page gets.
type stateMsg struct {
	Type     string      `json:"type"`
	Holder   uint64      `json:"holder"`
	Pages    int         `json:"pages"`
	Limits   limitsMsg   `json:"limits"`
	Counters countersMsg `json:"counters"`
	Snap     Snapshot    `json:"snap"`
	Error    string      `json:"error,omitempty"`
}

type limitsMsg struct {
	Linear  float64                     `json:"linear"`
	Angular float64                     `json:"angular"`
	Joints  [NumServosilaJoints]float64 `json:"joints"`
}

type countersMsg struct {
	BadMessages, ViewOnly, RateLimited, BackendErrs, Expired, Stops, AuthFails, Drops uint64
}

// broadcast sends the state to every page and reports whether there was
// one.
func (s *Server) broadcast(ctx context.Context) bool {
	s.mu.Lock()
	n := len(s.conns)
	s.mu.Unlock()
	if n == 0 {
		return false // nobody watches: no snapshot, no work
	}
	m := stateMsg{Type: "state"}
	m.Holder, m.Pages = s.hub.holder()
	m.Limits.Linear, m.Limits.Angular, m.Limits.Joints = s.hub.limits()
	c := &s.cnt
	m.Counters = countersMsg{c.BadMessages.Load(), c.ViewOnly.Load(), c.RateLimited.Load(), c.BackendErrs.Load(), c.Expired.Load(), c.Stops.Load(), c.AuthFails.Load(), s.drops.Load()}
	snap, err := s.cfg.Backend.Snapshot(ctx)
	if err != nil {
		m.Error = err.Error()
	}
	m.Snap = snap
	b, err := json.Marshal(&m)
	if err != nil {
		s.cfg.Logger.Error("console: state", "err", err)
		return true
	}
	s.mu.Lock()
	for _, c := range s.conns {
		s.send(c, b)
	}
	s.mu.Unlock()
	return true
}

// send queues b for c; a page that does not keep up loses state updates
// (counted), never blocks the console.
func (s *Server) send(c *conn, b []byte) {
	select {
	case c.out <- b:
	default:
		s.drops.Add(1)
	}
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	// Accept checks that Origin names this host: another web site's page
	// cannot open the socket.
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		s.cnt.AuthFails.Add(1)
		s.cfg.Logger.Warn("console: websocket refused", "err", err, "origin", r.Header.Get("Origin"))
		return
	}
	ws.SetReadLimit(MaxMessage)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	id, control := s.hub.join()
	c := &conn{id: id, out: make(chan []byte, 8)}
	s.mu.Lock()
	s.conns[id] = c
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default: // the loop runs already
	}
	s.cfg.Logger.Info("console: page connected", "page", id, "control", control, "remote", r.RemoteAddr)
	defer func() {
		s.mu.Lock()
		delete(s.conns, id)
		s.mu.Unlock()
		s.hub.leave(context.WithoutCancel(ctx), id)
		s.cfg.Logger.Info("console: page gone", "page", id)
		ws.CloseNow()
	}()
	hello, _ := json.Marshal(map[string]any{"type": "hello", "page": id, "info": s.hub.info, "timeout_ms": s.cfg.CommandTimeout.Milliseconds()})
	c.out <- hello
	go func() {
		// The writer: the only goroutine that writes to ws.
		for {
			select {
			case <-ctx.Done():
				return
			case b := <-c.out:
				wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
				err := ws.Write(wctx, websocket.MessageText, b)
				wcancel()
				if err != nil {
					cancel()
					return
				}
			}
		}
	}()
	for {
		typ, b, err := ws.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			s.reply(c, fmt.Errorf("%w: binary message", ErrBadMessage))
			s.cnt.BadMessages.Add(1)
			continue
		}
		if err := s.hub.handle(ctx, id, b, s.cfg.Clock.Now()); err != nil {
			s.reply(c, err)
		}
	}
}

func (s *Server) reply(c *conn, err error) {
	b, _ := json.Marshal(map[string]string{"type": "error", "error": err.Error()})
	s.send(c, b)
}
