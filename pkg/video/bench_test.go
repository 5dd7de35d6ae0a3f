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
