package servosila_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/node"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Joint states from the simulated robot's telemetry over UDP equal the
// simulator's true joint angles, flippers and gripper included.
func TestJointStatesMatchSimulator(t *testing.T) {
	initial := [wire.NumJoints]float64{
		wire.Waist: 0.4, wire.Shoulder: -0.3, wire.Elbow: 1.2,
		wire.Neck: -0.7, wire.Flippers: 2.5, wire.Gripper: 0.35,
	}
	sim, err := servosilasim.New(servosilasim.Config{TelemetryRate: 50, PhysicsRate: 100, Initial: initial})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	simErr, drvErr := make(chan error, 1), make(chan error, 1)
	go func() { simErr <- sim.Run(ctx) }()
	cfg := fastConfig()
	cfg.Robot = sim.Addr().String()
	drv, err := servosila.New(cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	go func() { drvErr <- drv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-drvErr; err != nil {
			t.Errorf("driver: %v", err)
		}
		if err := <-simErr; err != nil {
			t.Errorf("simulator: %v", err)
		}
	})
	// Telemetry flows once the simulator has heard from the driver.
	deadline := time.Now().Add(10 * time.Second)
	var tel wire.Telemetry
	for {
		var ok bool
		if tel, _, ok = drv.Telemetry(); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no telemetry within 10 s")
		}
		time.Sleep(5 * time.Millisecond) // polling for the condition, not timing it
	}
	js := node.NewJointStates()
	dcfg := drv.Config()
	js.Fill(&dcfg, &tel)
	truth := sim.State().Joints // nothing was commanded: the joints stand still
	if len(js.Name) != wire.NumJoints {
		t.Fatalf("joint states %v", js.Name)
	}
	for i, name := range js.Name {
		j, _ := wire.ParseJoint(name)
		if d := math.Abs(js.Position[i] - truth[j]); d > 2*math.Pi/wire.CountsPerTurn {
			t.Errorf("%s: published %g rad, simulator %g rad", name, js.Position[i], truth[j])
		}
	}
}
