//go:build linux

package camera

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/camera/control"
	"github.com/telebridge/telebridge/pkg/mailbox"
)

// Camera runs one device in its own goroutine (Run): it opens the device,
// streams only while someone subscribes (control.Demand), hands each frame to the
// consumer, and reopens the device with backoff when it is lost. Several
// Cameras in one process are independent. SetSubscribers, Stats,
// Negotiated and Err may be called from any goroutine.
type Camera struct {
	cfg     Config
	fn      FrameFunc
	backoff control.Backoff
	cnt     counters

	subs   mailbox.Latest[[2]int]
	wake   chan struct{}
	mu     sync.Mutex
	neg    Negotiated
	open   bool
	err    error
	frameT time.Duration // wait for a frame before counting a timeout

	ctlMu   sync.Mutex
	pending map[string]int64 // control changes not yet applied
	ctlErr  error            // last failed control change
}

// New validates cfg and returns a Camera that calls fn for each frame (on
// the camera's goroutine; see Frame for buffer ownership). Nothing is
// opened until Run.
func New(cfg Config, fn FrameFunc) (*Camera, error) {
	cfg, err := cfg.Normalize()
	if err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, fmt.Errorf("camera %s: nil frame function: %w", cfg.Name, ErrBadParam)
	}
	// Wait for a frame up to 5 periods (at least 1 s) before counting a
	// stall; a stalled stream is restarted.
	ft := max(time.Duration(5*float64(time.Second)/cfg.FrameRate), time.Second)
	return &Camera{cfg: cfg, fn: fn, wake: make(chan struct{}, 1), frameT: ft}, nil
}

// Config returns the camera's configuration, defaults filled.
func (c *Camera) Config() Config { return c.cfg }

// SetSubscribers reports the current subscriber counts of the camera's
// image topic and camera_info topic (the ROS layer calls it on graph
// changes). It never blocks; the latest counts win.
func (c *Camera) SetSubscribers(images, infos int) {
	c.subs.Store([2]int{images, infos}, time.Now())
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Stats returns the camera's counters (across reopenings).
func (c *Camera) Stats() Stats { return c.cnt.snapshot() }

// Negotiated returns what the driver set at the last successful open, and
// whether the device is open now.
func (c *Camera) Negotiated() (Negotiated, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.neg, c.open
}

// Err returns the last device error (nil after a successful reopen).
func (c *Camera) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *Camera) setState(neg *Negotiated, open bool, err error) {
	c.mu.Lock()
	if neg != nil {
		c.neg = *neg
	}
	c.open, c.err = open, err
	c.mu.Unlock()
}

// Run captures until ctx is cancelled, then stops the stream, closes the
// device and returns nil. Device errors do not end Run: the device is
// closed and reopened after a backoff (100 ms doubling to 5 s); Err tells
// the last one. Run must be called once.
func (c *Camera) Run(ctx context.Context) error {
	var dev source
	var demand control.Demand
	cfg := c.cfg // Controls grow with live changes, for reopening
	everOpened := false
	defer func() {
		if dev != nil {
			_ = dev.Close()
		}
		c.setState(nil, false, nil)
	}()
	lose := func(err error) {
		_ = dev.Close()
		dev = nil
		demand.Stopped()
		c.setState(nil, false, err)
	}
	for ctx.Err() == nil {
		if dev == nil {
			d, err := openSource(cfg, &c.cnt)
			if err != nil {
				c.cnt.openFails.Add(1)
				c.setState(nil, false, err)
				if !sleepCtx(ctx, c.backoff.Next()) {
					return nil
				}
				continue
			}
			dev = d
			if everOpened {
				c.cnt.reopens.Add(1)
			}
			everOpened = true
			neg := dev.Negotiated()
			c.setState(&neg, true, nil)
		}
		c.applyControls(dev, &cfg)
		// Take the latest subscriber counts.
		if counts, _, ok := c.subs.Load(); ok {
			demand.Update(counts[0], counts[1])
		}
		switch demand.Retry() {
		case control.Start:
			if err := dev.Start(); err != nil {
				demand.Failed()
				lose(err)
				if !sleepCtx(ctx, c.backoff.Next()) {
					return nil
				}
				continue
			}
			demand.Started()
		case control.Stop:
			err := dev.Stop()
			demand.Stopped()
			if err != nil {
				lose(err)
				continue
			}
		}
		if !demand.Streaming() {
			// Idle: no subscriber, stream off. Sleep until the counts change.
			select {
			case <-ctx.Done():
				return nil
			case <-c.wake:
			}
			continue
		}
		_, err := dev.Next(c.frameT, c.fn)
		switch {
		case err == nil:
			c.backoff.Reset()
		case errors.Is(err, ErrTimeout):
			// A stalled stream: restart it (STREAMOFF, STREAMON).
			_ = dev.Stop()
			demand.Stopped()
		default:
			lose(err)
			if !sleepCtx(ctx, c.backoff.Next()) {
				return nil
			}
		}
	}
	return nil
}

// SetControl asks for V4L2 control name (parameter form, e.g. "gain") to
// be set to v. It never blocks: the capture goroutine applies it before
// its next frame (or at once when idle), keeps it for reopenings, and
// reports a failure in ControlErr. Call it from any goroutine.
func (c *Camera) SetControl(name string, v int64) {
	c.ctlMu.Lock()
	if c.pending == nil {
		c.pending = map[string]int64{}
	}
	c.pending[name] = v
	c.ctlMu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// ControlErr returns the error of the last control change that failed
// (nil if none did).
func (c *Camera) ControlErr() error {
	c.ctlMu.Lock()
	defer c.ctlMu.Unlock()
	return c.ctlErr
}

// applyControls applies pending control changes on the capture goroutine
// and records them in cfg, the configuration used for reopening.
func (c *Camera) applyControls(dev source, cfg *Config) {
	c.ctlMu.Lock()
	pending := c.pending
	c.pending = nil
	c.ctlMu.Unlock()
	if len(pending) == 0 {
		return
	}
	ctl := make(map[string]int64, len(cfg.Controls)+len(pending))
	for k, v := range cfg.Controls {
		ctl[k] = v
	}
	var failed error
	for name, v := range pending {
		if _, err := dev.SetControl(name, v); err != nil {
			failed = err
			continue
		}
		ctl[name] = v
	}
	cfg.Controls = ctl
	c.ctlMu.Lock()
	c.ctlErr = failed
	c.ctlMu.Unlock()
}

// sleepCtx waits d or until ctx ends; it reports whether ctx is still live.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
