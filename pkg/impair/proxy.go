package impair

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Config configures a Proxy.
type Config struct {
	// Listen is where the client (driver) sends (optional, default
	// "127.0.0.1:0").
	Listen string
	// Upstream is the server (robot or simulator) address (required).
	Upstream netip.AddrPort
	// Seed seeds the decisions; the same seed and the same packets give
	// the same decisions.
	Seed uint64
	// Up and Down are the impairments of each direction.
	Up, Down Impairment
	// QueueLimit bounds the packets waiting for their delay in each
	// direction; more are dropped and counted as Overflow (optional,
	// default 4096).
	QueueLimit int
}

// Stats are the counters of one direction.
type Stats struct {
	Received   uint64 // datagrams read
	Sent       uint64 // datagrams written (copies included)
	LostRandom uint64 // dropped by the independent loss
	LostBurst  uint64 // dropped by the burst chain
	Blackout   uint64 // dropped in a blackout (scheduled or switched)
	Duplicated uint64 // copies sent
	Reordered  uint64 // held back to be overtaken
	Truncated  uint64 // cut short
	Corrupted  uint64 // had bits flipped
	Overflow   uint64 // dropped: delay queue full
	NoClient   uint64 // down packets before any client sent (nowhere to go)
	SendErrors uint64 // writes the socket refused
}

// Lost returns every packet that was read and not forwarded.
func (s Stats) Lost() uint64 {
	return s.LostRandom + s.LostBurst + s.Blackout + s.Overflow + s.NoClient
}

type counters struct {
	received, sent, lostRandom, lostBurst, blackout, duplicated, reordered,
	truncated, corrupted, overflow, noClient, sendErrors atomic.Uint64
}

func (c *counters) stats() Stats {
	return Stats{
		Received: c.received.Load(), Sent: c.sent.Load(), LostRandom: c.lostRandom.Load(), LostBurst: c.lostBurst.Load(),
		Blackout: c.blackout.Load(), Duplicated: c.duplicated.Load(), Reordered: c.reordered.Load(),
		Truncated: c.truncated.Load(), Corrupted: c.corrupted.Load(), Overflow: c.overflow.Load(),
		NoClient: c.noClient.Load(), SendErrors: c.sendErrors.Load(),
	}
}

// item is one packet waiting for its due time.
type item struct {
	due time.Time
	seq uint64 // FIFO among equal due times
	pkt []byte
}

type queue []item

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].due.Equal(q[j].due) {
		return q[i].seq < q[j].seq
	}
	return q[i].due.Before(q[j].due)
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	old[len(old)-1] = item{}
	*q = old[:len(old)-1]
	return it
}

// direction is one way through the proxy.
type direction struct {
	dir   Direction
	cnt   counters
	black atomic.Bool // switched blackout

	mu    sync.Mutex
	chain *Chain
	q     queue
	seq   uint64
	last  time.Time     // latest due time queued (keeps a wandering direction in order)
	wake  chan struct{} // buffered 1: the queue changed
	limit int
}

// Proxy is a running impairment proxy. Create it with New, run it with
// Run; Addr, Stats, SetBlackout and Set are safe for concurrent use.
type Proxy struct {
	cfg      Config
	client   *net.UDPConn // faces the driver (Listen)
	upstream *net.UDPConn // faces the robot
	dirs     [2]*direction
	peer     atomic.Pointer[netip.AddrPort] // latest client address
	started  atomic.Pointer[time.Time]
	ran      atomic.Bool
}

// New validates cfg and binds both sockets.
func New(cfg Config) (*Proxy, error) {
	if !cfg.Upstream.IsValid() {
		return nil, fmt.Errorf("%w: no upstream address", ErrConfig)
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.QueueLimit == 0 {
		cfg.QueueLimit = 4096
	}
	p := &Proxy{cfg: cfg}
	for i, im := range []Impairment{cfg.Up, cfg.Down} {
		// Each direction has its own stream, so one direction's traffic
		// never shifts the other's decisions.
		ch, err := NewChain(im, cfg.Seed*2+uint64(i))
		if err != nil {
			return nil, fmt.Errorf("impair: %s: %w", Direction(i), err)
		}
		p.dirs[i] = &direction{dir: Direction(i), chain: ch, wake: make(chan struct{}, 1), limit: cfg.QueueLimit}
	}
	laddr, err := net.ResolveUDPAddr("udp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("impair: listen address: %w", err)
	}
	if p.client, err = net.ListenUDP("udp", laddr); err != nil {
		return nil, fmt.Errorf("impair: listen: %w", err)
	}
	ua := &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}
	if !cfg.Upstream.Addr().Unmap().IsLoopback() {
		ua = &net.UDPAddr{}
	}
	if p.upstream, err = net.ListenUDP("udp", ua); err != nil {
		_ = p.client.Close()
		return nil, fmt.Errorf("impair: upstream socket: %w", err)
	}
	// Bursts (a duplicated train, a release after a blackout) should meet
	// the impairment, not the kernel's buffer limit; best effort.
	_ = p.client.SetReadBuffer(1 << 20)
	_ = p.upstream.SetReadBuffer(1 << 20)
	return p, nil
}

// Addr returns the address the client must send to (in place of the
// robot's).
func (p *Proxy) Addr() netip.AddrPort { return addrOf(p.client) }

// UpstreamAddr returns the address the robot sees the proxy at.
func (p *Proxy) UpstreamAddr() netip.AddrPort { return addrOf(p.upstream) }

func addrOf(c *net.UDPConn) netip.AddrPort {
	a := c.LocalAddr().(*net.UDPAddr).AddrPort()
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// Stats returns the counters of direction d.
func (p *Proxy) Stats(d Direction) Stats { return p.dirs[d].cnt.stats() }

// SetBlackout switches a blackout of direction d on or off at once, in
// addition to the scheduled windows.
func (p *Proxy) SetBlackout(d Direction, on bool) { p.dirs[d].black.Store(on) }

// Set replaces the impairment of direction d for the packets read from now
// on (packets already queued keep their delay). The decision stream goes
// on from where it was.
func (p *Proxy) Set(d Direction, im Impairment) error {
	dir := p.dirs[d]
	dir.mu.Lock()
	defer dir.mu.Unlock()
	return dir.chain.Set(im)
}

// Close releases the sockets of a proxy whose Run was never called.
func (p *Proxy) Close() error {
	if p.ran.Swap(true) {
		return nil
	}
	return errors.Join(p.client.Close(), p.upstream.Close())
}

// Run forwards until ctx is cancelled, then closes both sockets and
// returns nil, or the socket error that ended it. Call it once.
func (p *Proxy) Run(ctx context.Context) error {
	if p.ran.Swap(true) {
		return errors.New("impair: Run called twice")
	}
	now := time.Now()
	p.started.Store(&now)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	run := func(f func(context.Context) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(ctx); err != nil && ctx.Err() == nil {
				errs <- err
				cancel()
			}
		}()
	}
	run(func(ctx context.Context) error { return p.read(ctx, p.client, p.dirs[Up], true) })
	run(func(ctx context.Context) error { return p.read(ctx, p.upstream, p.dirs[Down], false) })
	run(func(ctx context.Context) error { return p.send(ctx, p.dirs[Up], p.upstream, p.upstreamDest) })
	run(func(ctx context.Context) error { return p.send(ctx, p.dirs[Down], p.client, p.clientDest) })
	<-ctx.Done()
	// Unblock the readers, then close once every goroutine is out.
	_ = p.client.SetReadDeadline(time.Unix(1, 0))
	_ = p.upstream.SetReadDeadline(time.Unix(1, 0))
	wg.Wait()
	cerr := errors.Join(p.client.Close(), p.upstream.Close())
	select {
	case err := <-errs:
		return err
	default:
	}
	if cerr != nil {
		return fmt.Errorf("impair: close: %w", cerr)
	}
	return nil
}

func (p *Proxy) upstreamDest() (netip.AddrPort, bool) { return p.cfg.Upstream, true }

func (p *Proxy) clientDest() (netip.AddrPort, bool) {
	a := p.peer.Load()
	if a == nil {
		return netip.AddrPort{}, false
	}
	return *a, true
}

// read is the only reader of conn: it decides the fate of each datagram
// and queues what survives for d's sender.
func (p *Proxy) read(ctx context.Context, conn *net.UDPConn, d *direction, fromClient bool) error {
	buf := make([]byte, 65536)
	start := *p.started.Load()
	for {
		n, from, err := conn.ReadFromUDPAddrPort(buf)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return fmt.Errorf("impair: %s: read: %w", d.dir, err)
		}
		now := time.Now()
		d.cnt.received.Add(1)
		if fromClient {
			from = netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
			if cur := p.peer.Load(); cur == nil || *cur != from {
				p.peer.Store(&from)
			}
		} else if !p.peerKnown() {
			d.cnt.noClient.Add(1)
			continue
		}
		d.admit(buf[:n], now, now.Sub(start))
	}
}

func (p *Proxy) peerKnown() bool { return p.peer.Load() != nil }

// admit decides one packet's fate and queues it (reading goroutine).
func (d *direction) admit(pkt []byte, now time.Time, elapsed time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.black.Load() || d.chain.InBlackout(elapsed) {
		d.cnt.blackout.Add(1)
		return
	}
	dec := d.chain.Decide(len(pkt))
	switch dec.Fate {
	case LostRandom:
		d.cnt.lostRandom.Add(1)
		return
	case LostBurst:
		d.cnt.lostBurst.Add(1)
		return
	}
	if dec.Reord {
		d.cnt.reordered.Add(1)
	}
	if dec.Cut >= 0 {
		d.cnt.truncated.Add(1)
	}
	if dec.NFlip > 0 {
		d.cnt.corrupted.Add(1)
	}
	out := dec.Apply(append([]byte(nil), pkt...))
	due, dupAt := now.Add(dec.Delay), now.Add(dec.DupAt)
	if d.chain.Wandering() {
		w := d.chain.WanderDelay(elapsed)
		due, dupAt = due.Add(w), dupAt.Add(w)
		if !dec.Reord && due.Before(d.last) { // a wandering delay never reorders
			due = d.last
		}
	}
	d.last = maxTime(d.last, due)
	d.pushLocked(due, out)
	if dec.Dup {
		d.cnt.duplicated.Add(1)
		d.pushLocked(dupAt, append([]byte(nil), out...))
	}
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func (d *direction) pushLocked(due time.Time, pkt []byte) {
	if len(d.q) >= d.limit {
		d.cnt.overflow.Add(1)
		return
	}
	heap.Push(&d.q, item{due: due, seq: d.seq, pkt: pkt})
	d.seq++
}

// send is the only writer of conn for direction d: it sends each queued
// packet at its due time.
func (p *Proxy) send(ctx context.Context, d *direction, conn *net.UDPConn, dest func() (netip.AddrPort, bool)) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		d.mu.Lock()
		var (
			ready []byte
			have  bool
			wait  = time.Hour
		)
		if len(d.q) > 0 {
			if w := time.Until(d.q[0].due); w <= 0 {
				ready, have = heap.Pop(&d.q).(item).pkt, true
			} else {
				wait = w
			}
		}
		d.mu.Unlock()
		if have {
			to, ok := dest()
			if !ok {
				d.cnt.noClient.Add(1)
				continue
			}
			if _, err := conn.WriteToUDPAddrPort(ready, to); err != nil {
				d.cnt.sendErrors.Add(1)
			} else {
				d.cnt.sent.Add(1)
			}
			continue
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case <-d.wake:
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		case <-timer.C:
		}
	}
}
