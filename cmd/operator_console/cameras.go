//go:build ros2

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/camera"
	camnode "github.com/telebridge/telebridge/pkg/camera/node"
	"github.com/telebridge/telebridge/pkg/console/graph"
	"github.com/telebridge/telebridge/pkg/mjpeg"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

// cameras subscribe to each camera's image topic only while a page watches
// it, so that an unwatched camera_publisher stops streaming (it streams
// only while it has subscribers).
type cameras struct {
	n    *rosnode.Node
	cams []*rosCamera
}

// rosCamera is one camera: its MJPEG stream and the subscription that
// feeds it. Only its run goroutine creates and closes the subscription.
type rosCamera struct {
	name       string
	topics     graph.CameraTopics // which to subscribe: camera_transport
	topic      string             // the one subscribed (run goroutine only)
	compressed bool               // topic is sensor_msgs/CompressedImage
	stream     *mjpeg.Stream
	viewers    chan int
}

// cameraRetry is how often a watched camera whose topics are not on the
// graph yet is looked for again (camera_transport auto).
const cameraRetry = time.Second

func newCameras(n *rosnode.Node, cfg graph.NodeConfig, names graph.Names) (*cameras, error) {
	cs := &cameras{n: n}
	for _, name := range cfg.Cameras {
		s, err := mjpeg.NewStream(name, mjpeg.Config{})
		if err != nil {
			for _, c := range cs.cams {
				_ = c.stream.Close()
			}
			return nil, fmt.Errorf("camera %s: %w", name, err)
		}
		c := &rosCamera{name: name, topics: names.Cameras[name], stream: s, viewers: make(chan int, 1)}
		s.OnViewers(func(v int) {
			// Latest count wins; the run goroutine never blocks the stream.
			select {
			case <-c.viewers:
			default:
			}
			c.viewers <- v
		})
		cs.cams = append(cs.cams, c)
	}
	return cs, nil
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
	for _, c := range cs.cams {
		_ = c.stream.Close()
	}
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
	var sub *rclgo.Subscription
	if c.compressed {
		var bad error // the last refused message's reason, logged once per kind
		s, err := sensor_msgs_msg.NewCompressedImageSubscription(n.Node, c.topic, rosnode.SubOpts(camnode.ImageQoS),
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
				c.stream.Feed(&f)
				f.Data = nil
			})
		if err != nil {
			return fmt.Errorf("subscribe %s: %w", c.topic, err)
		}
		sub = s.Subscription
	} else {
		s, err := sensor_msgs_msg.NewImageSubscription(n.Node, c.topic, rosnode.SubOpts(camnode.ImageQoS),
			func(m *sensor_msgs_msg.Image, _ *rclgo.MessageInfo, err error) {
				if err != nil {
					return
				}
				f = camera.Frame{
					Header: camera.Header{Stamp: time.Unix(int64(m.Header.Stamp.Sec), int64(m.Header.Stamp.Nanosec)), FrameID: m.Header.FrameId},
					Height: m.Height, Width: m.Width, Encoding: m.Encoding, IsBigEndian: m.IsBigendian, Step: m.Step, Data: m.Data,
				}
				c.stream.Feed(&f)
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
