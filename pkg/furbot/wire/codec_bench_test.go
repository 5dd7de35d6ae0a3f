package wire_test

import (
	"testing"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
	"github.com/telebridge/telebridge/pkg/furbot/wire/wiretest"
)

func TestCodecsAllocateNothing(t *testing.T) {
	raw := unhex(t, wiretest.FullHex)
	ctl := unhex(t, controlGolden[0].raw)
	var s wire.Status
	var c wire.Control
	buf := make([]byte, 0, 256)
	cases := map[string]func(){
		"DecodeStatus":  func() { _ = wire.DecodeStatus(raw, &s) },
		"AppendStatus":  func() { buf = wire.AppendStatus(buf[:0], &wiretest.Full) },
		"DecodeControl": func() { _ = wire.DecodeControl(ctl, &c) },
		"AppendControl": func() { buf = wire.AppendControl(buf[:0], &controlGolden[0].decoded) },
		"AllWorking":    func() { _ = wiretest.Full.AllWorking() },
	}
	for name, fn := range cases {
		if n := testing.AllocsPerRun(200, fn); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", name, n)
		}
	}
}

func BenchmarkDecodeStatus(b *testing.B) {
	raw := unhex(b, wiretest.FullHex)
	var s wire.Status
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if err := wire.DecodeStatus(raw, &s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendStatus(b *testing.B) {
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = wire.AppendStatus(buf[:0], &wiretest.Full)
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkDecodeControl(b *testing.B) {
	raw := unhex(b, controlGolden[0].raw)
	var c wire.Control
	b.ReportAllocs()
	b.SetBytes(wire.ControlSize)
	for b.Loop() {
		if err := wire.DecodeControl(raw, &c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendControl(b *testing.B) {
	buf := make([]byte, 0, wire.ControlSize)
	b.ReportAllocs()
	b.SetBytes(wire.ControlSize)
	for b.Loop() {
		buf = wire.AppendControl(buf[:0], &controlGolden[0].decoded)
	}
}
