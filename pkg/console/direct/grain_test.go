package direct

import (
	"context"
	"strings"
	"testing"
)

func TestGrain(t *testing.T) {
	p := make([]byte, 640*2*4)
	for i := range p {
		p[i] = 128
	}
	var g grain
	g.addYUYV(p, 10)
	lo, hi, changed := 255, 0, 0
	for i := 0; i < len(p); i += 2 {
		lo, hi = min(lo, int(p[i])), max(hi, int(p[i]))
		if p[i] != 128 {
			changed++
		}
		if p[i+1] != 128 {
			t.Fatalf("chroma byte %d changed to %d", i+1, p[i+1])
		}
	}
	if lo < 118 || hi > 138 || hi-lo < 15 || changed < len(p)/2*8/10 {
		t.Errorf("luma in [%d, %d], %d of %d changed: want noise within 128 +/- 10 on most pixels", lo, hi, changed, len(p)/2)
	}
	for range 100 { // clamped, never wrapped
		q := []byte{250, 128, 3, 128}
		g.addYUYV(q, 20)
		if q[0] < 230 || q[2] > 23 {
			t.Fatalf("250 and 3 with noise 20 became %d and %d", q[0], q[2])
		}
	}
	if a := testing.AllocsPerRun(100, func() { g.addYUYV(p, 10) }); a != 0 {
		t.Errorf("addYUYV allocates %v per call", a)
	}
}

// TestGrainClamps: the noise a picture gets is the noise a flat grey one
// gets from the same generator (so it is known), and every luma byte
// comes out as the clamp of its value plus that noise: 0 and 255 and
// everything near them, in whole pictures and in a tail shorter than a
// word; chroma unchanged.
func TestGrainClamps(t *testing.T) {
	for _, size := range []int{640 * 480 * 2, 8*100 + 6} {
		var flatG, g grain
		flat := make([]byte, size)
		p := make([]byte, size)
		for i := range p {
			p[i] = byte(i / 2 * 37) // every value in luma, 0 and 255 too
		}
		orig := append([]byte(nil), p...)
		for round := range 3 {
			for i := range flat {
				flat[i] = 128
			}
			flatG.addYUYV(flat, 12)
			g.addYUYV(p, 12)
			for i := range p {
				want := orig[i]
				if i%2 == 0 {
					want = uint8(min(max(int(orig[i])+int(flat[i])-128, 0), 255))
				}
				if p[i] != want {
					t.Fatalf("size %d round %d byte %d: %d became %d, want %d (noise %d)", size, round, i, orig[i], p[i], want, int(flat[i])-128)
				}
			}
			copy(p, orig)
		}
	}
}

// TestGrainNotPredictable: the same place of two consecutive pictures
// gets different noise (else the encoder codes it once for good).
func TestGrainNotPredictable(t *testing.T) {
	var g grain
	a, b := make([]byte, 640*480*2), make([]byte, 640*480*2)
	for i := range a {
		a[i], b[i] = 128, 128
	}
	g.addYUYV(a, 12)
	g.addYUYV(b, 12)
	same := 0
	for i := 0; i < len(a); i += 2 {
		if a[i] == b[i] {
			same++
		}
	}
	// Independent draws of 25 values agree 1 time in 25.
	if n := len(a) / 2; same > n/10 {
		t.Errorf("%d of %d luma bytes got the same noise twice", same, n)
	}
}

func BenchmarkGrain(b *testing.B) {
	p := make([]byte, 640*480*2)
	var g grain
	b.ReportAllocs()
	for b.Loop() {
		g.addYUYV(p, 12)
	}
}

// TestStartRefusesGrain: an amplitude the lane arithmetic cannot hold is
// refused by Start, not clamped in silence.
func TestStartRefusesGrain(t *testing.T) {
	for _, amp := range []int{-1, maxGrain + 1} {
		b, err := Start(context.Background(), Config{Servosila: "off", Furbot: "off", NoJog: true, Cameras: []string{"off"}, PatternGrain: amp})
		if err == nil {
			_ = b.Close()
			t.Fatalf("PatternGrain %d accepted", amp)
		}
		if !strings.Contains(err.Error(), "PatternGrain") {
			t.Errorf("PatternGrain %d: error %q does not name it", amp, err)
		}
	}
}
