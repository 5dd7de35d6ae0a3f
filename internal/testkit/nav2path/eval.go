package nav2path

import (
	"errors"
	"math"
)

// ErrNoSamples is returned by Evaluate without truth samples or path.
var ErrNoSamples = errors.New("nav2path: no truth samples or no path")

// Moving is the true speed above which a sample counts as moving [m/s].
const Moving = 0.01

// NearEnd is the distance from the path's end within which Result's
// SpeedNearEnd is taken [m].
const NearEnd = 0.3

// Result is a drive measured against its path.
type Result struct {
	// Samples is the number of truth samples.
	Samples int
	// Start is the first sample's pose; StartError its distance from the
	// path's start [m].
	Start      Pose
	StartError float64
	// MaxCrossTrack is the largest distance of a sample from the path
	// [m], the path extended beyond both ends along its end tangents (so
	// that running on past the end or standing behind the start is not
	// counted as cross-track); MaxCrossTrackAt is where, as the distance
	// along the path of the nearest path point [m].
	MaxCrossTrack   float64
	MaxCrossTrackAt float64
	// Final is the last sample's pose; FinalError its distance from the
	// path's end [m], FinalYawError its heading minus the end's [rad].
	Final         Pose
	FinalError    float64
	FinalYawError float64
	// Travelled is the distance between consecutive samples, summed [m].
	Travelled float64
	// DriveTime is the time from the first to the last moving sample
	// (|V| > Moving) [s]: by the samples' T where they carry it, else by
	// their count times the print interval given to Evaluate.
	DriveTime float64
	// SpeedNearEnd is the mean |V| of the moving samples within NearEnd of
	// the path's end [m/s] (0 if none).
	SpeedNearEnd float64
}

// Evaluate measures the truth samples against the path (its poses, as
// Generate returns them). interval is the samples' print period [s], used
// for DriveTime when they carry no time.
func Evaluate(path []Pose, truth []Sample, interval float64) (Result, error) {
	if len(path) == 0 || len(truth) == 0 {
		return Result{}, ErrNoSamples
	}
	start, end := path[0], path[len(path)-1]
	r := Result{Samples: len(truth)}
	r.Start = truth[0].Pose
	r.StartError = math.Hypot(r.Start.X-start.X, r.Start.Y-start.Y)
	first, last := -1, -1
	var nearSum float64
	var nearN int
	for i, s := range truth {
		d, at := CrossTrack(path, s.X, s.Y)
		if d > r.MaxCrossTrack {
			r.MaxCrossTrack, r.MaxCrossTrackAt = d, at
		}
		if i > 0 {
			r.Travelled += math.Hypot(s.X-truth[i-1].X, s.Y-truth[i-1].Y)
		}
		if math.Abs(s.V) > Moving {
			if first < 0 {
				first = i
			}
			last = i
			if math.Hypot(s.X-end.X, s.Y-end.Y) < NearEnd {
				nearSum += math.Abs(s.V)
				nearN++
			}
		}
	}
	if nearN > 0 {
		r.SpeedNearEnd = nearSum / float64(nearN)
	}
	if first >= 0 {
		a, b := truth[first].T, truth[last].T
		if !math.IsNaN(a) && !math.IsNaN(b) {
			r.DriveTime = b - a
		} else {
			r.DriveTime = float64(last-first) * interval
		}
	}
	f := truth[len(truth)-1]
	r.Final = f.Pose
	r.FinalError = math.Hypot(f.X-end.X, f.Y-end.Y)
	r.FinalYawError = wrap(f.Yaw - end.Yaw)
	return r, nil
}

// CrossTrack returns the distance of (x, y) from the polyline through the
// path's poses, its first and last segments extended without end beyond
// the start and the end, and the distance along the path of the nearest
// point (negative before the start, beyond the length after the end).
// A path of one pose is a point.
func CrossTrack(path []Pose, x, y float64) (dist, along float64) {
	if len(path) == 1 {
		return math.Hypot(x-path[0].X, y-path[0].Y), 0
	}
	dist = math.Inf(1)
	s0 := 0.0 // distance along the path of segment i's start
	for i := 0; i+1 < len(path); i++ {
		a, b := path[i], path[i+1]
		dx, dy := b.X-a.X, b.Y-a.Y
		l2 := dx*dx + dy*dy
		l := math.Sqrt(l2)
		if l2 == 0 {
			continue
		}
		u := ((x-a.X)*dx + (y-a.Y)*dy) / l2
		if i > 0 && u < 0 {
			u = 0
		}
		if i+2 < len(path) && u > 1 {
			u = 1
		}
		d := math.Hypot(x-(a.X+u*dx), y-(a.Y+u*dy))
		if d < dist {
			dist, along = d, s0+u*l
		}
		s0 += l
	}
	return dist, along
}
