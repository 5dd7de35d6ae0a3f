package laser

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/raycast"
	"github.com/telebridge/telebridge/pkg/sdf"
)

// wallWorld: a wall whose face is 2 m ahead of the origin (x = 2, 20 m
// wide, 2 m high), a post 5 cm left of the origin, and nothing else.
const wallWorld = `<sdf version="1.9"><world name="t">
<model name="wall"><static>true</static><pose>2.5 0 1 0 0 0</pose><link name="l">
  <collision name="c"><geometry><box><size>1 20 2</size></box></geometry></collision></link></model>
<model name="post"><static>true</static><pose>0 0.06 0.5 0 0 0</pose><link name="l">
  <collision name="c"><geometry><cylinder><radius>0.01</radius><length>1</length></cylinder></geometry></collision></link></model>
</world></sdf>`

func scene(t testing.TB) *raycast.Scene {
	t.Helper()
	w, err := sdf.Parse([]byte(wallWorld), "wall.sdf", sdf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return raycast.New(w)
}

func TestUTM30LX(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	sc := s.NewScan()
	if s.Beams() != 1081 || len(sc.Ranges) != 1081 {
		t.Fatalf("%d beams, want 1081", s.Beams())
	}
	deg := float32(math.Pi / 180)
	if math.Abs(float64(sc.AngleMin+135*deg)) > 1e-6 || math.Abs(float64(sc.AngleMax-135*deg)) > 1e-6 ||
		math.Abs(float64(sc.AngleIncrement-0.25*deg)) > 1e-9 || sc.RangeMin != 0.1 || sc.RangeMax != 30 ||
		sc.ScanTime != 0.025 || math.Abs(float64(sc.TimeIncrement)-0.025/1440) > 1e-12 {
		t.Errorf("scan fields %+v", *sc)
	}
}

func TestWallAhead(t *testing.T) {
	s, _ := New(UTM30LX())
	sc := s.NewScan()
	sens := geom.Translation(0, 0, 0.5)
	if err := s.Scan(scene(t), sens, sc); err != nil {
		t.Fatal(err)
	}
	cfg := s.Config()
	for i, r := range sc.Ranges {
		a := cfg.AngleMin + float64(i)*cfg.AngleIncrement
		var want float64
		switch {
		case math.Abs(a-math.Pi/2) < math.Asin(0.01/0.06)-1e-3: // the post 6 cm left, 5 cm away
			want = math.Inf(-1)
		case math.Abs(a-math.Pi/2) < math.Asin(0.01/0.06)+1e-3:
			continue // the post's edge
		case math.Abs(a) < math.Atan2(10, 2)-1e-3: // the wall, seen obliquely
			want = 2 / math.Cos(a)
		case math.Abs(a) > math.Atan2(10, 2)+1e-3:
			want = math.Inf(1) // past the wall's end nothing within 30 m
		default:
			continue // the wall's edge
		}
		if math.IsInf(want, 0) {
			if !math.IsInf(float64(r), int(math.Copysign(1, want))) {
				t.Errorf("beam %d (%.2f deg): %g, want %g", i, a*180/math.Pi, r, want)
			}
			continue
		}
		if math.Abs(float64(r)-want) > 1e-5 {
			t.Errorf("beam %d (%.2f deg): %g m, want %g m", i, a*180/math.Pi, r, want)
		}
	}
	if sc.Ranges[540] != 2 {
		t.Errorf("straight ahead %g m, want 2", sc.Ranges[540])
	}
	// Turned 90 degrees right, the wall is on the left: beam 900 (+90
	// degrees) sees it at 2 m, straight ahead and right see nothing, and
	// the post is behind, outside the 270 degrees.
	if err := s.Scan(scene(t), geom.FromXYZEuler(0, 0, 0.5, -math.Pi/2, 0, 0), sc); err != nil {
		t.Fatal(err)
	}
	if math.Abs(float64(sc.Ranges[900])-2) > 1e-5 || !math.IsInf(float64(sc.Ranges[540]), 1) || !math.IsInf(float64(sc.Ranges[180]), 1) {
		t.Errorf("turned: left %g m, ahead %g, right %g", sc.Ranges[900], sc.Ranges[540], sc.Ranges[180])
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{
		{AngleMin: 1, AngleMax: -1},
		{AngleIncrement: -0.1},
		{RangeMin: 5, RangeMax: 1},
		{ScanTime: -1},
		{AngleMin: -4, AngleMax: 4},
		{RangeMax: math.NaN()},
		{AngleIncrement: 1e-9},
	} {
		if _, err := New(c); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want ErrConfig", c, err)
		}
	}
	s, _ := New(Config{})
	if err := s.Scan(scene(t), geom.Identity(), &Scan{Ranges: make([]float32, 10)}); err == nil {
		t.Error("a scan of the wrong length was filled")
	}
}

func TestScanAllocatesNothing(t *testing.T) {
	for _, sigma := range []float64{0, 0.01} {
		s, _ := New(Config{NoiseStdDev: sigma})
		sc, sceneW := s.NewScan(), scene(t)
		pose := geom.Translation(0, 0, 0.5)
		if n := testing.AllocsPerRun(20, func() { _ = s.Scan(sceneW, pose, sc) }); n != 0 {
			t.Errorf("noise %g m: %g allocations per scan", sigma, n)
		}
	}
}

func ExampleScanner_Scan() {
	w, _ := sdf.Parse([]byte(wallWorld), "wall.sdf", sdf.Options{})
	s, _ := New(UTM30LX())
	scan := s.NewScan()
	_ = s.Scan(raycast.New(w), geom.Translation(0, 0, 0.5), scan)
	fmt.Println(len(scan.Ranges), "beams; straight ahead", scan.Ranges[len(scan.Ranges)/2], "m")
	// Output: 1081 beams; straight ahead 2 m
}

// TestNoise checks the added noise has the configured spread, no bias, and
// is the same for the same seed.
func TestNoise(t *testing.T) {
	sc := scene(t)
	pose := geom.Translation(0, 0, 0.5)
	run := func(seed uint64) []float32 {
		s, err := New(Config{NoiseStdDev: 0.01, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		scan := s.NewScan()
		var all []float32
		for range 5 {
			if err := s.Scan(sc, pose, scan); err != nil {
				t.Fatal(err)
			}
			all = append(all, scan.Ranges...)
		}
		return all
	}
	exact, _ := New(Config{})
	ref := exact.NewScan()
	if err := exact.Scan(sc, pose, ref); err != nil {
		t.Fatal(err)
	}
	a, b, c := run(1), run(1), run(2)
	var n, sum, sq float64
	same, differ := true, false
	for i := range a {
		r := ref.Ranges[i%len(ref.Ranges)]
		if a[i] != b[i] {
			same = false
		}
		if a[i] != c[i] {
			differ = true
		}
		if math.IsInf(float64(r), 0) || r < 1 {
			if a[i] != r {
				t.Fatalf("beam %d: %g, want %g untouched (no return, or a return clamped near the minimum)", i, a[i], r)
			}
			continue
		}
		e := float64(a[i] - r)
		n, sum, sq = n+1, sum+e, sq+e*e
	}
	mean := sum / n
	sd := math.Sqrt(sq/n - mean*mean)
	if math.Abs(mean) > 0.002 || math.Abs(sd-0.01) > 0.001 {
		t.Errorf("noise over %g returns: mean %g m, sd %g m; want 0 and 0.01", n, mean, sd)
	}
	if !same || !differ {
		t.Errorf("same seed same ranges: %v; another seed other ranges: %v", same, differ)
	}
	if _, err := New(Config{NoiseStdDev: -1}); !errors.Is(err, ErrConfig) {
		t.Errorf("negative noise: %v", err)
	}
}
