package wire_test

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

func ExampleDecodeTelemetry() {
	t := wire.Telemetry{FrameType: 2, Tick: 42, MotorCount: 10}
	t.Motors[3].Position = 16384 // a quarter turn
	raw, _ := wire.EncodeTelemetry(make([]byte, wire.TelemetrySize), &t)

	var got wire.Telemetry
	if err := wire.DecodeTelemetry(&got, raw, 2); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("tick %d, motor 3 at %.1f deg\n", got.Tick, wire.CountsToRad(got.Motors[3].Position, 0)*180/3.141592653589793)
	err := wire.DecodeTelemetry(&got, raw[:100], 2)
	fmt.Println(err)
	// Output:
	// tick 42, motor 3 at 90.0 deg
	// servosila: decode telemetry: wrong packet length: 100 bytes, want 275
}
