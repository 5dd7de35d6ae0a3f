package direct

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/console"
)

// StreamConfig configures the JPEG encoding of the camera streams.
//
// This is the console's own minimal stream, a seam for pkg/mjpeg (branch
// mjpeg, not merged yet): it encodes YUYV and GREY frames to JPEG only
// while someone watches, at most Rate times a second, and passes MJPG
// through.
type StreamConfig struct {
	// Rate is the largest encoded frame rate [Hz]. Default 10.
	Rate float64
	// Quality is the JPEG quality, 1..100. Default 75.
	Quality int
}

// cam is one camera and its stream.
type cam struct {
	name   string
	dev    *camera.Camera
	stream *stream
}

func (b *Backend) startCamera(ctx context.Context, i int, dev string) error {
	name := cameraName(i, dev)
	st := newStream(b.cfg.Stream)
	c, err := camera.New(camera.Config{Name: name, Device: dev, Width: b.cfg.CameraWidth, Height: b.cfg.CameraHeight, FrameRate: b.cfg.CameraRate}, st.feed)
	if err != nil {
		return fmt.Errorf("camera %s: %w", dev, err)
	}
	// Nobody watching: the camera does not stream at all.
	st.onViewers = func(n int) { c.SetSubscribers(n, 0) }
	b.cams = append(b.cams, &cam{name: name, dev: c, stream: st})
	b.goRun("camera "+name, &b.wg, func() error { return c.Run(ctx) })
	return nil
}

func (c *cam) state() console.CameraState {
	s := c.stream
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	out := console.CameraState{Name: c.name, Width: s.width, Height: s.height, Format: s.format, Viewers: s.viewers}
	if dt := now.Sub(s.winStart).Seconds(); dt > 0.5 {
		out.InFPS, out.OutFPS, out.BytesSec = float64(s.winIn)/dt, float64(s.winOut)/dt, float64(s.winBytes)/dt
		s.lastIn, s.lastOut, s.lastBytes = out.InFPS, out.OutFPS, out.BytesSec
		s.winStart, s.winIn, s.winOut, s.winBytes = now, 0, 0, 0
	} else {
		out.InFPS, out.OutFPS, out.BytesSec = s.lastIn, s.lastOut, s.lastBytes
	}
	if s.viewers == 0 {
		out.InFPS, out.OutFPS, out.BytesSec = 0, 0, 0
	}
	return out
}

// stream holds the latest JPEG of one camera and serves it as MJPEG.
type stream struct {
	cfg       StreamConfig
	onViewers func(int)
	mu        sync.Mutex
	viewers   int
	lastEnc   time.Time
	jpg       []byte        // latest JPEG; replaced, never modified
	seq       uint64        // JPEGs produced
	ready     chan struct{} // closed when a new JPEG is there
	buf       bytes.Buffer
	img       *image.YCbCr
	gray      *image.Gray
	width     int
	height    int
	format    string
	winStart  time.Time
	winIn     int
	winOut    int
	winBytes  int
	lastIn    float64
	lastOut   float64
	lastBytes float64
}

func newStream(cfg StreamConfig) *stream {
	if cfg.Rate <= 0 {
		cfg.Rate = 10
	}
	if cfg.Quality <= 0 || cfg.Quality > 100 {
		cfg.Quality = 75
	}
	return &stream{cfg: cfg, ready: make(chan struct{}), winStart: time.Now()}
}

// feed is the camera's FrameFunc: it runs on the capture goroutine.
func (s *stream) feed(f *camera.Frame) {
	s.mu.Lock()
	s.winIn++
	s.width, s.height = int(f.Width), int(f.Height)
	s.format = f.Encoding
	if s.viewers == 0 || time.Since(s.lastEnc) < time.Duration(float64(time.Second)/s.cfg.Rate) {
		s.mu.Unlock()
		return
	}
	s.lastEnc = time.Now()
	s.mu.Unlock()
	// Only the capture goroutine encodes: buf and img are its own.
	var out []byte
	if f.Compressed {
		out = append([]byte(nil), f.Data...) // MJPG passes through
	} else if img := s.toImage(f); img != nil {
		s.buf.Reset()
		if err := jpeg.Encode(&s.buf, img, &jpeg.Options{Quality: s.cfg.Quality}); err != nil {
			return
		}
		out = append([]byte(nil), s.buf.Bytes()...)
	} else {
		return
	}
	s.mu.Lock()
	s.jpg = out
	s.seq++
	s.winOut++
	s.winBytes += len(out)
	close(s.ready)
	s.ready = make(chan struct{})
	s.mu.Unlock()
}

// toImage wraps a YUYV or mono8 frame as an image without colour
// conversion (YUYV is 4:2:2 Y'CbCr; JPEG encodes it directly).
func (s *stream) toImage(f *camera.Frame) image.Image {
	w, h := int(f.Width), int(f.Height)
	switch f.Encoding {
	case "yuv422_yuy2":
		if len(f.Data) < w*h*2 || w%2 != 0 {
			return nil
		}
		if s.img == nil || s.img.Rect.Dx() != w || s.img.Rect.Dy() != h {
			s.img = image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio422)
		}
		y, cb, cr := s.img.Y, s.img.Cb, s.img.Cr
		for row := range h {
			src := f.Data[row*int(f.Step) : row*int(f.Step)+w*2]
			yo, co := row*s.img.YStride, row*s.img.CStride
			for x := 0; x < w; x += 2 {
				p := src[x*2 : x*2+4]
				y[yo+x], cb[co+x/2], y[yo+x+1], cr[co+x/2] = p[0], p[1], p[2], p[3]
			}
		}
		return s.img
	case "mono8":
		if len(f.Data) < w*h {
			return nil
		}
		if s.gray == nil || s.gray.Rect.Dx() != w || s.gray.Rect.Dy() != h {
			s.gray = image.NewGray(image.Rect(0, 0, w, h))
		}
		for row := range h {
			copy(s.gray.Pix[row*w:(row+1)*w], f.Data[row*int(f.Step):])
		}
		return s.gray
	}
	return nil
}

func (s *stream) addViewer(d int) {
	s.mu.Lock()
	if s.viewers == 0 {
		// Rates count from the first viewer, not across the idle time.
		s.winStart, s.winIn, s.winOut, s.winBytes = time.Now(), 0, 0, 0
	}
	s.viewers += d
	n := s.viewers
	s.mu.Unlock()
	if s.onViewers != nil {
		s.onViewers(n)
	}
}

// ServeHTTP streams multipart/x-mixed-replace JPEGs until the client goes.
func (s *stream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	const boundary = "telebridgeframe"
	w.Header().Set("Content-Type", "multipart/x-mixed-replace; boundary="+boundary)
	w.Header().Set("Cache-Control", "no-store")
	s.addViewer(1)
	defer s.addViewer(-1)
	rc := http.NewResponseController(w)
	var sent uint64
	for {
		s.mu.Lock()
		jpg, seq, ready := s.jpg, s.seq, s.ready
		s.mu.Unlock()
		if seq != sent && jpg != nil {
			sent = seq
			if _, err := fmt.Fprintf(w, "--%s\r\nContent-Type: image/jpeg\r\nContent-Length: %s\r\n\r\n", boundary, strconv.Itoa(len(jpg))); err != nil {
				return
			}
			if _, err := w.Write(jpg); err != nil {
				return
			}
			if _, err := w.Write([]byte("\r\n")); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
		}
		select {
		case <-r.Context().Done():
			return
		case <-ready:
		}
	}
}
