//go:build ros2

// Command camera_publisher is the ROS 2 node of the robot's V4L2 cameras:
// several cameras in one process, each publishing <camera>/image_raw in the
// camera's native encoding and <camera>/image_raw/compressed (JPEG: a MJPG
// camera's own frames, else encoded at jpeg_quality) and
// <camera>/camera_info, each only while someone subscribes, optionally
// streaming H.264 over RTP while the node runs (rtp_to), with a
// <camera>/set_camera_info service, V4L2 controls as parameters and
// per-camera /diagnostics. Every decision is in pkg/camera and its
// contract in pkg/camera/node; this file wires them to rclgo.
// Parameters: params/camera_publisher.yaml.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	diagnostic_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/diagnostic_msgs/msg"
	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	sensor_msgs_srv "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/srv"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/node"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/rate"
	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

func main() {
	// The camera list must be known before the parameter table can be
	// declared: plan the node from the command line first.
	plan, err := planFromArgs(os.Args[1:])
	if err != nil {
		rosnode.Exit(node.Name, err)
	}
	rosnode.Run(rosnode.Spec[node.NodePlan]{
		Name: node.Name, Table: plan.Table, Publishers: node.Publishers(plan.Config.Cameras),
		Load: func(*rosparam.Store) (node.NodePlan, error) { return plan, nil },
	}, setup)
}

// setup creates every camera with its publishers and service, and the
// loop that polls their subscribers and reports their diagnostics.
func setup(n *rosnode.Node, plan node.NodePlan) error {
	log := n.Logger()
	for _, w := range plan.Warnings {
		log.Warnf("%s", w)
	}
	cams := make([]*cameraNode, len(plan.Names))
	for i, cfg := range plan.Config.Cameras {
		c, err := newCameraNode(n, cfg)
		if err != nil {
			return err
		}
		cams[i] = c
		if err := c.setOutput(plan.Config.Outputs[i]); err != nil {
			return err
		}
		if c.rtp != nil {
			n.Go("rtp "+cfg.Name, func(ctx context.Context) error { return c.rtp.run(ctx, log) })
		}
		kind := "image_raw and image_raw/compressed (jpeg encoded only while subscribed)"
		if c.compressed {
			kind = "image_raw/compressed"
		}
		test := ""
		if camera.IsPattern(cfg.Device) {
			test = " (synthetic TEST source, no device)"
		}
		when := "streaming only while subscribed"
		if out := plan.Config.Outputs[i]; out.RTP() {
			when = "streaming all the time for RTP to " + out.RTPTo
		}
		log.Infof("camera %s: %s%s, %s %dx%d at %g Hz -> %s/%s, %s",
			cfg.Name, cfg.Device, test, cfg.PixelFormat, cfg.Width, cfg.Height, cfg.FrameRate, cfg.Name, kind, when)
	}
	diagPub, err := diagnostic_msgs_msg.NewDiagnosticArrayPublisher(n.Node, node.TopicDiagnostics, rosnode.PubOpts(node.QoSDiagnostics))
	if err != nil {
		return fmt.Errorf("publisher %s: %w", node.TopicDiagnostics, err)
	}
	// Only control parameters are settable; hand them to the capture
	// goroutines (SetControl never blocks).
	n.Live(nil, func(update []rosparam.Parameter) {
		for _, ch := range node.ControlChanges(update, plan.Names) {
			if c := cams[ch.Camera]; c != nil {
				c.cam.SetControl(ch.Control, ch.Value)
			}
		}
		for _, ch := range node.QualityChanges(update, plan.Names) {
			if c := cams[ch.Camera]; c != nil {
				_ = c.jpeg.SetQuality(ch.Quality) // range-checked by the table
			}
		}
	})
	n.Go("cameras", func(ctx context.Context) error {
		var wg sync.WaitGroup
		for _, c := range cams {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = c.cam.Run(ctx) // returns nil when ctx ends; device errors are retried inside
			}()
		}
		<-ctx.Done()
		wg.Wait() // every stream off and device closed
		return nil
	})
	// Poll the subscription counts into each camera's Demand, and report
	// diagnostics at their period.
	n.Go("subscriber poll", func(ctx context.Context) error {
		lastDiag := time.Now()
		return rate.Run(ctx, node.SubscriberPoll, func(t rate.Tick) error {
			for _, c := range cams {
				c.pollSubscribers(log)
			}
			if now := time.Now(); now.Sub(lastDiag) >= node.DiagnosticsPeriod {
				statuses := make([]diag.Status, len(cams))
				for i, c := range cams {
					statuses[i] = c.diagnose(now, now.Sub(lastDiag))
				}
				lastDiag = now
				if err := diagPub.Publish(rosnode.Diagnostics(n.FullyQualifiedName(), n.Now(), statuses...)); err != nil {
					log.Warnf("publish diagnostics: %v", err)
				}
			}
			return nil
		})
	})
	n.Finally(func() { log.Infof("cameras closed; shutting down") })
	return nil
}

// planFromArgs reads the start-up overrides for this node (its name and
// namespace after remapping) and plans the node from them: the camera
// list must be known before the parameter table can be declared.
func planFromArgs(args []string) (node.NodePlan, error) {
	a, err := rosparam.ParseArgs(args)
	if err != nil {
		return node.NodePlan{}, err
	}
	name, ns := a.ResolveNode(node.Name, "")
	over := a.Overrides.For(rosparam.FullyQualifiedName(ns, name))
	return node.PlanNode(over, camera.ProbeControls)
}

// cameraNode is one camera with its publishers and reused messages.
type cameraNode struct {
	cfg        camera.Config
	cam        *camera.Camera
	info       *node.InfoManager
	msgs       *node.Messages
	compressed bool

	image     *sensor_msgs_msg.ImagePublisher
	comp      *sensor_msgs_msg.CompressedImagePublisher
	infoPub   *sensor_msgs_msg.CameraInfoPublisher
	imageMsg  *sensor_msgs_msg.Image
	compMsg   *sensor_msgs_msg.CompressedImage
	infoMsg   *sensor_msgs_msg.CameraInfo
	subs      [2]int
	jpeg      *node.Compressor // image_raw/compressed of raw formats
	wants     wantsBox         // subscription counts for the capture goroutine
	rtp       *rtpOut          // nil without rtp_to
	publishMu sync.Mutex       // guards lastErr
	lastErr   error

	prev   camera.Stats // at the previous diagnostics
	prevAt time.Time
}

func newCameraNode(n *rosnode.Node, cfg camera.Config) (*cameraNode, error) {
	log := n.Logger()
	info, err := node.NewInfoManager(cfg.Name, cfg.CameraInfoURL, nil)
	if err != nil {
		log.Warnf("camera %s: %v (publishing uncalibrated camera info)", cfg.Name, err)
	}
	f, err := wire.ParsePixelFormat(cfg.PixelFormat)
	if err != nil {
		return nil, err
	}
	c := &cameraNode{
		cfg: cfg, info: info, msgs: node.NewMessages(info), compressed: f.Compressed,
		imageMsg: sensor_msgs_msg.NewImage(), compMsg: sensor_msgs_msg.NewCompressedImage(),
		infoMsg: sensor_msgs_msg.NewCameraInfo(), prevAt: time.Now(),
	}
	topics := node.TopicsFor(cfg.Name)
	// Images and camera_info take qos_overrides (node.Publishers).
	if c.compressed {
		opts, err := n.PublisherOpts(topics.Compressed)
		if err != nil {
			return nil, err
		}
		if c.comp, err = sensor_msgs_msg.NewCompressedImagePublisher(n.Node, topics.Compressed, opts); err != nil {
			return nil, fmt.Errorf("publisher %s: %w", topics.Compressed, err)
		}
	} else {
		opts, err := n.PublisherOpts(topics.Image)
		if err != nil {
			return nil, err
		}
		if c.image, err = sensor_msgs_msg.NewImagePublisher(n.Node, topics.Image, opts); err != nil {
			return nil, fmt.Errorf("publisher %s: %w", topics.Image, err)
		}
	}
	infoOpts, err := n.PublisherOpts(topics.CameraInfo)
	if err != nil {
		return nil, err
	}
	if !c.compressed { // raw formats: their JPEG too
		compOpts, err := n.PublisherOpts(topics.Compressed)
		if err != nil {
			return nil, err
		}
		if c.comp, err = sensor_msgs_msg.NewCompressedImagePublisher(n.Node, topics.Compressed, compOpts); err != nil {
			return nil, fmt.Errorf("publisher %s: %w", topics.Compressed, err)
		}
	}
	if c.infoPub, err = sensor_msgs_msg.NewCameraInfoPublisher(n.Node, topics.CameraInfo, infoOpts); err != nil {
		return nil, fmt.Errorf("publisher %s: %w", topics.CameraInfo, err)
	}
	srv := node.ServiceSetCameraInfo(cfg.Name)
	_, err = sensor_msgs_srv.NewSetCameraInfoService(n.Node, srv, rosnode.SrvOpts(node.QoSSetCameraInfo),
		func(_ *rclgo.ServiceInfo, req *sensor_msgs_srv.SetCameraInfo_Request, send sensor_msgs_srv.SetCameraInfoServiceResponseSender) {
			resp := sensor_msgs_srv.NewSetCameraInfo_Response()
			if err := info.Set(fromMsgInfo(&req.CameraInfo)); err != nil {
				resp.StatusMessage = err.Error()
				log.Warnf("%s: %v", srv, err)
			} else {
				resp.Success, resp.StatusMessage = true, "camera info set"
				log.Infof("%s: camera info set", srv)
			}
			if err := send.SendResponse(resp); err != nil {
				log.Warnf("%s response: %v", srv, err)
			}
		})
	if err != nil {
		return nil, fmt.Errorf("service %s: %w", srv, err)
	}
	if c.cam, err = camera.New(cfg, c.publish); err != nil {
		return nil, err
	}
	return c, nil
}

// publish runs on the camera's capture goroutine for every frame. The
// message borrows the driver's buffer (Messages.Lend); rclgo's Publish
// converts it into C memory before returning, which is the one copy of the
// image bytes, done while the buffer is still dequeued.
func (c *cameraNode) publish(f *camera.Frame) {
	var err error
	w := c.wants.load(c.rtp.live())
	if w.RTP {
		c.rtp.feed(f)
	}
	// Each topic only while subscribed: the camera may stream for another
	// topic, camera_info or RTP alone.
	if compressed := c.msgs.Lend(f); compressed && w.Compressed > 0 {
		m := &c.msgs.Compressed
		c.compMsg.Header = rosnode.Header(m.Header.Stamp, m.Header.FrameID)
		c.compMsg.Format, c.compMsg.Data = m.Format, m.Data
		err = c.comp.Publish(c.compMsg)
		c.compMsg.Data = nil
	} else if !compressed && w.Raw > 0 {
		m := &c.msgs.Image
		c.imageMsg.Header = rosnode.Header(m.Header.Stamp, m.Header.FrameID)
		c.imageMsg.Height, c.imageMsg.Width, c.imageMsg.Step = m.Height, m.Width, m.Step
		c.imageMsg.Encoding, c.imageMsg.IsBigendian = m.Encoding, m.IsBigEndian
		c.imageMsg.Data = m.Data
		err = c.image.Publish(c.imageMsg)
		c.imageMsg.Data = nil
	}
	c.msgs.Release()
	if err == nil && !f.Compressed && w.Compressed > 0 {
		err = c.publishJPEG(f)
	}
	if err == nil {
		toMsgInfo(c.infoMsg, &c.msgs.Info)
		err = c.infoPub.Publish(c.infoMsg)
	}
	if err != nil {
		c.publishMu.Lock()
		c.lastErr = err
		c.publishMu.Unlock()
	}
}

// pollSubscribers hands the current subscription counts to the camera.
func (c *cameraNode) pollSubscribers(log *rclgo.Logger) {
	var raw, comp int
	var err, err1 error
	comp, err = c.comp.GetSubscriptionCount()
	if !c.compressed {
		raw, err1 = c.image.GetSubscriptionCount()
	}
	infos, err2 := c.infoPub.GetSubscriptionCount()
	if err = errors.Join(err, err1, err2); err != nil {
		log.Warnf("camera %s: subscription count: %v", c.cfg.Name, err)
		return
	}
	w := node.Wants{Raw: raw, Compressed: comp, Info: infos, RTP: c.rtp.live()}
	c.wants.store(w)
	images := w.Images()
	if images != c.subs[0] || infos != c.subs[1] {
		log.Infof("camera %s: %d image_raw, %d image_raw/compressed and %d camera_info subscribers", c.cfg.Name, raw, comp, infos)
	}
	c.subs = [2]int{images, infos}
	c.cam.SetSubscribers(images, infos)
}

func (c *cameraNode) diagnose(now time.Time, dt time.Duration) diag.Status {
	neg, open := c.cam.Negotiated()
	h := node.Health{
		Config: c.cfg, Negotiated: neg, Open: open, Err: c.cam.Err(), ControlErr: c.cam.ControlErr(),
		Streaming: c.subs[0]+c.subs[1] > 0, Stats: c.cam.Stats(),
	}
	s := node.Diagnose(h, c.prev, dt)
	if c.rtp != nil {
		c.rtp.diagnose(&s)
	}
	c.prev, c.prevAt = h.Stats, now
	c.publishMu.Lock()
	if c.lastErr != nil {
		s.Raise(diag.Warn, "publish: "+c.lastErr.Error())
		c.lastErr = nil
	}
	c.publishMu.Unlock()
	return s
}

func toMsgInfo(dst *sensor_msgs_msg.CameraInfo, ci *node.CameraInfo) {
	dst.Header = rosnode.Header(ci.Header.Stamp, ci.Header.FrameID)
	dst.Height, dst.Width = ci.Height, ci.Width
	dst.DistortionModel = ci.DistortionModel
	dst.D = ci.D // read only by Publish
	dst.K, dst.R, dst.P = ci.K, ci.R, ci.P
	dst.BinningX, dst.BinningY = ci.BinningX, ci.BinningY
	dst.Roi = sensor_msgs_msg.RegionOfInterest{
		XOffset: ci.ROI.XOffset, YOffset: ci.ROI.YOffset, Height: ci.ROI.Height, Width: ci.ROI.Width, DoRectify: ci.ROI.DoRectify,
	}
}

func fromMsgInfo(m *sensor_msgs_msg.CameraInfo) node.CameraInfo {
	return node.CameraInfo{
		Height: m.Height, Width: m.Width, DistortionModel: m.DistortionModel,
		D: append([]float64(nil), m.D...), K: m.K, R: m.R, P: m.P,
		BinningX: m.BinningX, BinningY: m.BinningY,
		ROI: node.RegionOfInterest{XOffset: m.Roi.XOffset, YOffset: m.Roi.YOffset, Height: m.Roi.Height, Width: m.Roi.Width, DoRectify: m.Roi.DoRectify},
	}
}

// setOutput sets up the camera's JPEG encoder and RTP stream (before
// the camera runs).
func (c *cameraNode) setOutput(out node.Output) error {
	var err error
	if c.jpeg, err = node.NewCompressor(out.JPEGQuality); err != nil {
		return fmt.Errorf("camera %s: %w", c.cfg.Name, err)
	}
	if out.RTP() {
		c.rtp, err = newRTP(c.cfg, out)
	}
	return err
}
