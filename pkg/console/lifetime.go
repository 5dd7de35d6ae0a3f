package console

// closeVideo closes a page's WebRTC session in the background, after the
// page has left the hub: pion's close can take long or hang (the mDNS
// socket's close, docs/video-webrtc.md), and neither the lease nor the
// page's socket may wait for it. peer.Session.Close is bounded by
// peer.Config.CloseTimeout (an overrun is logged and goes on in the
// background), and Serve's shutdown closes what is left through
// peer.Server.Close, bounded the same way.
func (s *Server) closeVideo(pv *pageVideo) {
	go pv.close()
}
