package camera

import (
	"testing"
	"time"
)

// The capture-to-publish path for 640x480 YUYV at 30 fps, on synthetic
// frames (the driver's part, DQBUF/QBUF, is measured on vivid by
// TestVividCapture). Two pipelines side by side in one run:
//
//   - Native: what this package does: the mmap'ed frame is copied once,
//     into a preallocated sensor_msgs/Image buffer, as yuv422_yuy2.
//   - RGB: what an OpenCV-based publisher does: convert YUYV to RGB8 into
//     an intermediate image (cv::Mat), then copy that into the message
//     (cv_bridge), 1.5 times the bytes.
//
// Each reports ns per frame and the share of one core at 30 fps.

const benchW, benchH = 640, 480

// syntheticRing returns four YUYV frames, standing for the driver's four
// mmap'ed buffers; the benchmarks cycle through them as the driver does.
func syntheticRing() [4][]byte {
	var ring [4][]byte
	for k := range ring {
		ring[k] = make([]byte, benchW*benchH*2)
		for i := range ring[k] {
			ring[k][i] = byte(i*7 + i>>11 + k)
		}
	}
	return ring
}

func reportCPUAt30(b *testing.B) {
	perFrame := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perFrame*30/float64(time.Second)*100, "%core@30fps")
}

func BenchmarkPublishNativeYUYV(b *testing.B) {
	ring := syntheticRing()
	var img Image
	img.Data = make([]byte, len(ring[0]))
	f := Frame{Height: benchH, Width: benchW, Encoding: "yuv422_yuy2", Step: benchW * 2}
	b.SetBytes(int64(len(ring[0])))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Header.Stamp = time.Unix(int64(i), 0)
		f.Data = ring[i%4]
		f.CopyTo(&img)
	}
	reportCPUAt30(b)
}

func BenchmarkPublishConvertRGB(b *testing.B) {
	ring := syntheticRing()
	mat := make([]byte, benchW*benchH*3) // the converted intermediate image
	var img Image
	img.Data = make([]byte, len(mat))
	b.SetBytes(int64(len(ring[0])))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		yuyvToRGB(mat, ring[i%4])
		f := Frame{Header: Header{Stamp: time.Unix(int64(i), 0)}, Height: benchH, Width: benchW,
			Encoding: "rgb8", Step: benchW * 3, Data: mat}
		f.CopyTo(&img)
	}
	reportCPUAt30(b)
}

// yuyvToRGB converts packed YUYV (BT.601, limited range) to RGB8 with
// integer arithmetic, the usual per-pixel conversion of a capture library.
func yuyvToRGB(dst, src []byte) {
	for s, d := 0, 0; s+3 < len(src) && d+5 < len(dst); s, d = s+4, d+6 {
		u, v := int32(src[s+1])-128, int32(src[s+3])-128
		ru, gu, bv := 409*v, -100*u-208*v, 516*u
		for k := 0; k < 2; k++ {
			c := 298 * (int32(src[s+2*k]) - 16)
			dst[d+3*k+0] = clamp8((c + ru + 128) >> 8)
			dst[d+3*k+1] = clamp8((c + gu + 128) >> 8)
			dst[d+3*k+2] = clamp8((c + bv + 128) >> 8)
		}
	}
}

func clamp8(x int32) byte {
	if x < 0 {
		return 0
	}
	if x > 255 {
		return 255
	}
	return byte(x)
}

func TestYUYVToRGBReference(t *testing.T) {
	// Grey, white, black and a saturated red-ish pair.
	src := []byte{128, 128, 128, 128, 235, 128, 16, 128, 81, 90, 81, 240}
	dst := make([]byte, 18)
	yuyvToRGB(dst, src)
	want := []byte{130, 130, 130, 130, 130, 130, 255, 255, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0}
	for i := range want {
		if d := int(dst[i]) - int(want[i]); d < -2 || d > 2 {
			t.Fatalf("rgb %v, want about %v", dst, want)
		}
	}
	if a := testing.AllocsPerRun(10, func() { yuyvToRGB(dst, src) }); a != 0 {
		t.Errorf("conversion allocates %.0f", a)
	}
}
