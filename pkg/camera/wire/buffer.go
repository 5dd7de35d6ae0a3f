package wire

// The layouts below are those of <linux/videodev2.h> on 64-bit Linux;
// abi_cgo.go takes the same numbers from the header and
// TestABIMatchesHeader compares.

// Buffer is struct v4l2_buffer (88 bytes on 64-bit Linux): the
// description of one driver buffer exchanged by QBUF, DQBUF and QUERYBUF.
type Buffer struct {
	Index     uint32 // index, the buffer's number
	Type      uint32 // type, BufTypeVideoCapture
	BytesUsed uint32 // bytesused, the bytes of data [bytes]
	Flags     uint32 // flags, BufFlag*
	Field     uint32 // field, the interlacing
	_         uint32
	Sec       int64    // timestamp.tv_sec
	Usec      int64    // timestamp.tv_usec
	Timecode  [16]byte // timecode (unused here)
	Sequence  uint32   // sequence, the driver's frame counter
	Memory    uint32   // memory, MemoryMMAP
	Offset    uint64   // union m: mem_offset for MMAP (low 32 bits)
	Length    uint32   // length, the buffer's size [bytes]
	_         uint32   // reserved2
	_         uint32   // request_fd / reserved
	_         uint32
}

// RequestBuffers is struct v4l2_requestbuffers (20 bytes).
type RequestBuffers struct {
	Count        uint32 // count, buffers asked for, then granted
	Type         uint32 // type, BufTypeVideoCapture
	Memory       uint32 // memory, MemoryMMAP
	Capabilities uint32 // capabilities, set by the driver
	Flags        uint32 // flags (u8) + reserved[3]
}

// Buffer types, memory kinds and flags of struct v4l2_buffer.
const (
	BufTypeVideoCapture = 1 // V4L2_BUF_TYPE_VIDEO_CAPTURE
	MemoryMMAP          = 1 // V4L2_MEMORY_MMAP

	// BufFlagError is V4L2_BUF_FLAG_ERROR: the driver filled the buffer
	// with corrupted data.
	BufFlagError = 0x00000040
	// BufFlagTimestampMask masks the timestamp type bits of Buffer.Flags.
	BufFlagTimestampMask = 0x0000e000
	// BufFlagTimestampMonotonic is the timestamp type of a buffer stamped
	// with CLOCK_MONOTONIC.
	BufFlagTimestampMonotonic = 0x00002000
)

// CaptureBuffer returns a Buffer for index i of a memory-mapped video
// capture queue, as QBUF and QUERYBUF take it.
func CaptureBuffer(i uint32) Buffer {
	return Buffer{Index: i, Type: BufTypeVideoCapture, Memory: MemoryMMAP}
}

// Monotonic reports whether the driver stamped b with CLOCK_MONOTONIC.
func (b *Buffer) Monotonic() bool {
	return b.Flags&BufFlagTimestampMask == BufFlagTimestampMonotonic
}
