package compress

import (
	"image/jpeg"
	"testing"
	"time"
)

// BenchmarkEncode is the work per frame on the capture goroutine for a
// 640x480 frame of each raw encoding at the default quality: ns/op is the
// time per frame, jpeg-B the JPEG's size, cpu%@30Hz the share of one core
// a subscribed 30 Hz camera costs. "image-jpeg-only" is jpeg.Encode of the
// already converted picture: the floor set by image/jpeg, whose
// allocations (5 per colour frame, 3 per grey one) are all Encode has.
func BenchmarkEncode(b *testing.B) {
	src := source(640, 480)
	for _, enc := range []string{"yuv422_yuy2", "uyvy", "mono8", "mono16", "rgb8", "bayer_grbg8"} {
		f := frameOf(b, src, enc, 0, false)
		b.Run(enc, func(b *testing.B) {
			e, _ := New(DefaultQuality)
			jpg, err := e.Encode(f)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if _, err := e.Encode(f); err != nil {
					b.Fatal(err)
				}
			}
			per := time.Since(start) / time.Duration(b.N)
			b.ReportMetric(float64(len(jpg)), "jpeg-B")
			b.ReportMetric(100*30*per.Seconds(), "cpu%@30Hz")
		})
	}
	b.Run("image-jpeg-only/yuv422_yuy2", func(b *testing.B) {
		f := frameOf(b, src, "yuv422_yuy2", 0, false)
		e, _ := New(DefaultQuality)
		img := mustConvert(b, e, f)
		var out jpegBuf
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			out.b = out.b[:0]
			if err := jpeg.Encode(&out, img, &e.opts); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkConvert is the conversion alone, without JPEG: 0 allocs.
func BenchmarkConvert(b *testing.B) {
	src := source(640, 480)
	for _, enc := range []string{"yuv422_yuy2", "mono16", "rgb8", "bayer_grbg8"} {
		f := frameOf(b, src, enc, 0, false)
		b.Run(enc, func(b *testing.B) {
			e, _ := New(DefaultQuality)
			mustConvert(b, e, f)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := e.convert(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
