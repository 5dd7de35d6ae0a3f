package video

import "sync/atomic"

// Stats are a stream's counters since it was made.
type Stats struct {
	Viewers        int    // viewers subscribed now
	FramesIn       uint64 // frames fed by the camera [1]
	FramesIdle     uint64 // frames fed while nobody watched (not converted) [1]
	FramesSkipped  uint64 // frames dropped because the encoder was still busy [1]
	FramesBad      uint64 // frames that failed to convert [1]
	Encoded        uint64 // access units produced (encoded or passed through) [1]
	Keyframes      uint64 // of which IDR pictures [1]
	KeyRequests    uint64 // RequestKeyFrame calls [1]
	ForcedKeys     uint64 // IDR pictures forced by requests (after merging) [1]
	ViewerDrops    uint64 // access units not delivered to a slow viewer [1]
	Bitrate        int    // encoder target now [bit/s]
	EncoderOpens   uint64 // encoders opened (one per watched period and size) [1]
	BytesOut       uint64 // access unit bytes produced [bytes]
	LastErr        string // the latest conversion or encoder error
	Width, Height  int    // size of the latest picture [px]
	InputEncoding  string // encoding of the latest frame
	PassThroughAUs uint64 // access units passed through from an H.264 camera [1]
	// FramesDecimated counts frames dropped to keep Config.MaxFrameRate [1].
	FramesDecimated uint64
}

type counters struct {
	in, idle, skipped, bad, encoded, keys, keyReq, forced, drops, opens, bytes, pass, decimated atomic.Uint64
	width, height                                                                               atomic.Int64
	enc                                                                                         atomic.Value // string
}

// Stats returns the stream's counters.
func (s *Stream) Stats() Stats {
	s.mu.Lock()
	n, lastErr := len(s.viewers), s.lastErr
	s.mu.Unlock()
	enc, _ := s.c.enc.Load().(string)
	return Stats{
		Viewers: n, FramesIn: s.c.in.Load(), FramesIdle: s.c.idle.Load(), FramesSkipped: s.c.skipped.Load(),
		FramesBad: s.c.bad.Load(), Encoded: s.c.encoded.Load(), Keyframes: s.c.keys.Load(),
		KeyRequests: s.c.keyReq.Load(), ForcedKeys: s.c.forced.Load(), ViewerDrops: s.c.drops.Load(),
		Bitrate: int(s.target.Load()), EncoderOpens: s.c.opens.Load(), BytesOut: s.c.bytes.Load(),
		LastErr: lastErr, Width: int(s.c.width.Load()), Height: int(s.c.height.Load()), InputEncoding: enc,
		PassThroughAUs: s.c.pass.Load(), FramesDecimated: s.c.decimated.Load(),
	}
}
