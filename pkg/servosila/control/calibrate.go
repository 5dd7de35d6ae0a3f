package control

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ErrCalibration is wrapped by every calibration input error.
var ErrCalibration = errors.New("servosila: calibration")

// Measurement is one row of a calibration experiment: the robot stands on
// blocks with its tracks free, a constant command is sent, and the time
// for a number of full track rotations is measured.
type Measurement struct {
	Command     float64 // the axis value sent [protocol units]
	Rotations   float64 // full track rotations counted
	TrackLength float64 // length of one track [m]
	Time        float64 // duration of those rotations [s]
	// TurnRadius, for a yaw measurement, is the radius of the on-the-spot
	// turn [m]: the yaw rate is the track speed divided by it. Zero for a
	// linear measurement.
	TurnRadius float64
}

// Velocity returns the measured velocity: track speed L*N/t [m/s], or for
// a yaw measurement that speed divided by the turn radius [rad/s].
func (m Measurement) Velocity() float64 {
	v := m.TrackLength * m.Rotations / m.Time
	if m.TurnRadius > 0 {
		v /= m.TurnRadius
	}
	return v
}

func (m Measurement) validate() error {
	for _, f := range []struct {
		n string
		v float64
	}{{"command", m.Command}, {"rotations", m.Rotations}, {"track length", m.TrackLength}, {"time", m.Time}} {
		if bad(f.v) || f.v <= 0 {
			return fmt.Errorf("%w: %s %g must be positive", ErrCalibration, f.n, f.v)
		}
	}
	if bad(m.TurnRadius) || m.TurnRadius < 0 {
		return fmt.Errorf("%w: turn radius %g", ErrCalibration, m.TurnRadius)
	}
	return nil
}

// RowFit is one measurement against the fitted line.
type RowFit struct {
	Measurement
	Velocity float64 // measured [m/s or rad/s]
	Ratio    float64 // Command / Velocity [units per m/s or rad/s]
	Residual float64 // Command - Coefficient*Velocity [units]
}

// Fit is the least-squares scale of one axis: Command = Coefficient *
// Velocity, a line through the origin (zero command, zero motion).
type Fit struct {
	Coefficient float64 // [units per m/s] or [units per rad/s]
	// MeanRatio is the mean of the per-row ratios (the Russian paper's
	// way of averaging).
	MeanRatio float64
	// Residual is the RMS of the row residuals [units]; Residual /
	// Coefficient is the same in velocity.
	Residual float64
	Rows     []RowFit // the fit of each row, in input order
}

// FitScale fits Command = k * Velocity by least squares through the
// origin: k = sum(u*v) / sum(v*v).
func FitScale(rows []Measurement) (Fit, error) {
	if len(rows) == 0 {
		return Fit{}, fmt.Errorf("%w: no measurements", ErrCalibration)
	}
	var suv, svv, sratio float64
	fit := Fit{Rows: make([]RowFit, len(rows))}
	for i, m := range rows {
		if err := m.validate(); err != nil {
			return Fit{}, fmt.Errorf("row %d: %w", i+1, err)
		}
		v := m.Velocity()
		suv += m.Command * v
		svv += v * v
		fit.Rows[i] = RowFit{Measurement: m, Velocity: v, Ratio: m.Command / v}
		sratio += fit.Rows[i].Ratio
	}
	fit.Coefficient = suv / svv
	fit.MeanRatio = sratio / float64(len(rows))
	var ss float64
	for i := range fit.Rows {
		r := &fit.Rows[i]
		r.Residual = r.Command - fit.Coefficient*r.Velocity
		ss += r.Residual * r.Residual
	}
	fit.Residual = math.Sqrt(ss / float64(len(rows)))
	return fit, nil
}

// ReadMeasurements reads a calibration table in CSV with the header
//
//	kind,command,rotations,track_length_m,time_s,turn_radius_m
//
// where kind is "linear" or "angular" (turn_radius_m is needed for angular
// rows and may be empty for linear ones). Blank lines and lines starting
// with '#' are skipped.
func ReadMeasurements(r io.Reader) (linear, angular []Measurement, err error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	head, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: read header: %v", ErrCalibration, err)
	}
	want := []string{"kind", "command", "rotations", "track_length_m", "time_s", "turn_radius_m"}
	if len(head) < len(want)-1 {
		return nil, nil, fmt.Errorf("%w: header %q, want %s", ErrCalibration, head, strings.Join(want, ","))
	}
	for i, h := range head {
		if i < len(want) && strings.TrimSpace(h) != want[i] {
			return nil, nil, fmt.Errorf("%w: header column %d is %q, want %q", ErrCalibration, i+1, h, want[i])
		}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %v", ErrCalibration, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) < 5 {
			return nil, nil, fmt.Errorf("%w: line %d: %d fields, want 5 or 6", ErrCalibration, line, len(rec))
		}
		var f [5]float64
		for i := 1; i < len(rec) && i < 6; i++ {
			s := strings.TrimSpace(rec[i])
			if s == "" && i == 5 {
				continue
			}
			// Accept a decimal comma as in the Russian paper's tables.
			v, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: line %d, %s: %v", ErrCalibration, line, want[i], err)
			}
			f[i-1] = v
		}
		m := Measurement{Command: f[0], Rotations: f[1], TrackLength: f[2], Time: f[3], TurnRadius: f[4]}
		switch strings.TrimSpace(rec[0]) {
		case "linear":
			m.TurnRadius = 0
			linear = append(linear, m)
		case "angular":
			if !(m.TurnRadius > 0) {
				return nil, nil, fmt.Errorf("%w: line %d: angular row needs turn_radius_m", ErrCalibration, line)
			}
			angular = append(angular, m)
		default:
			return nil, nil, fmt.Errorf("%w: line %d: kind %q, want linear or angular", ErrCalibration, line, rec[0])
		}
	}
	return linear, angular, nil
}
