//go:build linux && cgo

package camera

import (
	"errors"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/camera/control"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"golang.org/x/sys/unix"
)

// Device is one open V4L2 capture device with its mmap'ed buffers. Open,
// then Start, Next repeatedly, Stop, and Close. Not safe for concurrent
// use, except Stats, which any goroutine may call: keep a Device in one
// goroutine (Camera does).
type Device struct {
	cfg  Config
	fd   int
	neg  Negotiated
	bufs [][]byte // mmap'ed driver buffers, by index

	streaming bool
	offset    control.ClockOffset
	haveSeq   bool
	lastSeq   uint32

	buf   wire.Buffer    // reused for QBUF/DQBUF
	pfd   [1]unix.PollFd // reused for poll
	frame Frame          // reused for every delivered frame
	cnt   *counters
}

var _ source = (*Device)(nil)

// Open opens cfg.Device, negotiates pixel format, size and frame rate
// (reading back what the driver chose), applies cfg.Controls, requests and
// mmaps cfg.BufferCount buffers. The stream is not started. On any error
// everything acquired so far is released. Errors wrap ErrNoDevice,
// ErrUnsupportedFormat, ErrBadParam or ErrNoControl where they apply.
func Open(cfg Config) (*Device, error) {
	return openDevice(cfg, &counters{})
}

func openDevice(cfg Config, cnt *counters) (d *Device, err error) {
	cfg, err = cfg.Normalize()
	if err != nil {
		return nil, err
	}
	want, _ := wire.ParsePixelFormat(cfg.PixelFormat)
	fd, err := wire.OpenNode(cfg.Device)
	if err != nil {
		return nil, err
	}
	d = &Device{cfg: cfg, fd: fd, cnt: cnt}
	dev := d // the named result is nil by the time a failing return runs the defer
	defer func() {
		if err != nil {
			_ = dev.Close()
		}
	}()
	capab, err := wire.QueryCaps(fd)
	if err != nil {
		return nil, fmt.Errorf("camera: %s: query capabilities: %w: %v", cfg.Device, wire.ErrNoDevice, err)
	}
	if !capab.Capture {
		return nil, fmt.Errorf("camera: %s (%s): not a single-planar capture device with streaming I/O: %w", cfg.Device, capab.Card, wire.ErrNoDevice)
	}
	d.neg.Driver, d.neg.Card = capab.Driver, capab.Card
	if err := d.negotiate(want); err != nil {
		return nil, err
	}
	if err := d.applyControls(); err != nil {
		return nil, err
	}
	if err := d.mapBuffers(); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Device) negotiate(want wire.Format) error {
	cfg := d.cfg
	if err := wire.SetFormat(d.fd, want.FourCC, uint32(cfg.Width), uint32(cfg.Height)); err != nil {
		return fmt.Errorf("camera: %s: set format %s %dx%d: %w", cfg.Device, want.Name, cfg.Width, cfg.Height, err)
	}
	pf, err := wire.GetFormat(d.fd)
	if err != nil {
		return fmt.Errorf("camera: %s: get format: %w", cfg.Device, err)
	}
	if pf.FourCC != want.FourCC {
		return fmt.Errorf("camera: %s: asked for %s, driver chose %s: %w", cfg.Device, want.Name, pf.FourCC, wire.ErrUnsupportedFormat)
	}
	enc, err := wire.ResolveEncoding(want, cfg.Encoding)
	if err != nil {
		return err
	}
	d.neg.Format, d.neg.Encoding = want, enc
	d.neg.Width, d.neg.Height = pf.Width, pf.Height
	d.neg.Step, d.neg.ImageSize = wire.ImageSize(want, pf.Width, pf.Height, pf.BytesPerLine)
	if d.neg.FrameRate, err = wire.SetFrameRate(d.fd, cfg.FrameRate); err != nil {
		return fmt.Errorf("camera: %s: %w", cfg.Device, err)
	}
	return nil
}

func (d *Device) mapBuffers() error {
	req := wire.RequestBuffers{Count: uint32(d.cfg.BufferCount), Type: wire.BufTypeVideoCapture, Memory: wire.MemoryMMAP}
	if err := wire.RequestBufs(d.fd, &req); err != nil {
		return fmt.Errorf("camera: %s: request %d buffers: %w", d.cfg.Device, d.cfg.BufferCount, err)
	}
	if req.Count < 2 {
		return fmt.Errorf("camera: %s: driver granted %d buffers, need 2: %w", d.cfg.Device, req.Count, wire.ErrNoDevice)
	}
	d.bufs = make([][]byte, 0, req.Count)
	for i := uint32(0); i < req.Count; i++ {
		b := wire.CaptureBuffer(i)
		if err := wire.QueryBuffer(d.fd, &b); err != nil {
			return fmt.Errorf("camera: %s: query buffer %d: %w", d.cfg.Device, i, err)
		}
		if !d.neg.Format.Compressed && b.Length < d.neg.ImageSize {
			return fmt.Errorf("camera: %s: buffer %d holds %d bytes, image needs %d: %w", d.cfg.Device, i, b.Length, d.neg.ImageSize, wire.ErrNoDevice)
		}
		m, err := wire.MapBuffer(d.fd, &b)
		if err != nil {
			return fmt.Errorf("camera: %s: mmap buffer %d: %w", d.cfg.Device, i, err)
		}
		d.bufs = append(d.bufs, m)
	}
	d.neg.Buffers = len(d.bufs)
	return nil
}

// Negotiated returns what the driver set at Open.
func (d *Device) Negotiated() Negotiated { return d.neg }

// Config returns the configuration the device was opened with, defaults
// filled.
func (d *Device) Config() Config { return d.cfg }

// Stats returns the device's counters. Safe for concurrent use.
func (d *Device) Stats() Stats { return d.cnt.snapshot() }

// Streaming reports whether the stream is on.
func (d *Device) Streaming() bool { return d.streaming }

// Start queues every buffer and turns the stream on (VIDIOC_STREAMON). It
// measures the clock offset used to convert buffer timestamps.
func (d *Device) Start() error {
	if d.fd < 0 {
		return fmt.Errorf("camera: start: %w", ErrClosed)
	}
	if d.streaming {
		return nil
	}
	for i := range d.bufs {
		d.buf = wire.CaptureBuffer(uint32(i))
		if err := wire.QueueBuffer(d.fd, &d.buf); err != nil {
			d.resetQueue()
			return d.wrapIOErr("queue buffer", err)
		}
	}
	d.offset = MeasureClockOffset()
	if err := wire.StreamOn(d.fd); err != nil {
		d.resetQueue()
		return d.wrapIOErr("stream on", err)
	}
	d.streaming, d.haveSeq = true, false
	d.cnt.starts.Add(1)
	return nil
}

// resetQueue takes back queued buffers after a failed start (STREAMOFF
// dequeues all buffers even when the stream never started).
func (d *Device) resetQueue() { _ = wire.StreamOff(d.fd) }

// Stop turns the stream off (VIDIOC_STREAMOFF), which also takes every
// buffer back from the driver. The device stays open and mapped; Start
// resumes. While stopped the driver captures nothing and the process
// spends no CPU on the camera.
func (d *Device) Stop() error {
	if d.fd < 0 || !d.streaming {
		return nil
	}
	d.streaming = false
	d.cnt.stops.Add(1)
	if err := wire.StreamOff(d.fd); err != nil {
		return d.wrapIOErr("stream off", err)
	}
	return nil
}

func (d *Device) wrapIOErr(op string, err error) error {
	if wire.IsDeviceLost(err) {
		return fmt.Errorf("camera: %s: %s: %w: %w", d.cfg.Device, op, ErrDeviceLost, err)
	}
	return fmt.Errorf("camera: %s: %s: %w", d.cfg.Device, op, err)
}

// Next waits up to timeout for a filled buffer, dequeues it, and, if
// wire.Classify finds it good, calls fn with a Frame whose Data is the mmap'ed
// buffer (no copy); the buffer is queued again after fn returns. It returns
// the buffer's verdict: Good when fn was called, another verdict when the
// buffer was skipped (and counted as corrupted). Errors: ErrTimeout,
// ErrNotStreaming, ErrDeviceLost (close and reopen), ErrClosed. The frame
// timestamp is read from the dequeued buffer before it is queued again.
// Next allocates nothing.
func (d *Device) Next(timeout time.Duration, fn FrameFunc) (wire.Verdict, error) {
	if d.fd < 0 {
		return wire.Good, fmt.Errorf("camera: next: %w", ErrClosed)
	}
	if !d.streaming {
		return wire.Good, ErrNotStreaming
	}
	deadline := time.Now().Add(timeout)
	for {
		ms := int(time.Until(deadline) / time.Millisecond)
		if ms < 0 {
			ms = 0
		}
		d.pfd[0] = unix.PollFd{Fd: int32(d.fd), Events: unix.POLLIN}
		n, err := unix.Poll(d.pfd[:], ms)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return wire.Good, d.wrapIOErr("poll", err)
		}
		if n == 0 {
			d.cnt.timeouts.Add(1)
			return wire.Good, ErrTimeout
		}
		if d.pfd[0].Revents&(unix.POLLERR|unix.POLLHUP|unix.POLLNVAL) != 0 && d.pfd[0].Revents&unix.POLLIN == 0 {
			return wire.Good, fmt.Errorf("camera: %s: poll revents %#x: %w", d.cfg.Device, d.pfd[0].Revents, ErrDeviceLost)
		}
		d.buf = wire.Buffer{Type: wire.BufTypeVideoCapture, Memory: wire.MemoryMMAP}
		err = wire.DequeueBuffer(d.fd, &d.buf)
		if err == unix.EAGAIN {
			if time.Now().After(deadline) {
				d.cnt.timeouts.Add(1)
				return wire.Good, ErrTimeout
			}
			continue
		}
		if err != nil {
			return wire.Good, d.wrapIOErr("dequeue buffer", err)
		}
		return d.deliver(fn)
	}
}

// deliver handles the buffer in d.buf and queues it again.
func (d *Device) deliver(fn FrameFunc) (wire.Verdict, error) {
	b := &d.buf
	idx := int(b.Index)
	if idx >= len(d.bufs) {
		return wire.Good, fmt.Errorf("camera: %s: driver returned buffer %d of %d: %w", d.cfg.Device, idx, len(d.bufs), ErrDeviceLost)
	}
	// Everything taken from the v4l2_buffer is read here, before QBUF.
	var stamp time.Time
	if b.Monotonic() {
		stamp = d.offset.Wall(b.Sec, b.Usec)
	} else {
		stamp = time.Now()
	}
	seq, used := b.Sequence, b.BytesUsed
	if d.haveSeq {
		d.cnt.dropped.Add(control.SequenceGap(d.lastSeq, seq))
	}
	d.haveSeq, d.lastSeq = true, seq
	v := wire.Classify(b.Flags, used, uint32(len(d.bufs[idx])), d.neg.ImageSize, d.neg.Format.Compressed)
	if v == wire.Good {
		n := used
		if !d.neg.Format.Compressed {
			n = d.neg.ImageSize // drop any padding after the image
		}
		d.frame = Frame{
			Header:     Header{Stamp: stamp, FrameID: d.cfg.FrameID},
			Height:     d.neg.Height,
			Width:      d.neg.Width,
			Encoding:   d.neg.Encoding,
			Step:       d.neg.Step,
			Data:       d.bufs[idx][:n:n],
			Compressed: d.neg.Format.Compressed,
			Sequence:   seq,
			Index:      idx,
			copies:     &d.cnt.copies,
		}
		d.cnt.frames.Add(1)
		fn(&d.frame)
		d.frame.Data = nil
	} else {
		d.cnt.corrupted.Add(1)
	}
	*b = wire.CaptureBuffer(uint32(idx))
	if err := wire.QueueBuffer(d.fd, b); err != nil {
		return v, d.wrapIOErr("queue buffer", err)
	}
	return v, nil
}

// Close stops the stream, unmaps the buffers, frees them in the driver and
// closes the file descriptor, whatever failed before. It is idempotent.
func (d *Device) Close() error {
	if d.fd < 0 {
		return nil
	}
	var errs []error
	if d.streaming {
		errs = append(errs, d.Stop())
	}
	for _, b := range d.bufs {
		if err := wire.UnmapBuffer(b); err != nil {
			errs = append(errs, fmt.Errorf("munmap: %w", err))
		}
	}
	if d.bufs != nil {
		// Free the driver's buffers; a lost device may refuse, which is fine
		// because closing the descriptor frees them too.
		req := wire.RequestBuffers{Count: 0, Type: wire.BufTypeVideoCapture, Memory: wire.MemoryMMAP}
		_ = wire.RequestBufs(d.fd, &req)
	}
	d.bufs = nil
	if err := unix.Close(d.fd); err != nil {
		errs = append(errs, fmt.Errorf("close: %w", err))
	}
	d.fd = -1
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("camera: close %s: %w", d.cfg.Device, err)
	}
	return nil
}
