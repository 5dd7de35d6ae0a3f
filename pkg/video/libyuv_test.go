package video

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"testing"
)

// requireLibyuv skips t when NoLibyuvEnv turns libyuv off on purpose and
// fails it when libyuv cannot be loaded otherwise.
func requireLibyuv(t testing.TB) *libyuvLib {
	t.Helper()
	if os.Getenv(NoLibyuvEnv) != "" {
		t.Skipf("%s is set: libyuv is off", NoLibyuvEnv)
	}
	l, err := libyuvLoad()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// randomPacked422 is a w x h YUYV/UYVY frame of random bytes with step
// bytes per row (padding included).
func randomPacked422(enc string, w, h, step int, seed uint64) *Frame {
	r := rand.New(rand.NewPCG(seed, 1))
	data := make([]byte, step*h)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	return &Frame{Encoding: enc, Width: w, Height: h, Step: step, Data: data}
}

// TestLibyuvMatchesGo: libyuv's YUY2ToI420 and UYVYToI420 give the Go
// conversion's bytes exactly (both average the two rows' chroma rounding
// up), on random frames of sizes that exercise libyuv's SIMD tails and
// padded rows.
func TestLibyuvMatchesGo(t *testing.T) {
	l := requireLibyuv(t)
	for _, c := range []struct{ w, h, pad int }{{640, 480, 0}, {642, 482, 12}, {2, 2, 0}, {34, 6, 2}, {1920, 1080, 0}, {1278, 720, 64}} {
		for _, enc := range []struct {
			name     string
			fn       uintptr
			y0, u, v int
		}{{"yuv422_yuy2", l.yuy2ToI420, 0, 1, 3}, {"uyvy", l.uyvyToI420, 1, 0, 2}} {
			f := randomPacked422(enc.name, c.w, c.h, 2*c.w+c.pad, uint64(c.w*c.h))
			var want, got I420
			if err := want.Resize(c.w, c.h); err != nil {
				t.Fatal(err)
			}
			packed422(f, &want, enc.y0, enc.u, enc.v)
			if err := got.Resize(c.w, c.h); err != nil {
				t.Fatal(err)
			}
			packed422Libyuv(enc.fn, new(yuvCall), f, &got)
			for _, p := range []struct {
				name      string
				want, got []byte
			}{{"Y", want.Y, got.Y}, {"U", want.U, got.U}, {"V", want.V, got.V}} {
				if !bytes.Equal(p.want, p.got) {
					i := 0
					for i < len(p.want) && p.want[i] == p.got[i] {
						i++
					}
					t.Errorf("%s %dx%d step %d: plane %s differs first at byte %d: Go %d, libyuv %d", enc.name, c.w, c.h, f.Step, p.name, i, p.want[i], p.got[i])
				}
			}
		}
	}
}

// TestConvertFallsBackToGoWithoutLibyuv: without libyuv, Converter
// converts YUYV and UYVY in Go, with the same result and no error.
func TestConvertFallsBackToGoWithoutLibyuv(t *testing.T) {
	old := libyuvLoad
	libyuvLoad = func() (*libyuvLib, error) { return loadLibyuv(false, "libyuv-missing.so.0") }
	t.Cleanup(func() { libyuvLoad = old })
	err := LibyuvUnavailable()
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("apt-get install libyuv0")) {
		t.Fatalf("LibyuvUnavailable = %v; want the package to install", err)
	}
	for _, enc := range []string{"yuv422_yuy2", "uyvy"} {
		f := randomPacked422(enc, 64, 48, 128, 7)
		var conv Converter
		var got, want I420
		if err := conv.Convert(f, &got); err != nil {
			t.Fatal(err)
		}
		_ = want.Resize(64, 48)
		if enc == "uyvy" {
			packed422(f, &want, 1, 0, 2)
		} else {
			packed422(f, &want, 0, 1, 3)
		}
		if !bytes.Equal(got.Y, want.Y) || !bytes.Equal(got.U, want.U) || !bytes.Equal(got.V, want.V) || conv.yuv != nil {
			t.Errorf("%s: the fallback is not the Go conversion", enc)
		}
	}
	if errors.Is(err, ErrNoH264) {
		t.Error("libyuv's error wraps ErrNoH264")
	}
}

// BenchmarkYUYVToI420 is one 640x480 YUYV frame to I420 in Go and in
// libyuv (go test -run '^$' -bench YUYVToI420 -benchmem ./pkg/video).
func BenchmarkYUYVToI420(b *testing.B) {
	f := randomPacked422("yuv422_yuy2", 640, 480, 1280, 1)
	var dst I420
	_ = dst.Resize(640, 480)
	b.Run("go", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(f.Data)))
		for b.Loop() {
			packed422(f, &dst, 0, 1, 3)
		}
	})
	b.Run("libyuv", func(b *testing.B) {
		l := requireLibyuv(b)
		args := new(yuvCall)
		b.ReportAllocs()
		b.SetBytes(int64(len(f.Data)))
		for b.Loop() {
			packed422Libyuv(l.yuy2ToI420, args, f, &dst)
		}
	})
}
