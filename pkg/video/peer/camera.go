package peer

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v4"

	"github.com/telebridge/telebridge/pkg/video"
)

// boundTrack is an RTP track that says when pion binds it to a
// negotiated, connected sender: before that pion drops written packets, so
// only then is the camera's Source subscribed (its first access unit is a
// keyframe; if the page's SRTP is not ready yet, the page asks again with
// a PLI). The camera writes packets over payloads shared by every session
// (Server.payloads); pion sets the binding's SSRC and payload type.
type boundTrack struct {
	*webrtc.TrackLocalStaticRTP
	once  sync.Once
	bound chan struct{}
}

// Bind implements webrtc.TrackLocal.
func (t *boundTrack) Bind(c webrtc.TrackLocalContext) (webrtc.RTPCodecParameters, error) {
	p, err := t.TrackLocalStaticRTP.Bind(c)
	if err == nil {
		t.once.Do(func() { close(t.bound) })
	}
	return p, err
}

// camera is one watched camera of a session: its track, its viewer of the
// Source, the goroutine that writes access units and the one that reads
// the receiver's RTCP.
type camera struct {
	name   string
	ss     *Session
	track  *boundTrack
	sender *webrtc.RTPSender
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	reopen chan video.Source // a new Source after a caps change (latest wins)

	mu     sync.Mutex
	viewer video.Viewer
	share  int // [bit/s]

	out *stamper // this session's RTP headers; the run goroutine's alone

	frames, bytes, plis, firs, skipped, badRTCP atomic.Uint64
}

func newCamera(ss *Session, name string) (*camera, error) {
	t, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{
		MimeType: webrtc.MimeTypeH264, ClockRate: 90000, SDPFmtpLine: H264FmtpLine,
	}, name, name)
	if err != nil {
		return nil, err
	}
	c := &camera{name: name, ss: ss, track: &boundTrack{TrackLocalStaticRTP: t, bound: make(chan struct{})},
		reopen: make(chan video.Source, 1), out: newStamper()}
	c.ctx, c.cancel = context.WithCancel(ss.ctx)
	return c, nil
}

// start runs the camera on src once the track is bound.
func (c *camera) start(src video.Source) {
	c.wg.Add(2)
	go c.run(src)
	go c.readRTCP()
}

// stop ends both goroutines and closes the viewer.
func (c *camera) stop() {
	c.cancel()
	c.wg.Wait()
}

// switchTo makes the camera resubscribe to src (after a caps change).
func (c *camera) switchTo(src video.Source) {
	select {
	case <-c.reopen:
	default:
	}
	c.reopen <- src
}

func (c *camera) setShare(bps int) {
	c.mu.Lock()
	changed := bps != c.share
	c.share = bps
	v := c.viewer
	c.mu.Unlock()
	if changed && v != nil && bps > 0 {
		v.WantBitrate(bps)
	}
}

func (c *camera) setViewer(v video.Viewer) {
	c.mu.Lock()
	c.viewer = v
	share := c.share
	c.mu.Unlock()
	if v != nil && share > 0 {
		v.WantBitrate(share)
	}
}

func (c *camera) requestKeyFrame() {
	c.mu.Lock()
	v := c.viewer
	c.mu.Unlock()
	if v != nil {
		v.RequestKeyFrame()
	}
}

// run subscribes to the Source once the track is bound and writes its
// access units to the track until the camera stops.
func (c *camera) run(src video.Source) {
	defer c.wg.Done()
	select {
	case <-c.track.bound:
	case <-c.ctx.Done():
		return
	}
	for src != nil {
		src = c.serve(src)
	}
}

// serve writes src's access units; it returns the next Source to serve,
// or nil to stop.
func (c *camera) serve(src video.Source) video.Source {
	v, err := src.Subscribe(c.ss.srv.cfg.QueueDepth)
	if err != nil {
		c.ss.cameraFailed(c.name, "subscribe: "+err.Error())
		return nil
	}
	c.setViewer(v)
	shared := &c.ss.srv.payloads
	sp := shared.acquire(src)
	defer func() {
		c.setViewer(nil)
		v.Close()
		shared.release(src)
	}()
	aus := v.AccessUnits()
	var prev time.Time // capture time of the previous access unit written
	skipping := false  // skipping pictures up to the next keyframe
	asked := false     // a keyframe was asked for while skipping
	for {
		select {
		case <-c.ctx.Done():
			return nil
		case next := <-c.reopen:
			return next
		case au, ok := <-aus:
			if !ok {
				if c.ctx.Err() == nil {
					c.ss.cameraFailed(c.name, "the camera's stream stopped")
				}
				return nil
			}
			// The session is awake for this picture: read the page's
			// feedback now (whether the picture is written or skipped: a
			// congested session needs its feedback most).
			c.ss.picture()
			if !au.Key {
				// Over MaxQueueDelay: skip pictures; those after a skipped one
				// cannot be decoded, so skip up to the next keyframe, and ask for
				// one once the queue has drained (asking at once would fill it
				// with keyframes).
				congested := c.ss.congested()
				if skipping || congested {
					if !skipping {
						skipping, asked = true, false
					}
					if !asked && !congested {
						v.RequestKeyFrame()
						asked = true
					}
					c.skipped.Add(1)
					continue
				}
			}
			skipping = false
			d := sampleDuration(prev, au)
			prev = au.Capture
			if err := c.out.write(c.track, sp.of(au), d); err != nil {
				if errors.Is(err, context.Canceled) || c.ctx.Err() != nil {
					return nil
				}
				continue // a closed transport: the session's state handler ends it
			}
			c.frames.Add(1)
			c.bytes.Add(uint64(len(au.Data)))
		}
	}
}

// sampleDuration is how far the RTP clock advances after au [s]: an
// access unit is stamped with the sum of the durations written before it.
// The capture interval since the previous access unit written (up to 5 s)
// keeps the RTP timestamps on the capture clock (one interval behind) when
// pictures are skipped or late, so the page's jitter buffer does not
// drift; without usable capture times it is the nominal frame interval
// (1/30 s if none).
func sampleDuration(prev time.Time, au video.AccessUnit) time.Duration {
	if !prev.IsZero() && !au.Capture.IsZero() {
		if d := au.Capture.Sub(prev); d > 0 && d <= 5*time.Second {
			return d
		}
	}
	if au.Duration > 0 && au.Duration <= time.Second {
		return au.Duration
	}
	return time.Second / 30
}

// rtcpBuffer is the largest RTCP datagram readRTCP takes [bytes] (pion
// reads at most its receive MTU, 1460 bytes by default).
const rtcpBuffer = 8192

// readRTCP reads the receiver's feedback for this camera: PLI and FIR
// become keyframe requests (the resender answered NACKs and read the
// reception reports on their way here). It is the only reader of the
// sender's RTCP.
func (c *camera) readRTCP() {
	defer c.wg.Done()
	go func() { // Read does not take a context: unblock it
		<-c.ctx.Done()
		_ = c.sender.Stop()
	}()
	// One buffer for every read, and the packets the interceptors
	// already unmarshaled (pion's ReadRTCP allocates a buffer per read and
	// unmarshals again). A malformed datagram fails in the interceptors'
	// parsing with Read's error: it is counted and skipped, so that it
	// cannot end this camera's keyframe requests; only a closed sender or
	// session ends the loop.
	buf := make([]byte, rtcpBuffer)
	for {
		n, attr, err := c.sender.Read(buf)
		if err != nil {
			if c.ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, net.ErrClosed) {
				return
			}
			c.badRTCP.Add(1)
			continue
		}
		pkts, err := attr.GetRTCPPackets(buf[:n])
		if err != nil {
			c.badRTCP.Add(1)
			continue
		}
		for _, p := range pkts {
			switch p.(type) {
			case *rtcp.PictureLossIndication:
				c.plis.Add(1)
				c.requestKeyFrame()
			case *rtcp.FullIntraRequest:
				c.firs.Add(1)
				c.requestKeyFrame()
			}
		}
	}
}
