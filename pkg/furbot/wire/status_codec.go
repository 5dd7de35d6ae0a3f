package wire

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// StatusMagic starts every status frame ("ATSF").
var StatusMagic = [4]byte{0x41, 0x54, 0x53, 0x46}

var be = binary.BigEndian

// DecodeStatus parses one status frame into s, overwriting it. Blocks with
// an unknown id are skipped by their length and counted in s.Unknown. It
// checks the magic, that the system count is not zero, that exactly that
// many blocks fill the frame, that each known block has its own length and
// appears once. On error s is left in an unspecified state and the error
// wraps one of ErrShort, ErrMagic, ErrCount, ErrTruncated, ErrBlockLength,
// ErrDuplicate or ErrTrailing. It allocates nothing for a valid frame and
// does not retain b.
func DecodeStatus(b []byte, s *Status) error {
	if len(b) < statusHeaderSize {
		return fmt.Errorf("furbot: decode status: %d bytes, header needs %d: %w", len(b), statusHeaderSize, ErrShort)
	}
	if [4]byte(b[0:4]) != StatusMagic {
		return fmt.Errorf("furbot: decode status: magic % x: %w", b[0:4], ErrMagic)
	}
	*s = Status{Timestamp: be.Uint32(b[4:8])}
	count := int(b[8])
	if count == 0 {
		return fmt.Errorf("furbot: decode status: %w: 0 systems", ErrCount)
	}
	// b[9:12] are reserved (sent as zero, not checked).
	off := statusHeaderSize
	for i := 0; i < count; i++ {
		if len(b)-off < 2 {
			return fmt.Errorf("furbot: decode status: block %d of %d at byte %d: header: %w", i+1, count, off, ErrTruncated)
		}
		id, n := BlockID(b[off]), int(b[off+1])
		off += 2
		if len(b)-off < n {
			return fmt.Errorf("furbot: decode status: block %v at byte %d: %d data bytes, %d left: %w", id, off-2, n, len(b)-off, ErrTruncated)
		}
		data := b[off : off+n]
		off += n
		if int(id) >= NumBlocks {
			s.Unknown++
			continue
		}
		if n != int(blockLen[id]) {
			return fmt.Errorf("furbot: decode status: block %v: length %d, want %d: %w", id, n, blockLen[id], ErrBlockLength)
		}
		if s.Present&(1<<id) != 0 {
			return fmt.Errorf("furbot: decode status: block %v: %w", id, ErrDuplicate)
		}
		s.Present |= 1 << id
		decodeBlock(id, data, s)
	}
	if off != len(b) {
		return fmt.Errorf("furbot: decode status: %d bytes after %d blocks: %w", len(b)-off, count, ErrTrailing)
	}
	return nil
}

// decodeBlock fills the block id of s from data, whose length was checked.
func decodeBlock(id BlockID, d []byte, s *Status) {
	switch {
	case id == BlockComm:
		s.Comm = Comm{State: d[0], Flags: d[1], RxFrames: be.Uint16(d[2:]), Rejected: be.Uint16(d[4:])}
	case id == BlockBMS:
		s.BMS = BMS{State: d[0], Charge: d[1], Current: be.Uint16(d[2:]), Voltage: be.Uint16(d[4:]),
			TempHi: int8(d[6]), TempLo: int8(d[7])}
	case id == BlockMotion:
		s.Motion = Motion{State: d[0], Mode: d[1], Flags: d[2], LastSeq: be.Uint32(d[3:])}
	case id == BlockTraction:
		s.Traction = Traction{State: d[0], Mode: d[1], Speed: int16(be.Uint16(d[2:])),
			Left: int16(be.Uint16(d[4:])), Right: int16(be.Uint16(d[6:])),
			Throttle: int16(be.Uint16(d[8:])), Brake: int16(be.Uint16(d[10:])),
			Reverse: d[12], Odometer: int32(be.Uint32(d[13:]))}
	case id == BlockSteering:
		s.Steering = Steering{State: d[0], Angle: int16(be.Uint16(d[1:])), Target: int16(be.Uint16(d[3:]))}
	case id == BlockHydraulics:
		s.Hydraulics = Hydraulics{State: d[0], Pump: d[1], Pressure: be.Uint16(d[2:]),
			OilTemp: int8(d[4]), OilLevel: d[5], Valves: be.Uint16(d[6:])}
	case id <= BlockSuspFR:
		s.Suspension[id-BlockSuspRL] = Suspension{State: d[0], Height: int16(be.Uint16(d[1:])),
			Target: int16(be.Uint16(d[3:])), Pressure: be.Uint16(d[5:])}
	default:
		s.Forks[id-BlockRearFork] = Fork{State: d[0], Lift: be.Uint16(d[1:]), Tilt: int16(be.Uint16(d[3:])),
			Shift: int16(be.Uint16(d[5:])), Load: be.Uint16(d[7:]), Flags: be.Uint16(d[9:])}
	}
}

// StatusSize returns the size of the status frame AppendStatus writes for
// s [bytes].
func StatusSize(s *Status) int {
	n := statusHeaderSize
	for id := BlockID(0); id < NumBlocks; id++ {
		if s.Present&(1<<id) != 0 {
			n += 2 + int(blockLen[id])
		}
	}
	return n
}

// AppendStatus appends the status frame for s to dst and returns the
// extended slice: the header, then every block present in s.Present in id
// order (s.Unknown is not encoded). With no block present the frame has
// a count of 0, which DecodeStatus rejects. It allocates only if dst lacks
// capacity (StatusSize tells how much is needed).
func AppendStatus(dst []byte, s *Status) []byte {
	present := s.Present & AllBlocks
	dst = append(dst, StatusMagic[:]...)
	dst = be.AppendUint32(dst, s.Timestamp)
	dst = append(dst, uint8(bits.OnesCount16(present)), 0, 0, 0)
	for id := BlockID(0); id < NumBlocks; id++ {
		if present&(1<<id) != 0 {
			dst = append(dst, uint8(id), blockLen[id])
			dst = appendBlock(dst, id, s)
		}
	}
	return dst
}

func appendBlock(d []byte, id BlockID, s *Status) []byte {
	switch {
	case id == BlockComm:
		c := &s.Comm
		d = append(d, c.State, c.Flags)
		d = be.AppendUint16(d, c.RxFrames)
		return be.AppendUint16(d, c.Rejected)
	case id == BlockBMS:
		m := &s.BMS
		d = append(d, m.State, m.Charge)
		d = be.AppendUint16(d, m.Current)
		d = be.AppendUint16(d, m.Voltage)
		return append(d, uint8(m.TempHi), uint8(m.TempLo))
	case id == BlockMotion:
		m := &s.Motion
		d = append(d, m.State, m.Mode, m.Flags)
		return be.AppendUint32(d, m.LastSeq)
	case id == BlockTraction:
		t := &s.Traction
		d = append(d, t.State, t.Mode)
		d = be.AppendUint16(d, uint16(t.Speed))
		d = be.AppendUint16(d, uint16(t.Left))
		d = be.AppendUint16(d, uint16(t.Right))
		d = be.AppendUint16(d, uint16(t.Throttle))
		d = be.AppendUint16(d, uint16(t.Brake))
		d = append(d, t.Reverse)
		return be.AppendUint32(d, uint32(t.Odometer))
	case id == BlockSteering:
		st := &s.Steering
		d = append(d, st.State)
		d = be.AppendUint16(d, uint16(st.Angle))
		return be.AppendUint16(d, uint16(st.Target))
	case id == BlockHydraulics:
		h := &s.Hydraulics
		d = append(d, h.State, h.Pump)
		d = be.AppendUint16(d, h.Pressure)
		d = append(d, uint8(h.OilTemp), h.OilLevel)
		return be.AppendUint16(d, h.Valves)
	case id <= BlockSuspFR:
		u := &s.Suspension[id-BlockSuspRL]
		d = append(d, u.State)
		d = be.AppendUint16(d, uint16(u.Height))
		d = be.AppendUint16(d, uint16(u.Target))
		return be.AppendUint16(d, u.Pressure)
	default:
		f := &s.Forks[id-BlockRearFork]
		d = append(d, f.State)
		d = be.AppendUint16(d, f.Lift)
		d = be.AppendUint16(d, uint16(f.Tilt))
		d = be.AppendUint16(d, uint16(f.Shift))
		d = be.AppendUint16(d, f.Load)
		return be.AppendUint16(d, f.Flags)
	}
}
