package trajectory

import (
	"testing"
	"time"
)

func BenchmarkSample(b *testing.B) {
	for _, kind := range []string{"linear", "cubic", "quintic"} {
		b.Run(kind, func(b *testing.B) {
			f, err := New(Config{Joints: []string{"a", "b"}, PathTolerance: []Tolerance{{Position: 10}, {Position: 10}}})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := f.Start(&Goal{JointNames: []string{"a", "b"}, Points: threePoints(kind)}, t0, rest(2)); err != nil {
				b.Fatal(err)
			}
			st := State{Positions: make([]float64, 2), Velocities: make([]float64, 2)}
			sp := Setpoint{make([]float64, 2), make([]float64, 2), make([]float64, 2)}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				now := t0.Add(time.Duration(i%3900) * time.Millisecond)
				f.Desired(now.Add(20*time.Millisecond), sp)
				if f.Sample(now, st) != Active {
					b.Fatal(f.Result())
				}
				i++
			}
		})
	}
}
