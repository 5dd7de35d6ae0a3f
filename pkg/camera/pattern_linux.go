//go:build linux

package camera

import (
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// source is what Camera drives: a V4L2 Device, or the synthetic test
// source. Both deliver frames the same way (see Device.Next).
type source interface {
	Negotiated() Negotiated
	Start() error
	Stop() error
	Next(timeout time.Duration, fn FrameFunc) (wire.Verdict, error)
	Controls() ([]wire.Control, error)
	SetControl(name string, v int64) (int64, error)
	Close() error
}

var _ source = (*patternSource)(nil)

// openSource opens the camera's source: the test pattern for a
// PatternPrefix device, else the V4L2 device.
func openSource(cfg Config, cnt *counters) (source, error) {
	if IsPattern(cfg.Device) || cfg.Draw != nil {
		return openPattern(cfg, cnt)
	}
	return openDevice(cfg, cnt)
}

// patternSource generates frames in memory at the configured rate: a ring
// of BufferCount pre-filled buffers, delivered in turn with the deadline
// of each frame period as timestamp. Not safe for concurrent use.
type patternSource struct {
	cfg        Config
	neg        Negotiated
	bufs       [][]byte
	period     time.Duration
	brightness int64

	streaming bool
	next      time.Time // deadline of the next frame
	seq       uint32
	timer     *time.Timer
	frame     Frame
	cnt       *counters
	closed    bool
}

// ProbeControls opens the camera's source (device or test pattern), lists
// its controls and closes it again: what the node declares as
// "<camera>.controls.*" parameters before it starts capturing.
func ProbeControls(cfg Config) ([]wire.Control, error) {
	cfg.Controls = nil // list the device's own values, apply nothing
	s, err := openSource(cfg, &counters{})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Controls()
}

func openPattern(cfg Config, cnt *counters) (*patternSource, error) {
	cfg, err := cfg.Normalize()
	if err != nil {
		return nil, err
	}
	f, _ := wire.ParsePixelFormat(cfg.PixelFormat)
	enc, _ := wire.ResolveEncoding(f, cfg.Encoding)
	step, size := wire.ImageSize(f, uint32(cfg.Width), uint32(cfg.Height), 0)
	p := &patternSource{
		cfg: cfg, cnt: cnt, brightness: patternBrightnessDefault,
		period: time.Duration(float64(time.Second) / cfg.FrameRate),
		neg: Negotiated{
			Format: f, Encoding: enc, Width: uint32(cfg.Width), Height: uint32(cfg.Height),
			Step: step, ImageSize: size, FrameRate: cfg.FrameRate, Buffers: cfg.BufferCount,
			Driver: "telebridge-pattern", Card: "synthetic test pattern " + cfg.Device,
		},
	}
	for name, v := range cfg.Controls {
		if _, err := p.SetControl(name, v); err != nil {
			return nil, err
		}
	}
	if cfg.Draw != nil && f.Compressed {
		return nil, fmt.Errorf("camera: %s: drawn sources are uncompressed, not %s: %w", cfg.Device, cfg.PixelFormat, ErrBadParam)
	}
	p.bufs = make([][]byte, cfg.BufferCount)
	for i := range p.bufs {
		p.bufs[i] = make([]byte, size)
	}
	if err := p.fill(); err != nil {
		return nil, err
	}
	p.timer = time.NewTimer(time.Hour)
	p.timer.Stop()
	return p, nil
}

// fill draws the ring's images; for a compressed format each buffer
// becomes a JPEG of the grey pattern (sized to it, as a driver's
// bytesused would be).
func (p *patternSource) fill() error {
	for i := range p.bufs {
		if !p.neg.Format.Compressed {
			FillPattern(p.bufs[i], p.neg.Format, p.neg.Step, p.neg.Height, i, p.brightness)
			continue
		}
		jpg, err := PatternJPEG(int(p.neg.Width), int(p.neg.Height), i, p.brightness)
		if err != nil {
			return fmt.Errorf("camera: %s: %w", p.cfg.Device, err)
		}
		p.bufs[i] = jpg
	}
	return nil
}

func (p *patternSource) Negotiated() Negotiated { return p.neg }

func (p *patternSource) Start() error {
	if p.closed {
		return fmt.Errorf("camera: start: %w", ErrClosed)
	}
	if !p.streaming {
		p.streaming, p.next = true, time.Now().Add(p.period)
		p.cnt.starts.Add(1)
	}
	return nil
}

func (p *patternSource) Stop() error {
	if p.streaming {
		p.streaming = false
		p.cnt.stops.Add(1)
	}
	return nil
}

// Next waits for the next frame period and delivers the next buffer of
// the ring, stamped with the period's deadline. Periods missed because
// the consumer was slow are counted as dropped, as a driver would.
func (p *patternSource) Next(timeout time.Duration, fn FrameFunc) (wire.Verdict, error) {
	if p.closed {
		return wire.Good, fmt.Errorf("camera: next: %w", ErrClosed)
	}
	if !p.streaming {
		return wire.Good, ErrNotStreaming
	}
	wait := time.Until(p.next)
	if wait > timeout {
		p.sleep(timeout)
		p.cnt.timeouts.Add(1)
		return wire.Good, ErrTimeout
	}
	p.sleep(wait)
	if late := time.Since(p.next); late >= p.period {
		missed := uint64(late / p.period)
		p.cnt.dropped.Add(missed)
		p.seq += uint32(missed)
		p.next = p.next.Add(time.Duration(missed) * p.period)
	}
	idx := int(p.seq % uint32(len(p.bufs)))
	if p.cfg.Draw != nil {
		if err := p.cfg.Draw(p.bufs[idx], p.neg.Format, p.neg.Step, p.neg.Height); err != nil {
			return wire.Good, fmt.Errorf("camera: %s: draw: %w", p.cfg.Device, err)
		}
	}
	p.frame = Frame{
		Header: Header{Stamp: p.next, FrameID: p.cfg.FrameID},
		Height: p.neg.Height, Width: p.neg.Width, Encoding: p.neg.Encoding, Step: p.neg.Step,
		Data: p.bufs[idx], Compressed: p.neg.Format.Compressed, Sequence: p.seq, Index: idx, copies: &p.cnt.copies,
	}
	p.cnt.frames.Add(1)
	fn(&p.frame)
	p.frame.Data = nil
	p.seq++
	p.next = p.next.Add(p.period)
	return wire.Good, nil
}

func (p *patternSource) sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	p.timer.Reset(d)
	<-p.timer.C
}

func (p *patternSource) Controls() ([]wire.Control, error) {
	return []wire.Control{PatternControl(p.brightness)}, nil
}

func (p *patternSource) SetControl(name string, v int64) (int64, error) {
	c := PatternControl(p.brightness)
	if name != c.Param {
		return 0, fmt.Errorf("camera: %s: control %q: %w", p.cfg.Device, name, ErrNoControl)
	}
	if v < c.Min || v > c.Max {
		return 0, fmt.Errorf("camera: %s: control %q = %d: want %d..%d: %w", p.cfg.Device, name, v, c.Min, c.Max, ErrBadParam)
	}
	old := p.brightness
	p.brightness = v
	if err := p.fill(); err != nil {
		p.brightness = old
		return 0, err
	}
	return v, nil
}

func (p *patternSource) Close() error {
	p.closed, p.streaming, p.bufs = true, false, nil
	return nil
}
