package servosila_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila"
)

// A remote-control packet that drives forward at 0.3 m/s, built from the
// SI command with the default configuration.
func ExampleConfig_Convert() {
	cfg, _ := servosila.Config{}.WithDefaults()
	// Driving forward, a small yaw rate passes unchanged (the minimum
	// start velocity applies only when both parts are below 0.2).
	cmd := servosila.Command{Linear: 0.3, Angular: -0.1}
	ch := cfg.Convert(&cmd)
	rc := servosila.RemoteControl{FrameType: cfg.Frames.RemoteControl}
	cfg.Mapping.Encode(&rc, &ch)
	pkt, _ := servosila.EncodeRemoteControl(make([]byte, servosila.RemoteControlSize), &rc)
	fmt.Println("axis 1 (drive):", rc.Axes[1], "axis 0 (turn):", rc.Axes[0])
	fmt.Printf("%x\n", pkt[:5])
	// Output:
	// axis 1 (drive): 21466 axis 0 (turn): -2517
	// 012bf6da53
}

func ExampleDecodeTelemetry() {
	t := servosila.Telemetry{FrameType: 2, Tick: 42, MotorCount: 10}
	t.Motors[3].Position = 16384 // a quarter turn
	raw, _ := servosila.EncodeTelemetry(make([]byte, servosila.TelemetrySize), &t)

	var got servosila.Telemetry
	if err := servosila.DecodeTelemetry(&got, raw, 2); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("tick %d, motor 3 at %.1f deg\n", got.Tick, servosila.CountsToRad(got.Motors[3].Position, 0)*180/3.141592653589793)
	err := servosila.DecodeTelemetry(&got, raw[:100], 2)
	fmt.Println(err)
	// Output:
	// tick 42, motor 3 at 90.0 deg
	// servosila: decode telemetry: wrong packet length: 100 bytes, want 275
}

func ExampleFitScale() {
	f, _ := os.Open("testdata/calibration_seed001.csv")
	defer f.Close()
	linear, _, _ := servosila.ReadMeasurements(f)
	fit, _ := servosila.FitScale(linear)
	fmt.Printf("%.1f units per m/s, residual %.1f units\n", fit.Coefficient, fit.Residual)
	// Output: 72038.2 units per m/s, residual 73.6 units
}

// Driving the robot: run the driver, give it commands in SI units, stop.
// (Not run as a test: it needs a robot; see the end-to-end tests for the
// same against the simulator.)
func ExampleDriver() {
	drv, err := servosila.New(servosila.Config{Robot: "10.42.0.1:10000"})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- drv.Run(ctx) }()

	_ = drv.SetCommand(servosila.Command{Linear: 0.3}) // refresh within CommandTimeout
	_ = drv.SetJointTarget(servosila.Waist, 0.5)       // [rad]
	time.Sleep(time.Second)
	drv.EStop() // all axes zero at once, latched
	drv.Release()

	stop() // zero packets go out, then the socket closes
	<-done
}

// The chassis rule: a small twist from standstill is raised keeping its
// curvature; a limited one is scaled keeping its curvature.
func ExampleConfig_Chassis() {
	cfg, _ := servosila.Config{}.WithDefaults()
	fmt.Println(cfg.Chassis(0.1, 0.05))  // both below 0.2: raised, radius 2 m kept
	fmt.Println(cfg.Chassis(0.45, 0.12)) // driving: the yaw rate passes
	fmt.Println(cfg.Chassis(0.5, 0.25))  // over max_linear 0.45: radius 2 m kept
	// Output:
	// 0.2 0.1
	// 0.45 0.12
	// 0.45 0.225
}
