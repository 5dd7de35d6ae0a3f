package trajectory

import (
	"encoding/binary"
	"math"
	"testing"
	"time"
)

// FuzzValidate builds arbitrary goals from bytes: Validate and Start must
// never panic, must agree, and an accepted goal's setpoints must be finite
// and within the limits at its knots.
func FuzzValidate(f *testing.F) {
	f.Add([]byte{2, 2, 0, 1, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f})
	f.Add([]byte{1, 3, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 9, 9, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		num := func() float64 {
			var b [8]byte
			for i := range b {
				b[i] = next()
			}
			return math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
		}
		names := []string{"a", "b", "c", "x"}
		g := &Goal{}
		for range int(next()) % 5 {
			g.JointNames = append(g.JointNames, names[next()%4])
		}
		m := int(next()) % 5
		for range m {
			flags := next()
			p := Point{TimeFromStart: time.Duration(int64(next())-64) * 50 * time.Millisecond}
			for range int(flags)%2 + len(g.JointNames) - 1 + 1 {
				p.Positions = append(p.Positions, num())
			}
			if flags&2 != 0 {
				for range len(g.JointNames) {
					p.Velocities = append(p.Velocities, num())
				}
			}
			if flags&4 != 0 {
				for range len(g.JointNames) {
					p.Accelerations = append(p.Accelerations, num())
				}
			}
			g.Points = append(g.Points, p)
		}
		if next()&1 != 0 {
			g.Start = t0.Add(time.Duration(int64(next())-128) * 100 * time.Millisecond)
		}
		if next()&1 != 0 {
			g.PathTolerance = append(g.PathTolerance, Tolerance{Name: names[next()%4], Position: num()})
		}
		cfg := Config{Joints: []string{"a", "b", "c"}, Lower: []float64{-1, -2, 0}, Upper: []float64{1, 2, 0},
			MaxVelocity: []float64{1, 2, 0}, AllowPartial: next()&1 != 0}
		fl, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		e := fl.Validate(g, t0)
		_, e2 := fl.Start(g, t0, State{Positions: make([]float64, 3)})
		if (e == nil) != (e2 == nil) {
			t.Fatalf("Validate %v, Start %v", e, e2)
		}
		if e != nil {
			if e.Code != InvalidGoal && e.Code != InvalidJoints && e.Code != OldHeaderTimestamp {
				t.Fatalf("code %v", e.Code)
			}
			return
		}
		sp := Setpoint{make([]float64, 3), make([]float64, 3), make([]float64, 3)}
		start := fl.StartTime()
		for _, p := range g.Points {
			fl.Desired(start.Add(p.TimeFromStart), sp)
			for j := range 3 {
				if !finite(sp.Positions[j]) {
					t.Fatalf("setpoint %v at %v", sp, p.TimeFromStart)
				}
				if j < 2 && (sp.Positions[j] < cfg.Lower[j] || sp.Positions[j] > cfg.Upper[j]) {
					t.Fatalf("knot setpoint %v outside the limits", sp.Positions)
				}
			}
		}
	})
}
