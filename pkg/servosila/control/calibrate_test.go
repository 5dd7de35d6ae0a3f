package control

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

func TestFitSeed001(t *testing.T) {
	f, err := os.Open("testdata/calibration_seed001.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lin, ang, err := ReadMeasurements(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(lin) != 9 || len(ang) != 5 {
		t.Fatalf("%d linear and %d angular rows, want 9 and 5", len(lin), len(ang))
	}
	for _, c := range []struct {
		name                       string
		rows                       []Measurement
		coef, mean, resid, ratio00 float64
	}{
		// Coefficients computed independently (Python, sum(u*v)/sum(v*v));
		// the mean ratios are the Russian paper's 72021.739 and, for yaw,
		// 23982.6 (the paper rounds it to 24000).
		{"linear", lin, 72038.2214, 72021.7391, 73.574, 72000},
		{"angular", ang, 23975.7186, 23982.6087, 34.516, 24000},
	} {
		t.Run(c.name, func(t *testing.T) {
			fit, err := FitScale(c.rows)
			if err != nil {
				t.Fatal(err)
			}
			near := func(what string, got, want, tol float64) {
				if math.Abs(got-want) > tol {
					t.Errorf("%s = %.4f, want %.4f", what, got, want)
				}
			}
			near("coefficient", fit.Coefficient, c.coef, 1e-3)
			near("mean ratio", fit.MeanRatio, c.mean, 1e-3)
			near("residual", fit.Residual, c.resid, 1e-3)
			near("row 1 ratio", fit.Rows[0].Ratio, c.ratio00, 1e-6)
		})
	}
}

func TestFitExactLine(t *testing.T) {
	// Rows generated from k = 50000 exactly: the fit finds it, residual 0.
	var rows []Measurement
	for _, u := range []float64{5000, 10000, 20000} {
		v := u / 50000
		rows = append(rows, Measurement{Command: u, Rotations: 10, TrackLength: 1, Time: 10 / v})
	}
	fit, err := FitScale(rows)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(fit.Coefficient-50000) > 1e-6 || fit.Residual > 1e-6 {
		t.Errorf("fit %+v", fit)
	}
}

func TestCalibrationBadInput(t *testing.T) {
	for name, in := range map[string]string{
		"empty":           "",
		"wrong header":    "a,b,c,d,e\n",
		"bad kind":        "kind,command,rotations,track_length_m,time_s,turn_radius_m\nsideways,1,1,1,1,\n",
		"angular radius":  "kind,command,rotations,track_length_m,time_s,turn_radius_m\nangular,1,1,1,1,\n",
		"not a number":    "kind,command,rotations,track_length_m,time_s,turn_radius_m\nlinear,x,1,1,1,\n",
		"too few columns": "kind,command,rotations,track_length_m,time_s,turn_radius_m\nlinear,1,1\n",
	} {
		if _, _, err := ReadMeasurements(strings.NewReader(in)); !errors.Is(err, ErrCalibration) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, rows := range map[string][]Measurement{
		"none":      nil,
		"zero time": {{Command: 1, Rotations: 1, TrackLength: 1}},
		"NaN":       {{Command: math.NaN(), Rotations: 1, TrackLength: 1, Time: 1}},
	} {
		if _, err := FitScale(rows); !errors.Is(err, ErrCalibration) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
