//go:build ros2

package main

import (
	"sync/atomic"

	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/node"
)

// wantsBox carries the latest subscription counts from the poll to the
// capture goroutine, which reads them per frame.
type wantsBox struct{ raw, compressed, info atomic.Int32 }

func (b *wantsBox) store(w node.Wants) {
	b.raw.Store(int32(w.Raw))
	b.compressed.Store(int32(w.Compressed))
	b.info.Store(int32(w.Info))
}

func (b *wantsBox) load(rtp bool) node.Wants {
	return node.Wants{Raw: int(b.raw.Load()), Compressed: int(b.compressed.Load()), Info: int(b.info.Load()), RTP: rtp}
}

// publishJPEG encodes a raw frame to image_raw/compressed (on the capture
// goroutine, only while that topic has a subscriber). rclgo's Publish
// copies the encoder's bytes before returning.
func (c *cameraNode) publishJPEG(f *camera.Frame) error {
	err := c.jpeg.Compress(f)
	if err == nil {
		m := &c.jpeg.Msg
		c.compMsg.Header = rosnode.Header(m.Header.Stamp, m.Header.FrameID)
		c.compMsg.Format, c.compMsg.Data = m.Format, m.Data
		err = c.comp.Publish(c.compMsg)
		c.compMsg.Data = nil
	}
	c.jpeg.Release()
	return err
}
