package lkpub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	lksdk "github.com/livekit/server-sdk-go/v2"
)

// ErrSourceStopped: a camera's Source closed its viewer (the camera
// stream was closed); Run returns it instead of reconnecting.
var ErrSourceStopped = errors.New("lkpub: a camera's video source stopped")

// Stats are a publisher's counters.
type Stats struct {
	Connected bool          // in the room and not resuming now
	Connects  uint64        // connections that reached the room [1]
	Resumes   uint64        // interruptions the SDK recovered from by itself [1]
	Failures  uint64        // attempts that failed and connections lost [1]
	LastErr   string        // the latest failure, "" before any
	Cameras   []CameraStats // in Config.Cameras' order
}

// CameraStats are one published camera's counters, summed over every
// connection.
type CameraStats struct {
	Name        string // Camera.Name
	Track       string // the track's name in the room
	AccessUnits uint64 // access units written to the track [1]
	Keyframes   uint64 // of which IDR pictures [1]
	Bytes       uint64 // their size, Annex-B [bytes]
	KeyRequests uint64 // PLI and FIR from the SFU, and new bindings [1]
	WriteErrors uint64 // access units the track refused [1]
}

// Publisher keeps one participant in a LiveKit room that publishes every
// configured camera as an H.264 track, and reconnects with backoff when the
// connection fails or is lost. Run owns the connection; Stats may be
// called from any goroutine.
type Publisher struct {
	cfg  Config
	cams []*camCounters

	connected                   atomic.Bool
	connects, resumes, failures atomic.Uint64
	lastErr                     atomic.Value // string
}

type camCounters struct {
	aus, keys, bytes, keyReqs, werrs atomic.Uint64
}

// New checks cfg and fills its defaults; nothing connects and no camera is
// subscribed before Run.
func New(cfg Config) (*Publisher, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	p := &Publisher{cfg: cfg}
	for range cfg.Cameras {
		p.cams = append(p.cams, &camCounters{})
	}
	p.lastErr.Store("")
	return p, nil
}

// Run connects, publishes, and reconnects after a failure or a lost
// connection (waits: Config.MinBackoff doubling to MaxBackoff, back to
// MinBackoff after a connection that reached the room), until ctx ends
// (then it leaves the room and returns nil) or a camera's Source stops
// (ErrSourceStopped). The cameras are subscribed, and so encode, only
// while connected.
func (p *Publisher) Run(ctx context.Context) error {
	setSDKLogger(p.cfg.Logger)
	b := Backoff{Min: p.cfg.MinBackoff, Max: p.cfg.MaxBackoff}
	log := p.cfg.Logger.With("livekit", p.cfg.URL, "room", p.cfg.Room, "identity", p.cfg.Identity)
	for {
		reached, err := p.session(ctx, log)
		if ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, ErrSourceStopped) {
			return err
		}
		p.failures.Add(1)
		p.lastErr.Store(err.Error())
		if reached {
			b.Reset()
		}
		wait := b.Next(rand.Float64())
		log.Warn("livekit: not publishing; reconnecting", "err", err, "in", wait.Round(time.Millisecond))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// session is one connection: it joins, publishes every camera, and
// returns when the room is lost, a track fails, or ctx ends. reached says
// whether it got into the room.
func (p *Publisher) session(ctx context.Context, log *slog.Logger) (reached bool, err error) {
	token := p.cfg.Token
	if token == "" {
		if token, err = PublisherToken(p.cfg.APIKey, p.cfg.APISecret, p.cfg.Room, p.cfg.Identity, p.cfg.Name, p.cfg.TokenTTL); err != nil {
			return false, err
		}
	}
	lost := make(chan error, 1)
	cb := lksdk.NewRoomCallback()
	cb.OnDisconnectedWithReason = func(r lksdk.DisconnectionReason) {
		select {
		case lost <- fmt.Errorf("lkpub: disconnected from the room (%s)", r):
		default:
		}
	}
	// The SDK first tries to resume or rejoin by itself (and publishes
	// the same tracks again); only when it gives up does the room
	// disconnect and this session end.
	cb.OnReconnecting = func() {
		p.connected.Store(false)
		log.Warn("livekit: connection interrupted, resuming")
	}
	cb.OnReconnected = func() {
		p.resumes.Add(1)
		p.connected.Store(true)
		log.Info("livekit: connection resumed")
	}
	room := lksdk.NewRoom(cb)
	cctx, cancel := context.WithTimeout(ctx, p.cfg.ConnectTimeout)
	err = room.JoinWithContextAndToken(cctx, p.cfg.URL, token,
		lksdk.WithAutoSubscribe(false), lksdk.WithConnectTimeout(p.cfg.ConnectTimeout))
	cancel()
	if err != nil {
		room.Disconnect()
		return false, fmt.Errorf("lkpub: join %s: %w", p.cfg.URL, err)
	}
	p.connects.Add(1)
	p.connected.Store(true)
	defer p.connected.Store(false)
	log.Info("livekit: in the room", "room", room.Name(), "tracks", len(p.cfg.Cameras))

	sctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		stop()
		room.Disconnect()
		wg.Wait()
	}()
	ended := make(chan error, len(p.cfg.Cameras))
	for i := range p.cfg.Cameras {
		t, err := p.publish(room, i)
		if err != nil {
			return true, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ended <- t.pump(sctx)
		}()
	}
	select {
	case <-ctx.Done():
		return true, nil
	case err = <-lost:
		return true, err
	case err = <-ended:
		return true, err
	}
}
