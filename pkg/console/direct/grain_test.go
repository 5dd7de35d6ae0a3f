package direct

import "testing"

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

func BenchmarkGrain(b *testing.B) {
	p := make([]byte, 640*480*2)
	var g grain
	b.ReportAllocs()
	for b.Loop() {
		g.addYUYV(p, 12)
	}
}
