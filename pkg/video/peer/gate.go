package peer

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/pion/transport/v5"
	"github.com/pion/transport/v5/stdnet"
	"golang.org/x/sys/unix"
)

// Reading a watcher's sockets in step with its pictures.
//
// Each datagram a page sends (transport-wide feedback about ten times a
// second, reception reports, NACKs, STUN) used to wake the console at its
// own moment: the netpoller's thread, four of pion's goroutines and the Go
// runtime's monitor thread, which polls every 20 us while any P runs after
// a system call woke it. Ten viewers' feedback arrives at ten different
// moments, so each viewer added bursts of work of its own. A session that
// is not prompt (SetPrompt: every page but the operator's) instead reads
// its sockets right after each picture it was handed, while the console
// is awake for that picture anyway: a datagram waits at most one picture
// interval, and never longer than gateHold. When no picture came for
// gateHold (a paused camera, a low frame rate, before the first picture)
// the sockets are read as datagrams arrive, as before.
//
// Config.UDP, the socket every session shares when set, is gated the same
// way by the Server: read after any session's picture, and as datagrams
// arrive while any session on it is prompt.

// gateHold is the longest a datagram waits for a picture [s]: at 25
// pictures a second or more the sockets are read after each one.
const gateHold = 40 * time.Millisecond

// readGate is one session's gated sockets. The zero value is ready; hold
// 0 means gateHold.
type readGate struct {
	prompt atomic.Bool   // read on arrival (the operator's session)
	hold   time.Duration // tests shorten or lengthen it

	mu    sync.Mutex
	conns []*gatedConn
}

// setPrompt switches between reading on arrival (true) and reading after
// each picture (false, the default). A reader waiting for a picture is
// woken to read on arrival at once.
func (g *readGate) setPrompt(prompt bool) {
	if g.prompt.Swap(prompt) == prompt || !prompt {
		return
	}
	g.mu.Lock()
	for _, c := range g.conns {
		c.wake()
	}
	g.mu.Unlock()
}

// picture is called after each picture handed to the session: it wakes
// the reader of every socket with a datagram waiting.
func (g *readGate) picture() {
	if g.prompt.Load() {
		return
	}
	now := time.Now().UnixNano()
	g.mu.Lock()
	for _, c := range g.conns {
		c.picture(now)
	}
	g.mu.Unlock()
}

func (g *readGate) add(c *gatedConn) {
	g.mu.Lock()
	g.conns = append(g.conns, c)
	g.mu.Unlock()
}

func (g *readGate) remove(c *gatedConn) {
	g.mu.Lock()
	for i, x := range g.conns {
		if x == c {
			g.conns = append(g.conns[:i], g.conns[i+1:]...)
			break
		}
	}
	g.mu.Unlock()
}

// gatedNet is the network pion's ICE agent uses for one session: the
// standard one, whose UDP sockets are gated by the session's readGate.
type gatedNet struct {
	*stdnet.Net
	gate *readGate
}

func newGatedNet(g *readGate) (transport.Net, error) {
	n, err := stdnet.NewNet()
	if err != nil {
		return nil, err
	}
	return gatedNet{Net: n, gate: g}, nil
}

// ListenUDP opens a UDP socket read in step with the session's pictures.
func (n gatedNet) ListenUDP(network string, laddr *net.UDPAddr) (transport.UDPConn, error) {
	c, err := net.ListenUDP(network, laddr)
	if err != nil {
		return nil, err
	}
	g, err := newGatedConn(c, n.gate)
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	return g, nil
}

// newGatedConn gates c by gate; closing the result closes c.
func newGatedConn(c *net.UDPConn, gate *readGate) (*gatedConn, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	hold := gate.hold
	if hold <= 0 {
		hold = gateHold
	}
	g := &gatedConn{UDPConn: c, raw: raw, gate: gate, holdFor: hold, sig: make(chan struct{}, 1), done: make(chan struct{})}
	g.pic.init()
	g.rd.init()
	g.hold = time.AfterFunc(time.Duration(1<<62), g.wake) // armed by the first picture
	gate.add(g)
	return g, nil
}

// gatedConn is a UDP socket whose single reader (pion's candidate loop)
// waits for the session's next picture before reading, while pictures
// flow and the session is not prompt. Writes go straight to the socket.
// Read deadlines do not apply to that wait (pion sets none on these
// sockets).
type gatedConn struct {
	*net.UDPConn
	raw     syscall.RawConn
	gate    *readGate
	holdFor time.Duration
	hold    *time.Timer   // fires holdFor after the last picture: read on arrival again
	sig     chan struct{} // a datagram is waiting, or the mode changed
	done    chan struct{} // closed by Close
	once    sync.Once

	last    atomic.Int64 // the last picture [ns, wall clock]; 0: none yet
	waiting atomic.Bool  // the reader waits for a picture (tests)

	pic probe // asks under gate.mu (picture)
	rd  probe // asks for the reader
}

// probe asks a socket whether a datagram waits, without an allocation
// (its func is built once). One goroutine at a time uses a probe.
type probe struct {
	f     func(fd uintptr)
	pfd   [1]unix.PollFd
	ready bool
}

func (p *probe) init() {
	p.pfd[0].Events = unix.POLLIN
	p.f = func(fd uintptr) {
		p.pfd[0].Fd, p.pfd[0].Revents = int32(fd), 0
		n, err := unix.Poll(p.pfd[:], 0)
		p.ready = err != nil || n > 0
	}
}

// ask reports whether a datagram waits in raw's socket, an empty one too
// (poll with no timeout; SIOCINQ, the size of the next datagram, cannot
// tell an empty one from none, and an empty datagram from anyone would
// then hold the session's feedback back for good). A failed poll, EINTR
// included, reports true: the reader then reads, blocking until a
// datagram comes. err is raw.Control's (a closed socket).
func (p *probe) ask(raw syscall.RawConn) (bool, error) {
	p.ready = false
	err := raw.Control(p.f)
	return p.ready, err
}

// picture is readGate.picture for one socket.
func (c *gatedConn) picture(now int64) {
	c.last.Store(now)
	c.hold.Reset(c.holdFor)
	if ready, err := c.pic.ask(c.raw); err == nil && ready {
		c.wake()
	}
}

func (c *gatedConn) wake() {
	select {
	case c.sig <- struct{}{}:
	default:
	}
}

// gated reports whether the reader should wait for a picture: the session
// is not prompt and its last picture is under holdFor old.
func (c *gatedConn) gated() bool {
	last := c.last.Load()
	return !c.gate.prompt.Load() && last != 0 && time.Now().UnixNano()-last < int64(c.holdFor)
}

// ReadFromAddrPort reads the next datagram: at once when one is waiting
// or the socket is not gated, else after the next picture (or the mode's
// change).
func (c *gatedConn) ReadFromAddrPort(b []byte) (int, netip.AddrPort, error) {
	for c.gated() {
		if ready, err := c.rd.ask(c.raw); err != nil || ready {
			break // a datagram is waiting (or the socket closed: the read says so)
		}
		c.waiting.Store(true)
		select {
		case <-c.sig:
		case <-c.done:
			c.waiting.Store(false)
			return 0, netip.AddrPort{}, net.ErrClosed
		}
		c.waiting.Store(false)
	}
	return c.UDPConn.ReadFromUDPAddrPort(b)
}

// ReadFrom is ReadFromAddrPort with a net.Addr.
func (c *gatedConn) ReadFrom(b []byte) (int, net.Addr, error) {
	n, ap, err := c.ReadFromAddrPort(b)
	if err != nil {
		return n, nil, err
	}
	return n, net.UDPAddrFromAddrPort(ap), nil
}

// WriteToAddrPort writes b to addr.
func (c *gatedConn) WriteToAddrPort(b []byte, addr netip.AddrPort) (int, error) {
	return c.UDPConn.WriteToUDPAddrPort(b, addr)
}

// Close closes the socket and ends a waiting read.
func (c *gatedConn) Close() error {
	c.once.Do(func() {
		c.gate.remove(c) // no picture resets the timer after this
		c.hold.Stop()
		close(c.done)
	})
	return c.UDPConn.Close()
}
