//go:build ros2

package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/camera"
	camnode "github.com/telebridge/telebridge/pkg/camera/node"
	"github.com/telebridge/telebridge/pkg/console/graph"
	"github.com/telebridge/telebridge/pkg/mjpeg"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// cameras subscribe to each camera's image topic only while a page watches
// it, so that an unwatched camera_publisher stops streaming (it streams
// only while it has subscribers).
type cameras struct {
	n    *rosnode.Node
	cams []*rosCamera
}

// rosCamera is one camera: its MJPEG stream, its H.264 streams (nil in a
// build without H.264) and the subscription that feeds them. Only its run
// goroutine creates and closes the subscription.
type rosCamera struct {
	name           string
	topics         graph.CameraTopics // which to subscribe: camera_transport
	topic          string             // the one subscribed (run goroutine only)
	compressed     bool               // topic is sensor_msgs/CompressedImage
	stream         *mjpeg.Stream
	video          *video.Family
	mjpegN, videoN atomic.Int64
	viewers        chan int // the latest total of both kinds of viewers
}

// demand posts the total of both kinds of viewers to the run goroutine
// (latest count wins; the streams are never blocked).
func (c *rosCamera) demand() {
	select {
	case <-c.viewers:
	default:
	}
	c.viewers <- int(c.mjpegN.Load() + c.videoN.Load())
}

// cameraRetry is how often a watched camera whose topics are not on the
// graph yet is looked for again (camera_transport auto).
const cameraRetry = time.Second

func newCameras(n *rosnode.Node, cfg graph.NodeConfig, names graph.Names) (*cameras, error) {
	cs := &cameras{n: n}
	for _, name := range cfg.Cameras {
		c, err := newROSCamera(name, names.Cameras[name])
		if err != nil {
			cs.close()
			return nil, err
		}
		cs.cams = append(cs.cams, c)
	}
	return cs, nil
}

func newROSCamera(name string, topics graph.CameraTopics) (*rosCamera, error) {
	s, err := mjpeg.NewStream(name, mjpeg.Config{})
	if err != nil {
		return nil, fmt.Errorf("camera %s: %w", name, err)
	}
	c := &rosCamera{name: name, topics: topics, stream: s, viewers: make(chan int, 1)}
	s.OnViewers(func(v int) { c.mjpegN.Store(int64(v)); c.demand() })
	c.video, err = video.NewFamily(video.Config{Name: name, OnViewers: func(v int) { c.videoN.Store(int64(v)); c.demand() }}, graph.MaxVariants)
	if err != nil && !errors.Is(err, video.ErrNoH264) {
		_ = s.Close()
		return nil, fmt.Errorf("camera %s: %w", name, err)
	}
	return c, nil
}

// close closes every camera's streams.
func (cs *cameras) close() {
	for _, c := range cs.cams {
		_ = c.stream.Close()
		if c.video != nil {
			_ = c.video.Close()
		}
	}
}

// families returns each camera's H.264 streams, or why there are none.
func (cs *cameras) families() (map[string]*video.Family, string) {
	m := make(map[string]*video.Family, len(cs.cams))
	for _, c := range cs.cams {
		if c.video == nil {
			return nil, video.H264Unavailable().Error()
		}
		m[c.name] = c.video
	}
	return m, ""
}

// feed hands a received frame to the MJPEG stream and, while someone
// watches it over WebRTC, to the H.264 streams (vf is the callback's
// reused frame).
func (c *rosCamera) feed(f *camera.Frame, vf *video.Frame) {
	c.stream.Feed(f)
	if c.video != nil && c.videoN.Load() > 0 {
		*vf = video.Frame{Encoding: f.Encoding, Width: int(f.Width), Height: int(f.Height), Step: int(f.Step),
			Data: f.Data, BigEndian: f.IsBigEndian != 0, Capture: f.Header.Stamp}
		c.video.Feed(vf)
		vf.Data = nil
	}
}

func (cs *cameras) streams() map[string]*mjpeg.Stream {
	m := make(map[string]*mjpeg.Stream, len(cs.cams))
	for _, c := range cs.cams {
		m[c.name] = c.stream
	}
	return m
}

// run runs every camera until ctx ends (also without cameras: it lives as
// long as the node), then waits for their subscriptions to be closed and
// stops the encoders.
func (cs *cameras) run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, c := range cs.cams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.run(ctx, cs.n)
		}()
	}
	<-ctx.Done()
	wg.Wait()
	cs.close()
	return nil
}

// run subscribes while the stream has viewers.
func (c *rosCamera) run(ctx context.Context, n *rosnode.Node) {
	log := n.Logger()
	var (
		stop context.CancelFunc
		done chan struct{}
	)
	end := func() {
		if stop != nil {
			stop()
			<-done
			stop = nil
		}
	}
	defer end()
	retry := time.NewTimer(cameraRetry)
	retry.Stop()
	defer retry.Stop()
	watched, waiting := false, false
	start := func() {
		t, ok := c.topics.Choose(c.published(n))
		if !ok {
			if !waiting {
				log.Infof("camera %s: neither %s nor %s is published yet; looking again every %v", c.name, c.topics.Raw, c.topics.Compressed, cameraRetry)
			}
			waiting = true
			retry.Reset(cameraRetry)
			return
		}
		waiting = false
		if t.Topic != c.topic {
			log.Infof("camera %s: showing %s", c.name, t.Topic)
		}
		c.topic, c.compressed = t.Topic, t.Compressed
		var subCtx context.Context
		subCtx, stop = context.WithCancel(ctx)
		done = make(chan struct{})
		if err := c.subscribe(subCtx, n, done); err != nil {
			log.Warnf("camera %s: %v", c.name, err)
			stop()
			stop = nil
		}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-retry.C:
			if watched && stop == nil {
				start()
			}
		case v := <-c.viewers:
			watched = v > 0
			switch {
			case watched && stop == nil:
				start()
			case !watched:
				end()
			}
		}
	}
}

// published reports whether the camera's raw and compressed image topics
// have publishers on the graph now (camera_transport auto); a subscriber
// alone does not count. A graph query that fails counts as none.
func (c *rosCamera) published(n *rosnode.Node) (raw, compressed bool) {
	has := func(topic string) bool {
		pubs, err := n.Node.GetPublishersInfoByTopic(topic, true) // ROS names, mangled for DDS
		return err == nil && len(pubs) > 0
	}
	return has(c.topics.Raw), has(c.topics.Compressed)
}

// subscribe creates the image subscription with a wait set of its own
// (rclgo's node-wide wait set takes its resources once, when spinning
// starts) and closes it when ctx ends, then closes done.
func (c *rosCamera) subscribe(ctx context.Context, n *rosnode.Node, done chan struct{}) error {
	var f camera.Frame
	var vf video.Frame
	var sub *rclgo.Subscription
	if c.compressed {
		var bad error // the last refused message's reason, logged once per kind
		s, err := sensor_msgs_msg.NewCompressedImageSubscription(n.Node, c.topic, rosnode.SubOpts(camnode.ImageSubQoS),
			func(m *sensor_msgs_msg.CompressedImage, _ *rclgo.MessageInfo, err error) {
				if err != nil {
					return
				}
				stamp := time.Unix(int64(m.Header.Stamp.Sec), int64(m.Header.Stamp.Nanosec))
				if err := graph.CompressedFrame(&f, stamp, m.Header.FrameId, m.Format, m.Data); err != nil {
					if bad == nil || bad.Error() != err.Error() {
						n.Logger().Warnf("camera %s: %v", c.name, err)
					}
					bad = err
					return
				}
				c.feed(&f, &vf)
				f.Data = nil
			})
		if err != nil {
			return fmt.Errorf("subscribe %s: %w", c.topic, err)
		}
		sub = s.Subscription
	} else {
		s, err := sensor_msgs_msg.NewImageSubscription(n.Node, c.topic, rosnode.SubOpts(camnode.ImageSubQoS),
			func(m *sensor_msgs_msg.Image, _ *rclgo.MessageInfo, err error) {
				if err != nil {
					return
				}
				f = camera.Frame{
					Header: camera.Header{Stamp: time.Unix(int64(m.Header.Stamp.Sec), int64(m.Header.Stamp.Nanosec)), FrameID: m.Header.FrameId},
					Height: m.Height, Width: m.Width, Encoding: m.Encoding, IsBigEndian: m.IsBigendian, Step: m.Step, Data: m.Data,
				}
				c.feed(&f, &vf)
			})
		if err != nil {
			return fmt.Errorf("subscribe %s: %w", c.topic, err)
		}
		sub = s.Subscription
	}
	ws, err := n.Node.Context().NewWaitSet()
	if err != nil {
		_ = sub.Close()
		return fmt.Errorf("wait set for %s: %w", c.topic, err)
	}
	ws.AddSubscriptions(sub)
	go func() {
		defer close(done)
		_ = ws.Run(ctx)
		_ = ws.Close()
		_ = sub.Close()
	}()
	return nil
}
