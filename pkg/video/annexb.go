package video

import "bytes"

// H.264 NAL unit types (ITU-T H.264 table 7-1) used here.
const (
	NALSlice = 1 // coded slice of a non-IDR picture
	NALIDR   = 5 // coded slice of an IDR picture
	NALSEI   = 6 // supplemental enhancement information
	NALSPS   = 7 // sequence parameter set
	NALPPS   = 8 // picture parameter set
	NALAUD   = 9 // access unit delimiter
)

var startCode = []byte{0, 0, 1}

// NextNAL returns the first NAL unit of the Annex-B byte stream b (without
// its start code, trailing zero bytes trimmed) and the rest of b from the
// next start code on. ok is false when b holds no further NAL unit. It
// allocates nothing; nal aliases b.
func NextNAL(b []byte) (nal, rest []byte, ok bool) {
	for {
		i := bytes.Index(b, startCode)
		if i < 0 {
			return nil, nil, false
		}
		b = b[i+3:]
		j := bytes.Index(b, startCode)
		if j < 0 {
			nal, rest = b, nil
		} else {
			nal, rest = b[:j], b[j:]
		}
		for len(nal) > 0 && nal[len(nal)-1] == 0 {
			nal = nal[:len(nal)-1]
		}
		if len(nal) > 0 {
			return nal, rest, true
		}
		if rest == nil {
			return nil, nil, false
		}
		b = rest
	}
}

// NALType is the nal_unit_type of a NAL unit (0 for an empty one).
func NALType(nal []byte) int {
	if len(nal) == 0 {
		return 0
	}
	return int(nal[0] & 0x1f)
}

// HasIDR reports whether the Annex-B data holds an IDR slice.
func HasIDR(au []byte) bool {
	for nal, rest, ok := NextNAL(au); ok; nal, rest, ok = NextNAL(rest) {
		if NALType(nal) == NALIDR {
			return true
		}
	}
	return false
}

// ParameterSets returns the first SPS and PPS NAL units in the Annex-B
// data (nil when absent); they alias au.
func ParameterSets(au []byte) (sps, pps []byte) {
	for nal, rest, ok := NextNAL(au); ok; nal, rest, ok = NextNAL(rest) {
		switch NALType(nal) {
		case NALSPS:
			if sps == nil {
				sps = nal
			}
		case NALPPS:
			if pps == nil {
				pps = nal
			}
		}
	}
	return sps, pps
}

// AUSplitter cuts the H.264 byte stream of a camera that encodes itself
// (V4L2 H264) into access units for pass-through, without re-encoding.
// Each Push is one driver buffer; an access unit ends at the next access
// unit's first NAL unit (AUD, SPS, PPS, SEI, or a slice whose
// first_mb_in_slice is 0) or at the end of the buffer (drivers deliver
// whole pictures). The latest SPS and PPS are kept and put before an IDR
// picture that arrives without them, so that every keyframe can start a
// decoder; pictures before the first SPS and PPS are dropped (counted).
// Not safe for concurrent use.
type AUSplitter struct {
	sps, pps []byte // latest parameter sets (owned copies)
	cur      []byte // access unit being assembled (reused)
	vcl      bool   // cur holds a slice
	key      bool   // cur holds an IDR slice
	hasSPS   bool   // cur holds an SPS
	hasPPS   bool   // cur holds a PPS
	Dropped  uint64 // access units dropped for want of SPS/PPS [1]
}

// Push feeds one buffer of byte stream and calls emit for every complete
// access unit, in Annex-B form with 4-byte start codes. The au passed to
// emit is newly allocated and owned by the callee.
func (s *AUSplitter) Push(buf []byte, emit func(au []byte, key bool)) {
	for nal, rest, ok := NextNAL(buf); ok; nal, rest, ok = NextNAL(rest) {
		t := NALType(nal)
		vcl := t >= 1 && t <= 5
		first := !vcl || (len(nal) > 1 && nal[1]&0x80 != 0) // ue(v) first_mb_in_slice == 0
		if s.vcl && first {
			s.flush(emit)
		}
		switch t {
		case NALSPS:
			s.sps = append(s.sps[:0], nal...)
		case NALPPS:
			s.pps = append(s.pps[:0], nal...)
		}
		s.cur = append(s.cur, 0, 0, 0, 1)
		s.cur = append(s.cur, nal...)
		s.vcl = s.vcl || vcl
		s.key = s.key || t == NALIDR
		s.hasSPS = s.hasSPS || t == NALSPS
		s.hasPPS = s.hasPPS || t == NALPPS
	}
	if s.vcl {
		s.flush(emit)
	}
}

func (s *AUSplitter) flush(emit func([]byte, bool)) {
	defer func() { s.cur, s.vcl, s.key, s.hasSPS, s.hasPPS = s.cur[:0], false, false, false, false }()
	if s.sps == nil || s.pps == nil {
		s.Dropped++
		return
	}
	// A keyframe lacking either parameter set gets both, SPS first: a
	// decoder parses a PPS against its SPS, so a PPS put before the
	// picture's own SPS could not be read (the own one repeats, which is
	// allowed).
	complete := s.key && !(s.hasSPS && s.hasPPS)
	n := len(s.cur)
	if complete {
		n += 8 + len(s.sps) + len(s.pps)
	}
	au := make([]byte, 0, n)
	if complete {
		au = append(append(au, 0, 0, 0, 1), s.sps...)
		au = append(append(au, 0, 0, 0, 1), s.pps...)
	}
	au = append(au, s.cur...)
	emit(au, s.key)
}
