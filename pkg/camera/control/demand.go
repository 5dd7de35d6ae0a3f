package control

// Action is what the capture loop must do after a change in demand.
type Action int

// Actions of Demand.Update.
const (
	Hold  Action = iota // nothing changes
	Start               // turn the stream on (VIDIOC_STREAMON)
	Stop                // turn the stream off (VIDIOC_STREAMOFF)
)

// String returns the action's name.
func (a Action) String() string {
	switch a {
	case Hold:
		return "hold"
	case Start:
		return "start"
	case Stop:
		return "stop"
	}
	return "invalid"
}

// Demand decides when a camera streams: from the first subscriber on, until
// the last one leaves. It is a pure state machine over subscriber counts;
// the caller performs the actions it returns and reports failures with
// Failed. The zero value has no subscribers and is not streaming.
// Not safe for concurrent use: keep it in the capture goroutine.
type Demand struct {
	images, infos int
	streaming     bool
}

// Update records the current subscriber counts of the image topic (raw or
// compressed) and the camera_info topic, and returns Start when someone
// subscribes and the stream is off, Stop when nobody does and it is on,
// else Hold. Negative counts count as 0. A camera_info subscriber alone
// keeps the stream on: camera info is sent with each frame.
func (d *Demand) Update(images, infos int) Action {
	d.images, d.infos = max(images, 0), max(infos, 0)
	return d.next()
}

// Started records that the stream was turned on.
func (d *Demand) Started() { d.streaming = true }

// Stopped records that the stream was turned off (or that the device was
// lost, which stops it). The following Retry returns Start if someone still
// subscribes.
func (d *Demand) Stopped() { d.streaming = false }

// Failed records that an action failed: the stream is treated as off, and
// Retry tells whether to try starting it again.
func (d *Demand) Failed() { d.streaming = false }

// Retry returns the action still owed for the current counts (Start after
// a failure while someone subscribes, Hold otherwise).
func (d *Demand) Retry() Action { return d.next() }

// Wanted reports whether anyone subscribes.
func (d *Demand) Wanted() bool { return d.images+d.infos > 0 }

// Streaming reports whether the stream is on.
func (d *Demand) Streaming() bool { return d.streaming }

func (d *Demand) next() Action {
	switch {
	case d.Wanted() && !d.streaming:
		return Start
	case !d.Wanted() && d.streaming:
		return Stop
	}
	return Hold
}
