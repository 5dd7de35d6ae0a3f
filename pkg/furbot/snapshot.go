package furbot

import (
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/odometry"
)

// Snapshot is what the bridge publishes each period: the latest state of
// every subsystem, the odometry, and the control decision of this period.
type Snapshot struct {
	Seq      uint64         // published snapshots before this one
	Stamp    time.Time      // when the loop woke for this period
	Late     time.Duration  // how late the loop woke after its deadline (jitter)
	Status   wire.Status    // latest state of each subsystem (merged frames)
	StatusAt time.Time      // arrival of the latest status frame
	Frames   uint64         // status frames used so far (a new frame changes it)
	Odom     odometry.State // the odometry after this period's status [m, rad]
	Ready    bool           // link fresh and every subsystem working
	Output   control.Output // controller decision of this period
	Control  wire.Control   // control frame sent this period
	Stats    BridgeStats    // the bridge's counters so far
}

// BridgeStats are the bridge's counters.
type BridgeStats struct {
	Received    uint64 // datagrams read from the socket
	Accepted    uint64 // status frames used
	Foreign     uint64 // dropped: from a source other than StatusFrom
	Invalid     uint64 // dropped: not a valid status frame
	Dropped     uint64 // dropped: valid but older than or as old as the previous one
	ControlSent uint64 // control frames sent
	SendErrors  uint64 // control frames the socket refused
	MissedTicks uint64 // loop periods skipped because a step overran
	Gaps        uint64 // status intervals longer than the odometry's MaxGap
	Resyncs     uint64 // times the vehicle clock went back for good (restart) and was followed
	// GapsBridged gaps were covered by the traction odometer's delta;
	// GapsHeld held the pose (no reference, odometer reset, or a delta
	// the vehicle cannot have travelled). See Odometer.Update.
	GapsBridged, GapsHeld uint64
	// Implausible counts well-formed frames that were not used: a value
	// jumped further than the vehicle can move (ErrImplausible).
	Implausible uint64
	// Reanchors counts the times the plausibility checks took a frame as
	// their new reference after a run of implausible ones.
	Reanchors uint64
}

// rxState is what the receive goroutine hands to the loop.
type rxState struct {
	status wire.Status
	odom   odometry.State
	frames uint64
}

// Age returns how old the snapshot's latest status frame was when the
// snapshot was taken: the receive-to-publish latency [s].
func (s *Snapshot) Age() time.Duration { return s.Stamp.Sub(s.StatusAt) }
