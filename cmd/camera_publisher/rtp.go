//go:build ros2

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/node"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/rtph264"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// rtpOut streams one camera as H.264 over RTP while the node runs (the
// camera's rtp_to): the capture goroutine feeds its frames to a
// video.Stream, whose one viewer is the RTP sender (the same encoder and
// packetizer as `telebridge rtp`).
type rtpOut struct {
	name   string
	out    node.Output
	fps    float64
	stream *video.Stream
	snd    *rtph264.Sender
	frame  video.Frame // reused; the capture goroutine only
	sdpOK  atomic.Bool // the SDP was written (or logged)
	ended  atomic.Bool // run returned: the camera no longer captures for RTP
	mu     sync.Mutex
	err    error // the sender's last fatal error
}

// newRTP opens the encoder's stream and the sender's socket of camera
// cfg; the sender starts with run.
func newRTP(cfg camera.Config, out node.Output) (*rtpOut, error) {
	s, err := video.NewStream(video.Config{Name: cfg.Name, FrameRate: cfg.FrameRate, Bitrate: out.RTPBitrate,
		MinBitrate: min(out.RTPBitrate, video.DefaultMinBitrate), MaxBitrate: max(out.RTPBitrate, video.DefaultMaxBitrate)})
	if err != nil {
		return nil, fmt.Errorf("camera %s: rtp: %w", cfg.Name, err)
	}
	snd, err := rtph264.Dial(rtph264.Config{Dest: out.RTPTo})
	if err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("camera %s: %w", cfg.Name, err)
	}
	return &rtpOut{name: cfg.Name, out: out, fps: cfg.FrameRate, stream: s, snd: snd}, nil
}

// live reports whether the stream still wants frames (r may be nil: no
// RTP).
func (r *rtpOut) live() bool { return r != nil && !r.ended.Load() }

// feed hands a captured frame to the encoder (on the capture goroutine;
// the frame is lent for the call, Feed converts it before returning).
func (r *rtpOut) feed(f *camera.Frame) {
	r.frame = video.Frame{Encoding: f.Encoding, Width: int(f.Width), Height: int(f.Height), Step: int(f.Step),
		Data: f.Data, BigEndian: f.IsBigEndian != 0, Capture: f.Header.Stamp}
	r.stream.Feed(&r.frame)
	r.frame.Data = nil
}

// run sends until ctx ends, then closes the stream and the socket. The
// SDP is written once the first keyframe is out. A failure is logged and
// reported in diagnostics; the node keeps publishing on ROS.
func (r *rtpOut) run(ctx context.Context, log *rclgo.Logger) error {
	defer func() {
		r.ended.Store(true)
		_ = r.stream.Close()
		_ = r.snd.Close()
	}()
	v, err := r.stream.Subscribe(64)
	if err != nil {
		r.fail(log, err)
		return nil
	}
	defer v.Close()
	log.Infof("camera %s: RTP H.264 %d bit/s to %s; waiting for the first keyframe", r.name, r.out.RTPBitrate, r.snd.Dest())
	err = r.snd.Run(ctx, v, func(au video.AccessUnit) {
		if r.sdpOK.Load() {
			return
		}
		r.sdpOK.Store(true)
		if err := r.writeSDP(au, log); err != nil {
			r.fail(log, err)
		}
	})
	if err != nil && !errors.Is(err, rtph264.ErrStopped) {
		r.fail(log, err)
	}
	return nil
}

// writeSDP writes the session description (with the keyframe's SPS and
// PPS) to rtp_sdp, or logs it when rtp_sdp is empty.
func (r *rtpOut) writeSDP(au video.AccessUnit, log *rclgo.Logger) error {
	d := r.snd.Description(r.name, r.fps)
	if err := d.ParseKeyframe(au.Data); err != nil {
		return fmt.Errorf("rtp sdp: %w", err)
	}
	b, err := d.Marshal()
	if err != nil {
		return fmt.Errorf("rtp sdp: %w", err)
	}
	if r.out.RTPSDP == "" {
		log.Infof("camera %s: RTP session description:\n%s", r.name, b)
		return nil
	}
	// Write a temporary file and rename it, so that a reader never sees
	// half an SDP.
	tmp := r.out.RTPSDP + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("rtp sdp: %w", err)
	}
	if err := os.Rename(tmp, r.out.RTPSDP); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("rtp sdp: %w", err)
	}
	log.Infof("camera %s: RTP SDP in %s; open it with: ffplay -protocol_whitelist file,udp,rtp -fflags nobuffer %s",
		r.name, r.out.RTPSDP, r.out.RTPSDP)
	return nil
}

func (r *rtpOut) fail(log *rclgo.Logger, err error) {
	log.Errorf("camera %s: rtp: %v", r.name, err)
	r.mu.Lock()
	r.err = err
	r.mu.Unlock()
}

// diagnose adds the RTP stream's figures to the camera's status: Warn on
// an encoder or socket error, Error when the sender stopped.
func (r *rtpOut) diagnose(s *diag.Status) {
	st, vs := r.snd.Stats(), r.stream.Stats()
	s.Add("rtp destination", r.snd.Dest().String())
	s.Add("rtp bitrate [bit/s]", vs.Bitrate)
	s.Add("rtp access units", st.AccessUnits)
	s.Add("rtp keyframes", st.Keyframes)
	s.Add("rtp bytes", st.Bytes)
	s.Add("rtp write errors", st.WriteErrors)
	s.Add("rtp sdp written", r.sdpOK.Load())
	if vs.LastErr != "" {
		s.Raise(diag.Warn, "rtp encoder: "+vs.LastErr)
	}
	if st.LastErr != "" {
		s.Raise(diag.Warn, "rtp send: "+st.LastErr)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		s.Raise(diag.Error, "rtp stopped: "+r.err.Error())
	}
}
