package mjpeg

import "time"

// Stats are a Stream's counters and measurements. Counts are since
// NewStream.
type Stats struct {
	Name    string // the stream's name (the camera's)
	Viewers int    // open MJPEG responses and waiting snapshots now

	FramesIn uint64 // frames fed, watched or not
	Encoded  uint64 // frames published to viewers (encoded or passed through)
	Passed   uint64 // of Encoded, MJPG/JPEG frames passed through untouched
	Skipped  uint64 // frames skipped by the rate limit (no copy)
	Dropped  uint64 // frames copied but replaced by a newer one before the encoder took them
	Bad      uint64 // frames rejected: unknown encoding, inconsistent size, not a JPEG
	LastErr  error  // why the last bad frame was rejected; nil if none was

	InputEncoding string // encoding of the last frame fed while watched
	InputWidth    int    // [px]
	InputHeight   int    // [px]
	Width         int    // of the published JPEGs [px]
	Height        int    // [px]

	FPS         float64       // published frames per second over the last ~16 frames [Hz]; 0 when none for 2 s
	BytesPerSec float64       // JPEG bytes per second over the same frames [B/s]
	LastBytes   int           // size of the last JPEG [bytes]
	LastEncode  time.Duration // conversion + encoding time of the last encoded frame (wall time: on a loaded machine it includes waiting for a core)
	MeanEncode  time.Duration // mean of the same over every encoded frame (passthrough excluded)
}

// pub is one published frame, for the FPS and bytes/s measurement.
type pub struct {
	at    time.Time
	bytes int
}

// Stats returns the stream's counters and measurements.
func (s *Stream) Stats() Stats {
	st := Stats{Name: s.name, Viewers: s.Viewers(), FramesIn: s.framesIn.Load()}
	s.mu.Lock()
	st.Skipped, st.Dropped, st.Bad, st.LastErr = s.skipped, s.dropped, s.bad, s.lastErr
	st.InputEncoding, st.InputWidth, st.InputHeight = s.inEnc, s.inW, s.inH
	s.mu.Unlock()
	now := s.now()
	s.outMu.RLock()
	defer s.outMu.RUnlock()
	st.Encoded, st.Passed = s.encoded, s.passed
	st.Width, st.Height = s.outW, s.outH
	st.LastEncode = s.lastEnc
	if s.nEnc > 0 {
		st.MeanEncode = s.sumEnc / time.Duration(s.nEnc)
	}
	if s.ringN > 0 {
		st.LastBytes = s.ring[0].bytes
	}
	// Rates over the recorded frames: n-1 intervals between the newest and
	// the oldest; none when the newest is older than 2 s.
	if s.ringN >= 2 && now.Sub(s.ring[0].at) < 2*time.Second {
		span := s.ring[0].at.Sub(s.ring[s.ringN-1].at).Seconds()
		if span > 0 {
			bytes := 0
			for _, p := range s.ring[:s.ringN-1] {
				bytes += p.bytes
			}
			st.FPS = float64(s.ringN-1) / span
			st.BytesPerSec = float64(bytes) / span
		}
	}
	return st
}
