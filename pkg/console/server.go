package console

import (
	"crypto/tls"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/telebridge/telebridge/pkg/console/access"
	"github.com/telebridge/telebridge/pkg/console/static"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

//go:embed assets
var assets embed.FS

// Config configures a Server. Zero fields take the stated defaults.
type Config struct {
	// Backend is what the console drives (required).
	Backend Backend
	// Listen is the TCP address to serve on. Default "127.0.0.1:8080".
	Listen string
	// Token is a single access token whose operator ("operator") has
	// every role. Off loopback a token or Operators is required: with
	// neither, New generates a token (see Server.Token). Only tokens made
	// by access.NewToken (`telebridge token new`) are accepted
	// (access.CheckToken).
	Token string
	// Operators are the people allowed in, each with a token and roles
	// (access.LoadOperators reads them from a tokens file). With Token, both
	// apply.
	Operators []access.Operator
	// TLS serves HTTPS with this configuration (access.LoadTLS). Off loopback it
	// is required unless Insecure is set.
	TLS *tls.Config
	// Insecure allows plain HTTP off loopback.
	Insecure bool
	// Audit receives the audit log (JSON lines: lease changes, e-stops,
	// releases, refused commands, logins); nil: none.
	Audit io.Writer
	// LogInterval is the interval of the log's bound on noisy kinds of
	// event (refusals, errors): per source, operator and kind one line
	// per interval, the rest merged into a line with their count and
	// first and last times (access.Journal). Default 10 s.
	LogInterval time.Duration
	// CommandTimeout is how long a held command from a page stays valid
	// without being re-sent; then its axes go to zero. Default 300 ms.
	CommandTimeout time.Duration
	// TickPeriod is how often held commands are checked for expiry, so a
	// silent page stops within CommandTimeout + TickPeriod. Default 20 ms.
	TickPeriod time.Duration
	// PingPeriod is how often each page's WebSocket is pinged, and
	// PongTimeout how long the pong may take: a page that does not answer
	// (frozen, its TCP connection up) is closed and loses control within
	// PingPeriod + PongTimeout. Defaults 500 ms and 1 s.
	PingPeriod, PongTimeout time.Duration
	// BeatTimeout is how long a page that sends beats (the console's own
	// pages: MsgBeat every BeatPeriod from their script) may send nothing
	// before it is taken as frozen, closed, and loses control, although
	// its pongs come (a browser's network process answers them for a page
	// that no longer runs). Longer than PingPeriod + PongTimeout so that
	// a page starved of CPU for a moment keeps control; its motion stops
	// by the deadman meanwhile. A hidden page is exempt (its timers are
	// slowed; it has stopped what it drove). Default 3 s.
	BeatTimeout time.Duration
	// LinkTimeout is how long a page whose TCP connection has bytes in
	// flight that nothing acknowledges (the link is down, as in a Wi-Fi
	// dropout, rather than the page frozen: a frozen page's system still
	// acknowledges) keeps its socket, its lease and its WebRTC session
	// while its pongs are late, counted from the last acknowledgement;
	// the deadman stops its held commands meanwhile. Linux only (TCP_INFO);
	// elsewhere a late pong closes the page as above. Default 5 s.
	LinkTimeout time.Duration
	// ConfirmTimeout is how long a page has to confirm a release of the
	// e-stop. Default 10 s.
	ConfirmTimeout time.Duration
	// StateRate is the rate of state updates to each page [Hz]. Default 10.
	StateRate float64
	// BalanceThreshold is the Servosila's static stability margin [m]
	// below which the page warns (pkg/balance); default
	// DefaultBalanceThreshold. BalanceRate is how often the balance is
	// computed from the live joints [Hz], default DefaultBalanceRate.
	BalanceThreshold, BalanceRate float64
	// RateLimit is the messages per second a page may send, Burst the
	// burst above it; stops and e-stops are never limited. Defaults 60
	// and 60.
	RateLimit, Burst float64
	// Clock is the time source of deadman, lease, rate limits and log
	// limits. Default the wall clock.
	Clock Clock
	// Logger receives refusals, stops and take-overs. Default
	// slog.Default().
	Logger *slog.Logger
	// WebRTC configures the cameras' video over WebRTC for a Backend that
	// implements Video (its Open is the backend's OpenVideo): ICE servers,
	// peer limits, bitrates. Zero fields take pkg/video/peer's defaults.
	WebRTC peer.Config
	// NoWebRTC, when not empty, turns WebRTC off; it is the reason the
	// page shows with its MJPEG fallback.
	NoWebRTC string
	// MaxPagesPerOperator and MaxPagesPerSource cap the WebSockets (open
	// pages) of one operator and from one source address; a page over
	// either is refused with 429 Too Many Requests and a journal line.
	// Defaults DefaultMaxPagesPerOperator and DefaultMaxPagesPerSource.
	MaxPagesPerOperator, MaxPagesPerSource int
}

// Server is the operator console: an HTTP server for the page, its
// assets, one WebSocket per page and the camera streams. Create it with
// New and run it with Serve or ListenAndServe.
type Server struct {
	cfg      Config
	hub      *hub
	gate     *access.Gate
	journal  *access.Journal
	cnt      Counters
	mux      *http.ServeMux
	mu       sync.Mutex
	conns    map[uint64]*conn
	states   statePatcher // the broadcast's alone
	drops    atomic.Uint64
	wake     chan struct{} // a page connected: run the loop
	closing  chan struct{} // closed when Serve stops: pages get a close frame
	once     sync.Once
	wsWG     sync.WaitGroup
	peers    *peer.Server // WebRTC; nil when off
	videoOff string       // why WebRTC is off ("" when on)
	caps     *pageCaps    // open pages per operator and per source
}

// conn is one page's WebSocket. Only its writer goroutine writes
// messages to ws (pings and the close frame are control frames, which
// the library interleaves).
type conn struct {
	id       uint64
	out      chan []byte
	sig      chan []byte // WebRTC signalling, never dropped for state updates
	needFull bool        // the page's next state update is the whole state (guarded by Server.mu)
	video    *pageVideo  // the page's WebRTC session
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
	loopback := access.IsLoopback(cfg.Listen)
	if !loopback && cfg.TLS == nil && !cfg.Insecure {
		return nil, fmt.Errorf("console: listening on %s (not loopback) needs TLS (--tls or --cert/--key); plain HTTP only with --insecure", cfg.Listen)
	}
	if cfg.Token != "" {
		if err := access.CheckToken(cfg.Token); err != nil {
			return nil, err
		}
	}
	for _, o := range cfg.Operators {
		if err := access.CheckToken(o.Token); err != nil {
			return nil, fmt.Errorf("console: operator %q: %w", o.Name, err)
		}
		if o.Roles == 0 {
			return nil, fmt.Errorf("console: operator %q has no role", o.Name)
		}
	}
	if cfg.Token == "" && len(cfg.Operators) == 0 && !loopback {
		t, err := access.NewToken()
		if err != nil {
			return nil, err
		}
		cfg.Token = t
	}
	ops := slices.Clone(cfg.Operators)
	if cfg.Token != "" {
		ops = append(ops, access.Operator{Name: "operator", Token: cfg.Token, Roles: access.RoleAdmin | access.RoleDrive | access.RoleArm | access.RoleView})
	}
	if cfg.CommandTimeout == 0 {
		cfg.CommandTimeout = DefaultCommandTimeout
	}
	if cfg.TickPeriod == 0 {
		cfg.TickPeriod = 20 * time.Millisecond
	}
	if cfg.PingPeriod == 0 {
		cfg.PingPeriod = 500 * time.Millisecond
	}
	if cfg.PongTimeout == 0 {
		cfg.PongTimeout = time.Second
	}
	if cfg.LinkTimeout == 0 {
		cfg.LinkTimeout = 5 * time.Second
	}
	if cfg.BeatTimeout == 0 {
		cfg.BeatTimeout = 3 * time.Second
	}
	if cfg.ConfirmTimeout == 0 {
		cfg.ConfirmTimeout = 10 * time.Second
	}
	if cfg.LogInterval == 0 {
		cfg.LogInterval = 10 * time.Second
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
	if cfg.MaxPagesPerOperator == 0 {
		cfg.MaxPagesPerOperator = DefaultMaxPagesPerOperator
	}
	if cfg.MaxPagesPerSource == 0 {
		cfg.MaxPagesPerSource = DefaultMaxPagesPerSource
	}
	if cfg.MaxPagesPerOperator < 0 || cfg.MaxPagesPerSource < 0 {
		return nil, fmt.Errorf("console: page caps %d per operator, %d per source: want at least 1", cfg.MaxPagesPerOperator, cfg.MaxPagesPerSource)
	}
	if cfg.CommandTimeout < 0 || cfg.TickPeriod < 0 || cfg.PingPeriod < 0 || cfg.PongTimeout < 0 || cfg.BeatTimeout < 0 || cfg.LinkTimeout < 0 || cfg.LogInterval < 0 || cfg.ConfirmTimeout < 0 ||
		!(cfg.StateRate > 0 && cfg.StateRate <= 100) || !(cfg.RateLimit > 0) || !(cfg.Burst >= 1) {
		return nil, fmt.Errorf("console: bad timing configuration (timeout %v, tick %v, ping %v/%v, log interval %v, state rate %g Hz, rate limit %g/s, burst %g)",
			cfg.CommandTimeout, cfg.TickPeriod, cfg.PingPeriod, cfg.PongTimeout, cfg.LogInterval, cfg.StateRate, cfg.RateLimit, cfg.Burst)
	}
	if cfg.BalanceThreshold < 0 || cfg.BalanceRate < 0 || cfg.BalanceRate > 100 || math.IsNaN(cfg.BalanceThreshold) || math.IsNaN(cfg.BalanceRate) {
		return nil, fmt.Errorf("console: balance threshold %g m, rate %g Hz: want threshold >= 0, rate in (0, 100]", cfg.BalanceThreshold, cfg.BalanceRate)
	}
	if cfg.Clock == nil {
		cfg.Clock = wallClock{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{cfg: cfg, conns: map[uint64]*conn{}, caps: newPageCaps(cfg.MaxPagesPerOperator, cfg.MaxPagesPerSource), wake: make(chan struct{}, 1), closing: make(chan struct{})}
	s.journal = access.NewJournal(cfg.Logger, cfg.Audit, cfg.LogInterval)
	info := cfg.Backend.Info()
	repeat := time.Duration(info.EStopInterval * float64(time.Second))
	if repeat <= 0 {
		repeat = defaultEStopInterval
	}
	s.hub = newHub(cfg.Backend, hubConfig{
		timeout: cfg.CommandTimeout, rate: cfg.RateLimit, burst: cfg.Burst, estopRepeat: repeat, confirm: cfg.ConfirmTimeout,
		journal: s.journal, cnt: &s.cnt, notify: s.notify,
	})
	s.hub.configureBalance(cfg.BalanceThreshold, cfg.BalanceRate)
	if err := s.setupVideo(); err != nil {
		return nil, err
	}
	s.gate = access.NewGate(access.GateConfig{Operators: ops, Journal: s.journal, Now: cfg.Clock.Now, AuthFails: &s.cnt.AuthFails, Throttled: &s.cnt.Throttled})
	files, _ := fs.Sub(assets, "assets")
	page, err := static.New(files)
	if err != nil {
		return nil, fmt.Errorf("console: page: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", page)
	mux.HandleFunc("GET /ws", s.serveWS)
	mux.HandleFunc("GET /robot/{machine}", s.serveDescription)
	mux.HandleFunc("GET /camera/{name}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		cfg.Backend.ServeCamera(r.PathValue("name"), w, r)
	})
	s.mux = mux
	return s, nil
}

// httpErrors passes the HTTP server's own errors (TLS handshakes of
// scanners, bad requests) through the journal's rate limit.
type httpErrors struct{ s *Server }

func (h httpErrors) Write(p []byte) (int, error) {
	h.s.journal.Record(h.s.cfg.Clock.Now(), event{Kind: "http_error", Level: slog.LevelWarn, Msg: "http server", Detail: strings.TrimSpace(string(p))})
	return len(p), nil
}

// defaultEStopInterval is the shortest interval between two e-stops
// passed to the backend while the latch is set, when the backend does
// not say (Info.EStopInterval): the Servosila driver's default maximum
// send rate, 50 Hz.
const defaultEStopInterval = 20 * time.Millisecond

// notify queues msg for page id (dropped if its queue is full).
func (s *Server) notify(id uint64, msg []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.conns[id]; c != nil {
		s.send(c, msg)
	}
}

// Token returns the access token in force ("" on loopback without one).
func (s *Server) Token() string { return s.cfg.Token }

// Counters returns the server's counters.
func (s *Server) Counters() *Counters { return &s.cnt }

// Handler returns the console's HTTP handler (authentication included).
func (s *Server) Handler() http.Handler {
	return s.gate.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	scheme := "http://"
	if s.cfg.TLS != nil {
		scheme = "https://"
	}
	u := scheme + host + "/"
	if s.cfg.Token != "" {
		u += "?token=" + s.cfg.Token
	}
	return u
}

// DefaultCommandTimeout is Config.CommandTimeout's default: the deadman
// of a held command [s].
const DefaultCommandTimeout = 300 * time.Millisecond
