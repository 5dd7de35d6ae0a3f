package main

import (
	"context"
	"fmt"
	"io"
	"os"

	servosilacontrol "github.com/telebridge/telebridge/pkg/servosila/control"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

func init() {
	register(command{
		name:    "calibrate",
		summary: "fit the Servosila units per m/s and per rad/s from a measurement table (CSV)",
		run:     runCalibrate,
	})
}

func runCalibrate(_ context.Context, args []string, stdio stdio) error {
	fs := newFlagSet("calibrate", stdio)
	fs.Usage = func() {
		fmt.Fprintln(stdio.err, "usage: telebridge calibrate [file.csv]   (default: stdin)")
		fmt.Fprintln(stdio.err, "CSV header: kind,command,rotations,track_length_m,time_s,turn_radius_m")
		fmt.Fprintln(stdio.err, "kind is linear or angular; angular rows need the on-the-spot turn radius.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var in io.Reader = stdio.in
	name := "stdin"
	switch fs.NArg() {
	case 0:
	case 1:
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return err
		}
		defer f.Close()
		in, name = f, fs.Arg(0)
	default:
		return fmt.Errorf("%w: one CSV file at most", errUsage)
	}
	linear, angular, err := servosilacontrol.ReadMeasurements(in)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(linear) == 0 && len(angular) == 0 {
		return fmt.Errorf("%s: %w: no measurements", name, servosilacontrol.ErrCalibration)
	}
	w := stdio.out
	def := servosilawire.DefaultCalibration()
	for _, k := range []struct {
		kind, unit string
		rows       []servosilacontrol.Measurement
		current    float64
	}{
		{"linear", "m/s", linear, def.Linear},
		{"angular", "rad/s", angular, def.Angular},
	} {
		if len(k.rows) == 0 {
			fmt.Fprintf(w, "%s: no rows\n\n", k.kind)
			continue
		}
		fit, err := servosilacontrol.FitScale(k.rows)
		if err != nil {
			return fmt.Errorf("%s, %s rows: %w", name, k.kind, err)
		}
		fmt.Fprintf(w, "%s: %.3f units per %s (least squares through the origin, %d rows)\n", k.kind, fit.Coefficient, k.unit, len(k.rows))
		fmt.Fprintf(w, "  mean of row ratios %.3f; RMS residual %.1f units (%.4f %s); default %.3f (%+.2f%%)\n",
			fit.MeanRatio, fit.Residual, fit.Residual/fit.Coefficient, k.unit, k.current, 100*(fit.Coefficient-k.current)/k.current)
		fmt.Fprintf(w, "  %9s %9s %8s %9s %12s %10s\n", "command", "rotations", "time_s", k.unit, "ratio", "residual")
		for _, r := range fit.Rows {
			fmt.Fprintf(w, "  %9.0f %9.0f %8.1f %9.5f %12.3f %10.1f\n", r.Command, r.Rotations, r.Time, r.Velocity, r.Ratio, r.Residual)
		}
		fmt.Fprintln(w)
	}
	return nil
}
