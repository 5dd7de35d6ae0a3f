//go:build nox264

package video

// H264Available reports whether this binary has an H.264 encoder.
const H264Available = false

func newH264Encoder(EncoderConfig) (Encoder, error) { return nil, ErrNoH264 }
