// Package peer sends live camera video to browsers over WebRTC (pion
// webrtc v4): one Session, that is one RTCPeerConnection, per viewer page,
// one H.264 video track per camera the page asks for, and a data channel
// for the operator's commands.
//
// It has no transport and knows no console. The embedder (the console)
// makes a Server with New, opens a Session per page with NewSession, passes
// every signalling message from the page to Session.Handle and sends the
// returned messages back; messages the session sends on its own
// (trickled candidates, later offers, the reason it closed) go through
// SessionConfig.Send. Commands from the data channel go to
// SessionConfig.OnCommand uninterpreted.
//
// Negotiation: the server makes every offer and the page answers (the page
// never offers). The page sends TypeWant with the cameras it shows; the
// server adds or removes tracks (track and stream id = camera name) and
// offers again when the set changes. Signalling messages are JSON with a
// "type" field, decoded strictly by Decode.
//
// Media: each camera's video.Source is subscribed once its track is bound
// to a connected sender, so the first access unit, a keyframe, reaches the
// page; PLI and FIR from the page become Viewer.RequestKeyFrame. The codec
// is H.264 constrained baseline (profile-level-id 42e01f), packetization
// mode 1, packetized by pion's payloader once per access unit for every
// session showing that Source (payloads shared, read-only); each session
// writes only its own headers (SSRC, sequence number, timestamp), so a
// further viewer of a camera costs its RTP and RTCP path, not a second
// packetization.
//
// Congestion control: pion's interceptors add the transport-wide sequence
// number (TWCC) to every packet, send RTCP sender reports, and run the
// send-side estimator (GCC); this package's estimate control and pacer
// drive it, and its resender answers NACKs from the shared payloads of
// each stream's latest 1024 packets (no copy per session).
// Every Config.SplitInterval the estimate times Config.Headroom is split
// over the watched cameras by Split (the chosen camera first) and set on
// each Viewer with WantBitrate [bit/s].
//
// Reading: a session reads its own ICE sockets right after each picture
// it is handed while pictures come at least every 40 ms, so that a
// watcher's feedback costs the console no wake-up of its own, and as
// datagrams arrive otherwise; Session.SetPrompt makes a session (the
// operator's, whose commands arrive there) read them as datagrams arrive
// always. Sessions on Config.UDP's shared socket read it as datagrams
// arrive.
//
// Units: bitrates in [bit/s], sizes in [bytes], frame rates in
// [frames/s], resolutions in [px], durations as time.Duration.
package peer
