package camera

import (
	"sync/atomic"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// Negotiated is what the driver actually set, read back after negotiation.
type Negotiated struct {
	Format    wire.Format // the pixel format and size the driver set
	Encoding  string      // ROS encoding published (Format.Encoding or the override)
	Width     uint32      // [px]
	Height    uint32      // [px]
	Step      uint32      // bytes per line [bytes]; 0 for compressed formats
	ImageSize uint32      // step x height [bytes]; 0 for compressed formats
	FrameRate float64     // [Hz] from VIDIOC_G_PARM; 0 if the driver does not say
	Buffers   int         // mmap'ed buffers granted by the driver
	Driver    string      // driver name (VIDIOC_QUERYCAP)
	Card      string      // device name (VIDIOC_QUERYCAP)
}

// Stats are the counters of a device or camera. All counts since Open
// (or, for a Camera, since New, across reopenings).
type Stats struct {
	Frames    uint64 // frames handed to the consumer
	Corrupted uint64 // buffers skipped by wire.Classify
	Dropped   uint64 // frames the driver dropped (gaps in the sequence numbers)
	Copies    uint64 // Frame.CopyTo/CopyToCompressed calls on delivered frames
	Timeouts  uint64 // waits that saw no frame
	Reopens   uint64 // successful reopenings after a loss (Camera only)
	OpenFails uint64 // failed open attempts (Camera only)
	Starts    uint64 // VIDIOC_STREAMON calls that succeeded
	Stops     uint64 // VIDIOC_STREAMOFF calls
}

type counters struct {
	frames, corrupted, dropped, copies, timeouts atomic.Uint64
	reopens, openFails, starts, stops            atomic.Uint64
}

func (c *counters) snapshot() Stats {
	return Stats{
		Frames: c.frames.Load(), Corrupted: c.corrupted.Load(), Dropped: c.dropped.Load(),
		Copies: c.copies.Load(), Timeouts: c.timeouts.Load(), Reopens: c.reopens.Load(),
		OpenFails: c.openFails.Load(), Starts: c.starts.Load(), Stops: c.stops.Load(),
	}
}
