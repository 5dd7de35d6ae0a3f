package video

import "time"

// AccessUnit is one encoded picture: H.264 in Annex-B byte-stream form
// (a start code before every NAL unit). A keyframe carries its SPS and PPS
// before the IDR slice, so a receiver can start decoding at any keyframe.
//
// Ownership: an AccessUnit is shared by every viewer of its Source and is
// immutable once sent; a viewer must not write to Data.
type AccessUnit struct {
	Data     []byte        // Annex-B NAL units
	Capture  time.Time     // capture time of the source frame (wall clock)
	Duration time.Duration // nominal frame interval [s]
	Key      bool          // an IDR picture with SPS and PPS before it
}

// Viewer is one subscriber of a Source. Its methods may be called from any
// goroutine.
type Viewer interface {
	// AccessUnits delivers the encoded pictures. The first one a new viewer
	// receives is a keyframe. A viewer that falls behind loses pictures up to
	// the next keyframe (counted by the Source, never blocking the encoder).
	// The channel is closed when the viewer is closed or the Source stops.
	AccessUnits() <-chan AccessUnit
	// WantBitrate sets this viewer's budget [bit/s], e.g. from a congestion
	// controller's estimate. The encoder runs at the lowest budget among its
	// viewers, clamped to the Source's limits.
	WantBitrate(bitsPerSecond int)
	// RequestKeyFrame asks for a keyframe soon (a receiver's PLI or FIR);
	// requests close together are merged.
	RequestKeyFrame()
	// Close unsubscribes; the last viewer's Close stops the encoder.
	Close()
}

// Source is one camera's encoded video at one setting.
type Source interface {
	// Subscribe adds a viewer whose channel holds up to depth access units;
	// the first viewer starts the encoder.
	Subscribe(depth int) (Viewer, error)
}
