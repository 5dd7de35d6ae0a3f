// Package rtph264 sends H.264 access units over plain RTP (RFC 3550) with
// the RFC 6184 payload format, and writes the SDP (RFC 4566) that ffplay,
// VLC and GStreamer open: the robot's "RTP server" for every client that
// is not a browser.
//
// # Use
//
//	v, _ := stream.Subscribe(64)                      // a video.Source
//	s, _ := rtph264.Dial(rtph264.Config{Dest: "127.0.0.1:5004"})
//	defer s.Close()
//	go s.Run(ctx, v)                                  // until ctx ends
//	sdp, _ := s.SDP(keyframe.Data, "front")           // once a keyframe came
//
// # Packets
//
// Payload type 96 (dynamic), clock 90 kHz: the RTP timestamp is the
// access unit's capture time, counted in 1/90000 s from a random origin.
// Each access unit's NAL units go out in non-interleaved mode
// (packetization-mode=1): single NAL unit packets, FU-A fragments for NAL
// units longer than the MTU, and SPS with PPS in one STAP-A packet before
// each IDR picture (pion/rtp's H264Payloader); the marker bit is set on
// the last packet of an access unit. Sequence numbers start at a random
// value, the SSRC is random unless set.
//
// # Destinations
//
// Unicast or multicast, IPv4 or IPv6. For an IPv4 multicast group the
// datagrams carry Config.TTL, which the SDP's c= line states
// ("c=IN IP4 239.1.1.1/16"). The sender owns its socket, binds an
// ephemeral port and never reads: RTCP receiver reports are not used.
package rtph264
