package video

import (
	"testing"
)

// BenchmarkEncode encodes 640x480 pattern frames at 1 Mbit/s, paced at
// 30 Hz in real time (libvpx reads the wall clock; x264 does not care),
// and reports CPU time per frame (getrusage, all threads) and the
// achieved bitrate. Run: go test -run '^$' -bench Encode -benchtime 300x
// ./pkg/video (add -tags vpx for VP8).
func BenchmarkEncode(b *testing.B) {
	requireX264(b)
	for _, name := range candidateNames() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			aus, cpu := encodePaced(b, candidates[name], b.N, 1_000_000)
			size := 0
			for _, a := range aus {
				size += len(a)
			}
			b.ReportMetric(ms(cpu)/float64(b.N), "cpu-ms/frame")
			b.ReportMetric(float64(size)*8*30/float64(b.N)/1000, "kbit/s")
		})
	}
}

// BenchmarkX264Encode is the encoder's own cost per 640x480 picture at
// 1 Mbit/s, not paced (x264 counts time in frames): the allocation
// reported is the access unit the caller owns.
func BenchmarkX264Encode(b *testing.B) {
	requireX264(b)
	enc, err := NewEncoder(EncoderConfig{Width: 640, Height: 480, FrameRate: 30, Bitrate: 1_000_000})
	if err != nil {
		b.Fatal(err)
	}
	defer enc.Close()
	m := newMovingPattern(640, 480)
	var pics [30]I420
	for k := range pics {
		m.frame(&pics[k], k)
	}
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		if _, _, err := enc.Encode(&pics[k%len(pics)], false); err != nil {
			b.Fatal(err)
		}
		k++
	}
}
