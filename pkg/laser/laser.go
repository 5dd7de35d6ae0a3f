package laser

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/raycast"
	"gonum.org/v1/gonum/spatial/r3"
)

// Config describes a scanner. New fills zero fields from UTM30LX.
type Config struct {
	// AngleMin and AngleMax are the first and last beam's angles about
	// the sensor's Z, from its +X [rad]; default -3/4 pi and +3/4 pi.
	AngleMin, AngleMax float64
	// AngleIncrement is the step between beams [rad]; default 0.25 degree.
	AngleIncrement float64
	// RangeMin and RangeMax bound a valid return [m]; default 0.1 and 30.
	RangeMin, RangeMax float64
	// ScanTime is the period of a scan [s]; default 1/40 (40 Hz).
	ScanTime float64
	// TimeIncrement is the time between beams [s]; default ScanTime/1440
	// (the UTM-30LX's mirror turns a full circle of 1440 steps a scan).
	TimeIncrement float64
	// NoiseStdDev is the standard deviation of Gaussian noise added to
	// every return [m]; default 0, exact ranges. The UTM-30LX's datasheet
	// gives a repeatability under 0.01 m (1 sigma, 0.1-10 m).
	NoiseStdDev float64
	// Seed starts the noise of each Scan made by NewScan: the same seed
	// and the same scenes give the same ranges.
	Seed uint64
}

// UTM30LX returns the Hokuyo UTM-30LX-EW of seed 000.
func UTM30LX() Config {
	return Config{
		AngleMin:       -135 * math.Pi / 180,
		AngleMax:       135 * math.Pi / 180,
		AngleIncrement: 0.25 * math.Pi / 180,
		RangeMin:       0.1,
		RangeMax:       30,
		ScanTime:       1.0 / 40,
		TimeIncrement:  1.0 / 40 / 1440,
	}
}

// Scan is one sweep, field for field a sensor_msgs/LaserScan without its
// header (the publisher stamps it with the scan's start time and the
// sensor's frame).
type Scan struct {
	AngleMin       float32 // first beam [rad]
	AngleMax       float32 // last beam [rad]
	AngleIncrement float32 // between beams [rad]
	TimeIncrement  float32 // between beams [s]
	ScanTime       float32 // between scans [s]
	RangeMin       float32 // [m]
	RangeMax       float32 // [m]
	// Ranges has one reading per beam [m], +Inf for no return within
	// RangeMax, -Inf for a return closer than RangeMin (REP 117).
	Ranges []float32
	// Intensities is empty: the simulation has no reflectivity.
	Intensities []float32

	noise *rand.Rand // this scan's noise stream, from Config.Seed
}

// Scanner casts the beams of one Config.
type Scanner struct {
	cfg  Config
	dirs []r3.Vec // unit beam directions in the sensor frame
}

// ErrConfig is wrapped by New for a Config that describes no scanner.
var ErrConfig = errors.New("laser: invalid config")

// New validates cfg, fills its zero fields from UTM30LX and precomputes
// the beams.
func New(cfg Config) (*Scanner, error) {
	d := UTM30LX()
	if cfg.AngleMin == 0 && cfg.AngleMax == 0 {
		cfg.AngleMin, cfg.AngleMax = d.AngleMin, d.AngleMax
	}
	if cfg.AngleIncrement == 0 {
		cfg.AngleIncrement = d.AngleIncrement
	}
	if cfg.RangeMin == 0 {
		cfg.RangeMin = d.RangeMin
	}
	if cfg.RangeMax == 0 {
		cfg.RangeMax = d.RangeMax
	}
	if cfg.ScanTime == 0 {
		cfg.ScanTime = d.ScanTime
	}
	if cfg.TimeIncrement == 0 {
		cfg.TimeIncrement = cfg.ScanTime / 1440
	}
	for _, v := range []float64{cfg.AngleMin, cfg.AngleMax, cfg.AngleIncrement, cfg.RangeMin, cfg.RangeMax, cfg.ScanTime, cfg.TimeIncrement, cfg.NoiseStdDev} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: a field is not finite (%+v)", ErrConfig, cfg)
		}
	}
	switch {
	case !(cfg.AngleMax > cfg.AngleMin) || cfg.AngleMax-cfg.AngleMin > 2*math.Pi+1e-9:
		return nil, fmt.Errorf("%w: angles %g..%g rad (need min < max, at most a full turn)", ErrConfig, cfg.AngleMin, cfg.AngleMax)
	case !(cfg.AngleIncrement > 0) || (cfg.AngleMax-cfg.AngleMin)/cfg.AngleIncrement > 1e5:
		return nil, fmt.Errorf("%w: angle increment %g rad", ErrConfig, cfg.AngleIncrement)
	case !(cfg.RangeMin >= 0) || !(cfg.RangeMax > cfg.RangeMin):
		return nil, fmt.Errorf("%w: ranges %g..%g m", ErrConfig, cfg.RangeMin, cfg.RangeMax)
	case cfg.NoiseStdDev < 0:
		return nil, fmt.Errorf("%w: noise %g m", ErrConfig, cfg.NoiseStdDev)
	case !(cfg.ScanTime > 0) || !(cfg.TimeIncrement > 0):
		return nil, fmt.Errorf("%w: scan time %g s, time increment %g s", ErrConfig, cfg.ScanTime, cfg.TimeIncrement)
	}
	n := int(math.Round((cfg.AngleMax-cfg.AngleMin)/cfg.AngleIncrement)) + 1
	cfg.AngleMax = cfg.AngleMin + float64(n-1)*cfg.AngleIncrement
	s := &Scanner{cfg: cfg, dirs: make([]r3.Vec, n)}
	for i := range s.dirs {
		sn, cs := math.Sincos(cfg.AngleMin + float64(i)*cfg.AngleIncrement)
		s.dirs[i] = r3.Vec{X: cs, Y: sn}
	}
	return s, nil
}

// Config returns the scanner's configuration with its defaults filled and
// AngleMax rounded to a whole number of increments.
func (s *Scanner) Config() Config { return s.cfg }

// Beams returns the number of beams of a scan (1081 for the UTM-30LX).
func (s *Scanner) Beams() int { return len(s.dirs) }

// NewScan returns a Scan with the scanner's fields set and Ranges of the
// right length, for Scan to fill again and again.
func (s *Scanner) NewScan() *Scan {
	return &Scan{
		AngleMin:       float32(s.cfg.AngleMin),
		AngleMax:       float32(s.cfg.AngleMax),
		AngleIncrement: float32(s.cfg.AngleIncrement),
		TimeIncrement:  float32(s.cfg.TimeIncrement),
		ScanTime:       float32(s.cfg.ScanTime),
		RangeMin:       float32(s.cfg.RangeMin),
		RangeMax:       float32(s.cfg.RangeMax),
		Ranges:         make([]float32, len(s.dirs)),
		noise:          rand.New(rand.NewPCG(s.cfg.Seed, 0x9e3779b97f4a7c15)),
	}
}

// Scan casts every beam from the sensor frame at pose (the sensor in the
// world frame) into scene and writes the ranges into dst, whose Ranges
// must have Beams() elements (NewScan makes one). The whole sweep is taken
// at one instant: the scene does not move during it. With NoiseStdDev set,
// each return gets Gaussian noise from dst's stream, kept within
// [RangeMin, RangeMax]; a Scan not made by NewScan gets none.
func (s *Scanner) Scan(scene *raycast.Scene, pose geom.Transform, dst *Scan) error {
	if len(dst.Ranges) != len(s.dirs) {
		return fmt.Errorf("laser: scan has %d ranges, the scanner %d beams", len(dst.Ranges), len(s.dirs))
	}
	rmin, rmax, sigma := s.cfg.RangeMin, s.cfg.RangeMax, s.cfg.NoiseStdDev
	if dst.noise == nil {
		sigma = 0
	}
	for i, d := range s.dirs {
		h, ok := scene.Cast(pose.Translation, pose.Rotation.Rotate(d), rmax)
		switch {
		case !ok:
			dst.Ranges[i] = float32(math.Inf(1))
		case h.Distance < rmin:
			dst.Ranges[i] = float32(math.Inf(-1))
		case sigma > 0:
			dst.Ranges[i] = float32(min(max(h.Distance+sigma*dst.noise.NormFloat64(), rmin), rmax))
		default:
			dst.Ranges[i] = float32(h.Distance)
		}
	}
	return nil
}
