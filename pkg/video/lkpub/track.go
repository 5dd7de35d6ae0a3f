package lkpub

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/go-logr/logr"
	"github.com/livekit/protocol/livekit"
	protologger "github.com/livekit/protocol/logger"
	lksdk "github.com/livekit/server-sdk-go/v2"
	"github.com/pion/rtcp"
	"github.com/pion/webrtc/v4"
	"github.com/pion/webrtc/v4/pkg/media"

	"github.com/telebridge/telebridge/pkg/video"
)

// H264FmtpLine is the published codec: Constrained Baseline level 3.1,
// non-interleaved packetization (what pkg/video's encoder produces).
const H264FmtpLine = "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f"

// track is one camera published in one connection: its LiveKit track and
// its viewer of the camera's Source.
type track struct {
	cam    Camera
	c      *camCounters
	lt     *lksdk.LocalTrack
	viewer video.Viewer
}

// publish subscribes camera i's Source and publishes its track. On error
// nothing of it is left open.
func (p *Publisher) publish(room *lksdk.Room, i int) (*track, error) {
	cam := p.cfg.Cameras[i]
	v, err := cam.Source.Subscribe(p.cfg.Depth)
	if err != nil {
		return nil, fmt.Errorf("lkpub: camera %s: %w: %w", cam.Name, ErrSourceStopped, err)
	}
	if cam.Bitrate > 0 {
		v.WantBitrate(cam.Bitrate)
	}
	t := &track{cam: cam, c: p.cams[i], viewer: v}
	lt, err := lksdk.NewLocalSampleTrack(webrtc.RTPCodecCapability{
		MimeType: webrtc.MimeTypeH264, ClockRate: 90000, SDPFmtpLine: H264FmtpLine,
	}, lksdk.WithRTCPHandler(t.onRTCP))
	if err != nil {
		v.Close()
		return nil, fmt.Errorf("lkpub: camera %s: track: %w", cam.Name, err)
	}
	t.lt = lt
	// Samples written before the track is bound are dropped: a keyframe
	// as soon as it is.
	lt.OnBind(t.keyRequest)
	_, err = room.LocalParticipant.PublishTrack(lt, &lksdk.TrackPublicationOptions{
		Name: cam.Track, Source: livekit.TrackSource_CAMERA, Stream: cam.Track,
	})
	if err != nil {
		v.Close()
		_ = lt.Close()
		return nil, fmt.Errorf("lkpub: camera %s: publish track %q: %w", cam.Name, cam.Track, err)
	}
	return t, nil
}

// keyRequest asks the camera's encoder for a keyframe.
func (t *track) keyRequest() {
	t.c.keyReqs.Add(1)
	t.viewer.RequestKeyFrame()
}

// onRTCP takes the SFU's feedback: a PLI or FIR (a subscriber joined or
// lost a picture) asks the encoder for a keyframe.
func (t *track) onRTCP(pkt rtcp.Packet) {
	switch pkt.(type) {
	case *rtcp.PictureLossIndication, *rtcp.FullIntraRequest:
		t.keyRequest()
	}
}

// pump writes the camera's access units to the track until ctx ends (nil)
// or the Source stops (ErrSourceStopped). It closes the viewer.
func (t *track) pump(ctx context.Context) error {
	defer t.viewer.Close()
	for {
		select {
		case <-ctx.Done():
			return nil
		case au, ok := <-t.viewer.AccessUnits():
			if !ok {
				return fmt.Errorf("lkpub: camera %s: %w", t.cam.Name, ErrSourceStopped)
			}
			err := t.lt.WriteSample(media.Sample{Data: au.Data, Timestamp: au.Capture, Duration: au.Duration}, nil)
			if err != nil {
				t.c.werrs.Add(1)
				continue
			}
			t.c.aus.Add(1)
			t.c.bytes.Add(uint64(len(au.Data)))
			if au.Key {
				t.c.keys.Add(1)
			}
		}
	}
}

// Stats returns the counters.
func (p *Publisher) Stats() Stats {
	s := Stats{Connected: p.connected.Load(), Connects: p.connects.Load(), Resumes: p.resumes.Load(), Failures: p.failures.Load()}
	s.LastErr, _ = p.lastErr.Load().(string)
	for i, c := range p.cams {
		cam := p.cfg.Cameras[i]
		s.Cameras = append(s.Cameras, CameraStats{Name: cam.Name, Track: cam.Track, AccessUnits: c.aus.Load(),
			Keyframes: c.keys.Load(), Bytes: c.bytes.Load(), KeyRequests: c.keyReqs.Load(), WriteErrors: c.werrs.Load()})
	}
	return s
}

// setSDKLogger sends the SDK's (and its pion's) warnings and errors to l;
// its informational chatter is dropped. The SDK's logger is global: the
// last publisher to run sets it.
func setSDKLogger(l *slog.Logger) {
	h := levelFilter{Handler: l.Handler(), min: slog.LevelWarn}
	lksdk.SetLogger(protologger.LogRLogger(logr.FromSlogHandler(h)))
}

// levelFilter passes records at min or above.
type levelFilter struct {
	slog.Handler
	min slog.Level
}

func (f levelFilter) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= f.min && f.Handler.Enabled(ctx, l)
}

func (f levelFilter) WithAttrs(a []slog.Attr) slog.Handler {
	return levelFilter{Handler: f.Handler.WithAttrs(a), min: f.min}
}

func (f levelFilter) WithGroup(n string) slog.Handler {
	return levelFilter{Handler: f.Handler.WithGroup(n), min: f.min}
}
