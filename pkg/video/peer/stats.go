package peer

import (
	"time"

	"github.com/pion/webrtc/v4"
)

// Stats are one session's figures.
type Stats struct {
	ID               uint64        // Session.ID
	State            string        // the peer connection's state ("new", "connecting", "connected", ...)
	Estimate         int           // the send-side bandwidth estimate [bit/s]
	GCC              GCC           // what the estimate is made of
	Budget           int           // Estimate times Config.Headroom, split over the cameras [bit/s]
	RTT              time.Duration // the latest round-trip time from RTCP over all cameras, 0 before any
	Queued           int64         // bytes waiting in the pacer [bytes]
	Cameras          []CameraStats // in the page's order
	BadMessages      uint64        // signalling messages refused
	Commands         uint64        // data-channel commands handed to OnCommand
	CommandsDropped  uint64        // data-channel commands dropped (over the size limit or no OnCommand)
	DataChannelsOpen int           // command channels open (0 or 1, 2 if the page opened its own too)
	Prompt           bool          // its sockets are read as datagrams arrive (SetPrompt), not after each picture
}

// GCC is what a session's estimate is made of (estimator, from pion's
// GCC statistics).
type GCC struct {
	DelayBased int     // the delay-based rate [bit/s]
	Loss       float64 // the average loss in TWCC feedback, before retransmission [0, 1]
	Usage      string  // the delay trend: "normal", "overuse" or "underuse"
	State      string  // the delay-based rate's state: "increase", "decrease" or "hold"
}

// gccOf reads pion's GCC statistics map.
func gccOf(m map[string]any) GCC {
	var g GCC
	g.DelayBased, _ = m["delayTargetBitrate"].(int)
	g.Loss, _ = m["averageLoss"].(float64)
	g.Usage, _ = m["usage"].(string)
	g.State, _ = m["state"].(string)
	return g
}

// CameraStats are one shown camera's figures within a session.
type CameraStats struct {
	Camera        string        // the camera's name
	Chosen        bool          // the operator's chosen camera
	Caps          Caps          // the page's caps
	Share         int           // this camera's part of the budget, set with Viewer.WantBitrate [bit/s]
	AccessUnits   uint64        // access units written to the track
	Skipped       uint64        // access units skipped while the pacer's queue was over Config.MaxQueueDelay
	Bytes         uint64        // access-unit bytes written to the track [bytes]
	PacketsSent   uint64        // RTP packets sent, retransmissions included
	BytesSent     uint64        // RTP payload bytes sent, retransmissions included [bytes]
	NACKs         uint64        // packets the receiver asked to retransmit (each time asked)
	Resent        uint64        // packets retransmitted
	ResendMissed  uint64        // packets asked for that were no longer held (not retransmitted)
	ResendSkipped uint64        // packets asked for again within a round trip of their last retransmission, or over the retransmission budget (not retransmitted)
	PLIs, FIRs    uint64        // keyframe requests received
	BadRTCP       uint64        // RTCP datagrams that did not parse (skipped)
	RTT           time.Duration // from the latest receiver report on this camera's stream (RFC 3550 6.4.1), 0 before any
}

// Stats returns the session's figures. Safe for concurrent use.
func (ss *Session) Stats() Stats {
	st := Stats{
		ID: ss.id, State: ss.pc.ConnectionState().String(), BadMessages: ss.badMessages.Load(),
		Commands: ss.commands.Load(), CommandsDropped: ss.commandsDropped.Load(), Prompt: ss.gate.prompt.Load(),
	}
	ss.mu.Lock()
	st.Estimate, st.GCC = ss.estimate, ss.gcc
	st.Budget = int(float64(ss.estimate) * ss.srv.cfg.Headroom)
	st.Queued = int64(ss.own.queued())
	type pair struct {
		c    *camera
		cs   CameraStats
		ssrc uint32
	}
	var list []pair
	for _, name := range ss.order {
		c := ss.cams[name]
		if c == nil {
			continue
		}
		p := pair{c: c, cs: CameraStats{Camera: name, Chosen: name == ss.chosen, Caps: ss.caps[name]}}
		if enc := c.sender.GetParameters().Encodings; len(enc) > 0 {
			p.ssrc = uint32(enc[0].SSRC)
		}
		list = append(list, p)
	}
	ss.mu.Unlock()

	var report webrtc.StatsReport
	// Not while the peer connection closes: that close may hang (it is
	// bounded for the session, not for pion), and Stats must not.
	if ss.pcMu.TryRLock() {
		ss.mu.Lock()
		closed := ss.closed
		ss.mu.Unlock()
		if !closed {
			report = ss.pc.GetStats()
		}
		ss.pcMu.RUnlock()
	}
	for _, v := range report {
		if dc, ok := v.(webrtc.DataChannelStats); ok && dc.Label == CommandLabel && dc.State == webrtc.DataChannelStateOpen {
			st.DataChannelsOpen++
		}
	}
	for i := range list {
		c, cs := list[i].c, &list[i].cs
		c.mu.Lock()
		cs.Share = c.share
		c.mu.Unlock()
		cs.AccessUnits, cs.Bytes, cs.Skipped = c.frames.Load(), c.bytes.Load(), c.skipped.Load()
		cs.PLIs, cs.FIRs, cs.BadRTCP = c.plis.Load(), c.firs.Load(), c.badRTCP.Load()
		cs.PacketsSent, cs.BytesSent = ss.own.sent.counts(list[i].ssrc)
		rc := ss.own.resend.counts(list[i].ssrc)
		cs.NACKs, cs.Resent, cs.ResendMissed, cs.ResendSkipped, cs.RTT = rc.asked, rc.resent, rc.missed, rc.skipped, rc.rtt
		if cs.RTT > 0 {
			st.RTT = cs.RTT
		}
		st.Cameras = append(st.Cameras, *cs)
	}
	return st
}
