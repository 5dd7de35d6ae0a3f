package control_test

import (
	"fmt"
	"os"

	"github.com/telebridge/telebridge/pkg/servosila/control"
)

func ExampleFitScale() {
	f, _ := os.Open("testdata/calibration_seed001.csv")
	defer f.Close()
	linear, _, _ := control.ReadMeasurements(f)
	fit, _ := control.FitScale(linear)
	fmt.Printf("%.1f units per m/s, residual %.1f units\n", fit.Coefficient, fit.Residual)
	// Output: 72038.2 units per m/s, residual 73.6 units
}
