package furbot

import "testing"

func TestCodecsAllocateNothing(t *testing.T) {
	raw := unhex(t, goldenFullHex)
	ctl := unhex(t, controlGolden[0].raw)
	var s Status
	var c Control
	buf := make([]byte, 0, 256)
	cases := map[string]func(){
		"DecodeStatus":  func() { _ = DecodeStatus(raw, &s) },
		"AppendStatus":  func() { buf = AppendStatus(buf[:0], &goldenFull) },
		"DecodeControl": func() { _ = DecodeControl(ctl, &c) },
		"AppendControl": func() { buf = AppendControl(buf[:0], &controlGolden[0].decoded) },
		"AllWorking":    func() { _ = goldenFull.AllWorking() },
	}
	for name, fn := range cases {
		if n := testing.AllocsPerRun(200, fn); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
}

func BenchmarkDecodeStatus(b *testing.B) {
	raw := unhex(b, goldenFullHex)
	var s Status
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if err := DecodeStatus(raw, &s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendStatus(b *testing.B) {
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendStatus(buf[:0], &goldenFull)
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkDecodeControl(b *testing.B) {
	raw := unhex(b, controlGolden[0].raw)
	var c Control
	b.ReportAllocs()
	b.SetBytes(ControlSize)
	for b.Loop() {
		if err := DecodeControl(raw, &c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendControl(b *testing.B) {
	buf := make([]byte, 0, ControlSize)
	b.ReportAllocs()
	b.SetBytes(ControlSize)
	for b.Loop() {
		buf = AppendControl(buf[:0], &controlGolden[0].decoded)
	}
}
