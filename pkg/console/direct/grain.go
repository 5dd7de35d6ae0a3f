package direct

// grain adds random noise to pictures (Config.PatternGrain) from its own
// xorshift generator: cheap, and the same sequence on every run. The
// zero value is ready; one goroutine uses it.
type grain struct{ s uint64 }

// addYUYV adds noise in [-amp, amp] to every luma byte (the even bytes)
// of a YUYV picture, clamped to [0, 255]. It allocates nothing.
func (g *grain) addYUYV(p []byte, amp int) {
	if g.s == 0 {
		g.s = 0x9e3779b97f4a7c15
	}
	span := uint64(2*amp + 1)
	var r uint64
	for i := 0; i < len(p); i += 2 {
		if i%16 == 0 { // eight luma bytes per draw
			g.s ^= g.s << 13
			g.s ^= g.s >> 7
			g.s ^= g.s << 17
			r = g.s
		}
		v := int(p[i]) + int((r&0xff)*span>>8) - amp
		r >>= 8
		p[i] = uint8(min(max(v, 0), 255))
	}
}
