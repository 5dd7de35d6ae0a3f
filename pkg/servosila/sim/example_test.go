package sim_test

import (
	"context"
	"fmt"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila"
	servosilasim "github.com/telebridge/telebridge/pkg/servosila/sim"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// The driver against the simulator over loopback UDP.
func ExampleSim() {
	sim, _ := servosilasim.New(servosilasim.Config{TelemetryRate: 20})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { _ = sim.Run(ctx) }()

	drv, _ := servosila.New(servosila.Config{Robot: sim.Addr().String(), Local: "127.0.0.1:0", SendRate: 20})
	done := make(chan error, 1)
	go func() { done <- drv.Run(ctx) }()
	for i := 0; i < 10; i++ {
		_ = drv.SetCommand(wire.Command{Linear: 0.25})
		time.Sleep(30 * time.Millisecond)
	}
	fmt.Printf("simulated robot drives at %.2f m/s\n", sim.State().Linear)
	stop()
	<-done
	// Output: simulated robot drives at 0.25 m/s
}
