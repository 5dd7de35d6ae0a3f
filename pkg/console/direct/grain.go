package direct

import "encoding/binary"

// grain adds random noise to pictures (Config.PatternGrain) so that they
// cost the encoder what a real scene costs. It is test-rig work that a
// real camera does not do, so it must cost next to nothing itself: it
// adds a table of noise drawn once (for each amplitude), eight bytes at a
// time, from a fresh random place in the table for every run of
// grainChunk words. Consecutive pictures get unrelated noise at every
// position, so the encoder cannot predict it from the picture before (a
// run of 256 pixels from a random place is not a shifted copy of what
// stood there). The zero value is ready; one goroutine uses it.
type grain struct {
	s     uint64   // xorshift state; the same sequence on every run
	amp   int      // the amplitude table holds noise for
	table []uint64 // noise words: luma lanes in [0, 2amp], chroma 0
}

const (
	// grainTable is the noise table's length [words of 8 bytes] (128 kB).
	grainTable = 1 << 14
	// grainChunk is how many words are added from one place in the table.
	grainChunk = 64
	// lumaLanes selects the luma bytes of a little-endian YUYV word (the
	// even bytes), each the low byte of a 16-bit lane.
	lumaLanes = 0x00ff00ff00ff00ff
	laneOnes  = 0x0001000100010001
	// maxGrain is the largest amplitude (Config.PatternGrain): the lane
	// arithmetic below holds up to it.
	maxGrain = 127
)

// next returns the generator's next 64 random bits.
func (g *grain) next() uint64 {
	if g.s == 0 {
		g.s = 0x9e3779b97f4a7c15
	}
	g.s ^= g.s << 13
	g.s ^= g.s >> 7
	g.s ^= g.s << 17
	return g.s
}

// noise returns the table for amp, drawing it if amp changed.
func (g *grain) noise(amp int) []uint64 {
	if g.table != nil && g.amp == amp {
		return g.table
	}
	if g.table == nil {
		g.table = make([]uint64, grainTable)
	}
	g.amp = amp
	span := uint64(2*amp + 1)
	for i := range g.table {
		r, w := g.next(), uint64(0)
		for lane := range 4 {
			w |= ((r >> (8 * lane) & 0xff) * span >> 8) << (16 * lane)
		}
		g.table[i] = w
	}
	return g.table
}

// addYUYV adds noise in [-amp, amp] (amp 1 to maxGrain) to every luma byte
// (the even bytes) of a YUYV picture, clamped to [0, 255]; chroma is left
// as it is. It allocates nothing once the table for amp exists.
func (g *grain) addYUYV(p []byte, amp int) {
	if amp <= 0 {
		return
	}
	amp = min(amp, maxGrain)
	table := g.noise(amp)
	// Each luma byte v in its 16-bit lane: y = v + n + 256 - amp is the
	// noisy value plus 256, in [256-amp, 511+amp]: no carry leaves the
	// lane. Bit 9 set: over 255; bits 8 and 9 clear: under 0.
	bias := uint64(256-amp) * laneOnes
	words := len(p) / 8
	for start := 0; start < words; start += grainChunk {
		end := min(start+grainChunk, words)
		off := int(g.next() % (grainTable - grainChunk))
		q := p[8*start : 8*end]
		for _, n := range table[off : off+end-start] {
			w := binary.LittleEndian.Uint64(q)
			y := w&lumaLanes + n + bias
			over := y >> 9 & laneOnes
			under := (y>>8|y>>9)&laneOnes ^ laneOnes
			v := (y&lumaLanes)&^(under*0xff) | over*0xff
			binary.LittleEndian.PutUint64(q, w&^lumaLanes|v)
			q = q[8:]
		}
	}
	// A tail shorter than a word (not in a whole YUYV picture): byte by byte.
	span := 2*amp + 1
	for i := 8 * words; i < len(p); i += 2 {
		v := int(p[i]) + int(g.next()&0xff)*span>>8 - amp
		p[i] = uint8(min(max(v, 0), 255))
	}
}
