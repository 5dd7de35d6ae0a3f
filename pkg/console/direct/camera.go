package direct

import (
	"context"
	"fmt"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/mjpeg"
)

// cam is one camera and its MJPEG stream.
type cam struct {
	name   string
	dev    *camera.Camera
	stream *mjpeg.Stream
}

func (b *Backend) startCamera(ctx context.Context, i int, dev string) error {
	name := cameraName(i, dev)
	st, err := mjpeg.NewStream(name, b.cfg.Stream)
	if err != nil {
		return fmt.Errorf("camera %s: %w", dev, err)
	}
	c, err := camera.New(camera.Config{Name: name, Device: dev, Width: b.cfg.CameraWidth, Height: b.cfg.CameraHeight, FrameRate: b.cfg.CameraRate}, st.Feed)
	if err != nil {
		_ = st.Close()
		return fmt.Errorf("camera %s: %w", dev, err)
	}
	// Nobody watching: the camera does not stream at all.
	st.OnViewers(func(n int) { c.SetSubscribers(n, 0) })
	b.cams = append(b.cams, &cam{name: name, dev: c, stream: st})
	b.goRun("camera "+name, &b.wg, func() error {
		defer st.Close()
		return c.Run(ctx)
	})
	return nil
}

func (c *cam) state() console.CameraState {
	s := c.stream.Stats()
	out := console.CameraState{Name: c.name, Width: s.Width, Height: s.Height, Format: s.InputEncoding,
		Viewers: s.Viewers, OutFPS: s.FPS, BytesSec: s.BytesPerSec}
	if s.Width == 0 {
		out.Width, out.Height = s.InputWidth, s.InputHeight
	}
	if n, ok := c.dev.Negotiated(); ok {
		out.InFPS = n.FrameRate
		if out.Format == "" {
			out.Format = n.Encoding
		}
		if out.Width == 0 {
			out.Width, out.Height = int(n.Width), int(n.Height)
		}
	}
	return out
}
