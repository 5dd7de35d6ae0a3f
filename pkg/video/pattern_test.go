package video

import "time"

// movingPattern makes the test frames of the encoder comparison: a
// textured scene (gradients, discs, a fine checkerboard, mild static
// noise) panning left at 2 px per frame, and a grey box moving down at
// 4 px per frame, in I420. The scene is drawn once; each frame is a window
// of it, so making a frame allocates nothing.
type movingPattern struct {
	w, h  int
	sy    []byte // scene luma, 2w x h
	su    []byte // scene chroma, w x h/2 (2w/2 wide)
	sv    []byte
	start time.Time
}

func newMovingPattern(w, h int) *movingPattern {
	sw := 2 * w
	m := &movingPattern{w: w, h: h, sy: make([]byte, sw*h), su: make([]byte, sw/2*h/2), sv: make([]byte, sw/2*h/2),
		start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	seed := uint32(12345)
	for y := 0; y < h; y++ {
		for x := 0; x < sw; x++ {
			v := 40 + (x*150)/sw + (y*40)/h
			dx, dy := x%160-80, y%160-80
			if dx*dx+dy*dy < 50*50 {
				v = 60 + ((x/160+y/160)%3)*70
			}
			if y > h*3/4 && (x/4+y/4)%2 == 0 {
				v = 200
			}
			seed = seed*1664525 + 1013904223
			v += int(seed>>29) - 4 // mild static texture, -4..3
			m.sy[y*sw+x] = uint8(min(max(v, 16), 235))
		}
	}
	for y := 0; y < h/2; y++ {
		for x := 0; x < sw/2; x++ {
			m.su[y*sw/2+x] = uint8(128 + (x%128-64)/2)
			m.sv[y*sw/2+x] = uint8(128 + (y*2%128-64)/2)
		}
	}
	return m
}

// frame writes frame k into p (resized to the pattern's size) at capture
// time start + k/30 s.
func (m *movingPattern) frame(p *I420, k int) {
	_ = p.Resize(m.w, m.h)
	sw := 2 * m.w
	off := (2 * k) % m.w &^ 1
	for y := 0; y < m.h; y++ {
		copy(p.Y[y*m.w:(y+1)*m.w], m.sy[y*sw+off:])
	}
	for y := 0; y < m.h/2; y++ {
		copy(p.U[y*m.w/2:(y+1)*m.w/2], m.su[y*sw/2+off/2:])
		copy(p.V[y*m.w/2:(y+1)*m.w/2], m.sv[y*sw/2+off/2:])
	}
	by := (4 * k) % (m.h - 64)
	for y := by; y < by+64; y++ {
		for x := m.w/2 - 32; x < m.w/2+32; x++ {
			p.Y[y*m.w+x] = 128
		}
	}
	p.Capture = m.start.Add(time.Duration(k) * time.Second / 30)
}
