package wire

import "errors"

// Sentinel errors of the codecs; decode errors wrap one of them together
// with the position in the frame.
var (
	// ErrShort: the frame is shorter than its fixed header.
	ErrShort = errors.New("furbot: frame too short")
	// ErrMagic: the frame does not start with the expected magic.
	ErrMagic = errors.New("furbot: bad magic")
	// ErrCount: the system count is zero.
	ErrCount = errors.New("furbot: bad system count")
	// ErrTruncated: a block header or block data runs past the end.
	ErrTruncated = errors.New("furbot: block truncated")
	// ErrBlockLength: a known block has a length other than its own.
	ErrBlockLength = errors.New("furbot: wrong block length")
	// ErrDuplicate: a known block appears twice in one frame.
	ErrDuplicate = errors.New("furbot: duplicate block")
	// ErrTrailing: bytes follow the last block the system count announced,
	// or a control frame is longer than its size.
	ErrTrailing = errors.New("furbot: trailing bytes")
	// ErrRange: a control field is outside its allowed range.
	ErrRange = errors.New("furbot: field out of range")
	// ErrFlags: reserved flag bits or the reserved byte are set.
	ErrFlags = errors.New("furbot: reserved bits set")
)
