package wire

// Verdict is the classification of a dequeued buffer.
type Verdict int

// Verdicts of Classify. Anything but Good is skipped and counted as
// corrupted.
const (
	Good      Verdict = iota
	ErrorFlag         // the driver set V4L2_BUF_FLAG_ERROR
	Empty             // bytesused == 0
	Truncated         // uncompressed frame shorter than the negotiated image size
	Overlong          // bytesused larger than the buffer
)

// String returns the verdict's name.
func (v Verdict) String() string {
	switch v {
	case Good:
		return "good"
	case ErrorFlag:
		return "error flag"
	case Empty:
		return "empty"
	case Truncated:
		return "truncated"
	case Overlong:
		return "overlong"
	}
	return "invalid"
}

// Classify checks a dequeued buffer: flags and bytesUsed from the
// v4l2_buffer, length the size of the mapped buffer, imageSize the
// negotiated image size (bytes per line x height) for uncompressed formats
// and 0 for compressed ones [bytes]. An uncompressed frame must fill the
// image (padding after it is allowed); a compressed frame must be
// non-empty. Every frame must fit the buffer.
func Classify(flags, bytesUsed, length, imageSize uint32, compressed bool) Verdict {
	switch {
	case flags&BufFlagError != 0:
		return ErrorFlag
	case bytesUsed == 0:
		return Empty
	case bytesUsed > length:
		return Overlong
	case !compressed && bytesUsed < imageSize:
		return Truncated
	}
	return Good
}

// ImageSize returns the bytes per line and the image size of an
// uncompressed format at the given size, using the driver's bytesPerLine
// when it is at least the packed row length (drivers may pad rows) [bytes].
// It does not trust the driver's sizeimage, which some drivers (and
// go4vl's GetPixFormat) report as 0.
func ImageSize(f Format, width, height, bytesPerLine uint32) (step, size uint32) {
	if f.Compressed {
		return 0, 0
	}
	step = width * uint32(f.BytesPerPixel)
	if bytesPerLine > step {
		step = bytesPerLine
	}
	return step, step * height
}
