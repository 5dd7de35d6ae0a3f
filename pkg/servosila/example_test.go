package servosila_test

import (
	"context"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// A remote-control packet that drives forward at 0.3 m/s, built from the
// SI command with the default configuration.
func ExampleConfig_Convert() {
	cfg, _ := servosila.Config{}.WithDefaults()
	// Driving forward, a small yaw rate passes unchanged (the minimum
	// start velocity applies only when both parts are below 0.2).
	cmd := wire.Command{Linear: 0.3, Angular: -0.1}
	ch := cfg.Convert(&cmd)
	rc := wire.RemoteControl{FrameType: cfg.Frames.RemoteControl}
	cfg.Mapping.Encode(&rc, &ch)
	pkt, _ := wire.EncodeRemoteControl(make([]byte, wire.RemoteControlSize), &rc)
	fmt.Println("axis 1 (drive):", rc.Axes[1], "axis 0 (turn):", rc.Axes[0])
	fmt.Printf("%x\n", pkt[:5])
	// Output:
	// axis 1 (drive): 21466 axis 0 (turn): -2517
	// 012bf6da53
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

	_ = drv.SetCommand(wire.Command{Linear: 0.3}) // refresh within CommandTimeout
	_ = drv.SetJointTarget(wire.Waist, 0.5)       // [rad]
	time.Sleep(time.Second)
	drv.EStop() // all axes zero at once, latched
	drv.Release()

	stop() // zero packets go out, then the socket closes
	<-done
}

// The chassis rule: the start speed per track (a track below it is
// raised to it, or stopped when that is nearer); a limited twist is
// scaled keeping its curvature.
func ExampleConfig_ChassisLimits() {
	cfg, _ := servosila.Config{}.WithDefaults()
	l := cfg.ChassisLimits()
	fmt.Println(l.Apply(0.1, 0))     // both tracks below 0.2: raised
	fmt.Println(l.Apply(0.45, 0.12)) // driving: the yaw rate passes
	fmt.Println(l.Apply(0.5, 0.25))  // over max_linear 0.45: radius 2 m kept
	v, w := l.Apply(0.1, 0.2)        // left drive -0.1: stopped, a pivot about it
	fmt.Printf("%.3f %.3f\n", v, w)
	v, w, ok := l.Fit(0.1, 0.2, 0.45, 0.2) // within an operator's 0.2 rad/s
	fmt.Printf("%.3f %.3f %v\n", v, w, ok)
	// Output:
	// 0.2 0
	// 0.45 0.12
	// 0.45 0.225
	// 0.078 0.222
	// 0.070 0.200 true
}
