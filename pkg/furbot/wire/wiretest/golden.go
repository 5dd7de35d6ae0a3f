// Package wiretest holds reference frames of the Furbot protocol for the
// tests of the packages that use package wire (the runtime, the nodes, the
// simulator): one hand-written status frame with every block, as a value
// and as bytes. Units are the protocol's raw counts (see wire.Layout).
package wiretest

import "github.com/telebridge/telebridge/pkg/furbot/wire"

// Full is a status frame with all 12 blocks, every subsystem working,
// written by hand from docs/protocols/furbot.md (not produced by the
// encoder). Tests copy it and change what they need.
var Full = wire.Status{
	Timestamp: 123456,
	Present:   wire.AllBlocks,
	Comm:      wire.Comm{State: 2, Flags: 1, RxFrames: 1234, Rejected: 3},
	BMS:       wire.BMS{State: 2, Charge: 87, Current: 300, Voltage: 4800, TempHi: 31, TempLo: 23},
	Motion:    wire.Motion{State: 2, Mode: 1, Flags: 1, LastSeq: 12345},
	Traction: wire.Traction{State: 2, Mode: 1, Speed: 1500, Left: 500, Right: 502, Throttle: 150,
		Brake: 0, Reverse: 0, Odometer: 12345},
	Steering:   wire.Steering{State: 2, Angle: -500, Target: -500},
	Hydraulics: wire.Hydraulics{State: 2, Pump: 1, Pressure: 1500, OilTemp: 45, OilLevel: 90, Valves: 3},
	Suspension: [4]wire.Suspension{
		{State: 2, Height: -10, Target: 0, Pressure: 400},
		{State: 2, Height: 10, Target: 0, Pressure: 402},
		{State: 2, Height: 0, Target: 0, Pressure: 300},
		{State: 2, Height: 5, Target: 0, Pressure: 302},
	},
	Forks: [2]wire.Fork{
		{State: 2, Lift: 100, Tilt: -200, Shift: 0, Load: 500, Flags: 1},
		{State: 3, Lift: 0, Tilt: 0, Shift: -5, Load: 0, Flags: 0},
	},
}

// FullHex is the bytes of Full, in hex with spaces, newlines and | as
// separators: the header, then each block as id, length | data.
const FullHex = `
41545346 0001e240 0c 000000
00 06 | 02 01 04d2 0003
01 08 | 02 57 012c 12c0 1f 17
02 07 | 02 01 01 00003039
03 11 | 02 01 05dc 01f4 01f6 0096 0000 00 00003039
04 05 | 02 fe0c fe0c
05 08 | 02 01 05dc 2d 5a 0003
06 07 | 02 fff6 0000 0190
07 07 | 02 000a 0000 0192
08 07 | 02 0000 0000 012c
09 07 | 02 0005 0000 012e
0a 0b | 02 0064 ff38 0000 01f4 0001
0b 0b | 03 0000 0000 fffb 0000 0000
`
