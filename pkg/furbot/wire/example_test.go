package wire_test

import (
	"encoding/hex"
	"fmt"

	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

func ExampleDecodeStatus() {
	raw, _ := hex.DecodeString("41545346000000640200000003110201" + "05dc01f401f6009600000000003039" + "040502fe0cfe0c")
	var s wire.Status
	if err := wire.DecodeStatus(raw, &s); err != nil {
		fmt.Println(err)
		return
	}
	l, r := s.Traction.WheelRates()
	fmt.Printf("t=%d ms speed %.3f m/s wheels %.2f/%.2f rad/s steering %.2f deg\n",
		s.Timestamp, s.Traction.SpeedMPS(), l, r, float64(s.Steering.Angle)/100)
	// Output: t=100 ms speed 1.500 m/s wheels 5.00/5.02 rad/s steering -5.00 deg
}

func ExampleAppendControl() {
	c := wire.Control{Seq: 1, Timestamp: 1000, Steer: 1500, Throttle: 250, Flags: wire.FlagEnable}
	buf := wire.AppendControl(make([]byte, 0, wire.ControlSize), &c)
	fmt.Printf("% x\n", buf)
	// Output: 41 54 43 46 00 00 00 01 00 00 03 e8 00 00 05 dc 00 00 00 fa 00 00 01 00
}
