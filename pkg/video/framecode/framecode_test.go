package framecode

import (
	"errors"
	"testing"
	"time"
)

func planes(w, h int) (y, u, v []byte) {
	y = make([]byte, w*h)
	for i := range y {
		y[i] = byte(i*7 + i/w*13) // busy background
	}
	return y, make([]byte, w*h/4), make([]byte, w*h/4)
}

func TestRoundTripSizes(t *testing.T) {
	c := New(time.Date(2026, 11, 25, 23, 59, 58, 123e6, time.UTC), 0xbeef)
	for _, sz := range [][2]int{{640, 480}, {320, 240}, {1280, 720}, {1000, 750}, {160, 120}, {330, 250}, {322, 242}} {
		y, u, v := planes(sz[0], sz[1])
		StampPlanar(y, u, v, sz[0], sz[1], c)
		got, err := Read(y, sz[0], sz[0], sz[1])
		if err != nil || got != c {
			t.Errorf("%dx%d: got %+v, %v; want %+v", sz[0], sz[1], got, err, c)
		}
	}
	y, u, v := planes(82, 40)
	StampPlanar(y, u, v, 82, 40, c)
	if _, err := Read(y, 82, 82, 40); err == nil {
		t.Error("82x40: a code in a picture narrower than MinWidth")
	}
	if got := c.Time(); !got.Equal(time.Date(2026, 11, 25, 23, 59, 58, 123e6, time.UTC)) {
		t.Errorf("Time() = %v", got)
	}
}

func TestYUYV(t *testing.T) {
	w, h, step := 640, 480, 1300
	buf := make([]byte, step*h)
	c := Code{Millis: 1 << 47, Counter: 1}
	StampYUYV(buf, step, w, h, c)
	luma := make([]byte, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			luma[y*w+x] = buf[y*step+2*x]
		}
	}
	if got, err := Read(luma, w, w, h); err != nil || got != c {
		t.Errorf("got %+v, %v; want %+v", got, err, c)
	}
}

// TestScaled reads codes from pictures scaled down by 2 (box filter) and
// up by 1.5 (nearest), as a browser shows a tile and a large view.
func TestScaled(t *testing.T) {
	w, h := 640, 480
	y, u, v := planes(w, h)
	c := Code{Millis: 1764115200123, Counter: 42}
	StampPlanar(y, u, v, w, h, c)
	half := make([]byte, w/2*h/2)
	for yy := 0; yy < h/2; yy++ {
		for x := 0; x < w/2; x++ {
			s := int(y[2*yy*w+2*x]) + int(y[2*yy*w+2*x+1]) + int(y[(2*yy+1)*w+2*x]) + int(y[(2*yy+1)*w+2*x+1])
			half[yy*w/2+x] = byte(s / 4)
		}
	}
	if got, err := Read(half, w/2, w/2, h/2); err != nil || got != c {
		t.Errorf("half: got %+v, %v", got, err)
	}
	bw, bh := 960, 720
	big := make([]byte, bw*bh)
	for yy := 0; yy < bh; yy++ {
		for x := 0; x < bw; x++ {
			big[yy*bw+x] = y[(yy*2/3)*w+x*2/3]
		}
	}
	if got, err := Read(big, bw, bw, bh); err != nil || got != c {
		t.Errorf("1.5x: got %+v, %v", got, err)
	}
}

func TestNoCode(t *testing.T) {
	y, _, _ := planes(640, 480)
	for i := range y {
		y[i] = 100
	}
	if _, err := Read(y, 640, 640, 480); !errors.Is(err, ErrNoCode) {
		t.Errorf("flat picture: %v", err)
	}
	y2, u, v := planes(640, 480)
	StampPlanar(y2, u, v, 640, 480, Code{Millis: 5, Counter: 6})
	x0, x1 := colSpan(10, 640) // flip one data cell: the CRC must catch it
	for yy := 0; yy < 16; yy++ {
		for x := x0; x < x1; x++ {
			y2[yy*640+x] = 251 - y2[yy*640+x]
		}
	}
	if _, err := Read(y2, 640, 640, 480); !errors.Is(err, ErrNoCode) {
		t.Errorf("flipped cell: %v", err)
	}
	if _, err := Read(make([]byte, 40*10), 40, 40, 10); !errors.Is(err, ErrNoCode) {
		t.Errorf("tiny picture: %v", err)
	}
}

func TestNoAllocations(t *testing.T) {
	y, u, v := planes(640, 480)
	c := Code{Millis: 99, Counter: 3}
	if n := testing.AllocsPerRun(10, func() {
		StampPlanar(y, u, v, 640, 480, c)
		_, _ = Read(y, 640, 640, 480)
	}); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

func BenchmarkStampRead(b *testing.B) {
	y, u, v := planes(640, 480)
	c := Code{Millis: 99, Counter: 3}
	b.ReportAllocs()
	for b.Loop() {
		StampPlanar(y, u, v, 640, 480, c)
		_, _ = Read(y, 640, 640, 480)
	}
}

// FuzzRead: any bytes as a luma plane never panic, and a code read back
// re-stamps to the same code.
func FuzzRead(f *testing.F) {
	y, u, v := planes(80, 60)
	StampPlanar(y, u, v, 80, 60, Code{Millis: 12345, Counter: 7})
	f.Add(y, uint16(80), uint16(60))
	f.Add([]byte{1, 2, 3}, uint16(2), uint16(1))
	f.Fuzz(func(t *testing.T, luma []byte, w, h uint16) {
		c, err := Read(luma, int(w), int(w), int(h))
		if err != nil {
			return
		}
		w2, h2 := 160, 120
		y, u, v := planes(w2, h2)
		StampPlanar(y, u, v, w2, h2, c)
		if got, err := Read(y, w2, w2, h2); err != nil || got != c {
			t.Fatalf("re-stamped %+v read as %+v, %v", c, got, err)
		}
	})
}
