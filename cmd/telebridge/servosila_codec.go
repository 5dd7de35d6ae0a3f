package main

import (
	"encoding/hex"
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/servosila"
	servosilawire "github.com/telebridge/telebridge/pkg/servosila/wire"
)

// Protocol "servosila" for `telebridge decode` and `telebridge encode`.

func init() {
	registerProtocol(protocol{
		name:   "servosila",
		decode: decodeServosila,
		encode: encodeServosila,
	})
}

// servosilaRemoteControlJSON is a remote-control packet with the protocol's
// raw field names.
type servosilaRemoteControlJSON struct {
	Packet       string                          `json:"packet"`
	FrameType    uint8                           `json:"frame_type"`
	Axes         [servosilawire.NumAxes]int16    `json:"axes"`
	Buttons      [servosilawire.NumButtons]uint8 `json:"buttons"`
	VideoBitRate any                             `json:"video_bit_rate"` // a number, or "NaN"/"+Inf"/"-Inf"
}

type servosilaMotorJSON struct {
	DeviceID        uint8  `json:"device_id"`
	State           uint8  `json:"state"`
	OperationMode   uint8  `json:"operation_mode"`
	Position        uint32 `json:"position"`
	Speed           int16  `json:"speed"`
	Current         int16  `json:"current"`
	StatusBits      int16  `json:"status_bits"`
	PositionCommand uint32 `json:"position_command"`
	SpeedCommand    int16  `json:"speed_command"`
	CurrentCommand  int16  `json:"current_command"`
	FaultDetected   uint8  `json:"fault_detected"`
	FaultCounter    uint16 `json:"fault_counter"`
}

type servosilaTelemetryJSON struct {
	Packet     string               `json:"packet"`
	FrameType  uint8                `json:"frame_type"`
	Tick       uint64               `json:"tick"`
	MotorCount uint8                `json:"motor_count"`
	Motors     []servosilaMotorJSON `json:"motors"` // all records, in packet order
	Unused     string               `json:"unused"` // hex
}

// decodeServosila tells the packet kind by its size and checks the frame
// type with the default ids (1 remote control, 2 telemetry).
func decodeServosila(pkt []byte) (any, error) {
	ft := servosilawire.DefaultFrameTypes()
	switch len(pkt) {
	case servosilawire.RemoteControlSize:
		var rc servosilawire.RemoteControl
		if err := servosilawire.DecodeRemoteControl(&rc, pkt, ft.RemoteControl); err != nil {
			return nil, err
		}
		return servosilaRemoteControlJSON{
			Packet: "remote_control", FrameType: rc.FrameType, Axes: rc.Axes, Buttons: rc.Buttons,
			VideoBitRate: jsonFloat(rc.VideoBitRate),
		}, nil
	case servosilawire.TelemetrySize:
		var t servosilawire.Telemetry
		if err := servosilawire.DecodeTelemetry(&t, pkt, ft.Telemetry); err != nil {
			return nil, err
		}
		out := servosilaTelemetryJSON{
			Packet: "telemetry", FrameType: t.FrameType, Tick: t.Tick, MotorCount: t.MotorCount,
			Motors: make([]servosilaMotorJSON, len(t.Motors)), Unused: hex.EncodeToString(t.Unused[:]),
		}
		for i, m := range t.Motors {
			out.Motors[i] = servosilaMotorJSON(m)
		}
		return out, nil
	}
	return nil, fmt.Errorf("servosila: decode: %w: %d bytes, want %d (remote control) or %d (telemetry)",
		servosilawire.ErrLength, len(pkt), servosilawire.RemoteControlSize, servosilawire.TelemetrySize)
}

func jsonFloat(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	return v
}

// servosilaCommandFlags are the SI command flags shared by encode and the
// driver command.
type servosilaCommandFlags struct {
	linear, angular float64
	joints          [servosilawire.NumJoints]float64
	headlight       bool
	russian         bool
}

func (f *servosilaCommandFlags) register(fs interface {
	Float64Var(*float64, string, float64, string)
	BoolVar(*bool, string, bool, string)
}) {
	fs.Float64Var(&f.linear, "linear", 0, "chassis forward velocity [m/s]")
	fs.Float64Var(&f.angular, "angular", 0, "chassis yaw rate [rad/s], positive turns left")
	for j := servosilawire.Joint(0); j < servosilawire.NumJoints; j++ {
		fs.Float64Var(&f.joints[j], j.String(), 0, j.String()+" velocity [rad/s]")
	}
	fs.BoolVar(&f.headlight, "headlight", false, "headlight on")
	fs.BoolVar(&f.russian, "russian", false, "use the Russian paper's calibration (72021.739 units per m/s, 24000 per rad/s)")
}

func (f *servosilaCommandFlags) command() servosilawire.Command {
	return servosilawire.Command{Linear: f.linear, Angular: f.angular, Joints: f.joints, Headlight: f.headlight}
}

func (f *servosilaCommandFlags) config() servosila.Config {
	var c servosila.Config
	if f.russian {
		cal := servosilawire.RussianCalibration()
		c.Calibration = &cal
	}
	return c
}

// encodeServosila prints the remote-control packet for an SI command, with
// the same conversion as the driver (limits, 0.2 minimum start, mapping).
func encodeServosila(args []string, io stdio) error {
	fs := newFlagSet("encode servosila", io)
	var f servosilaCommandFlags
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	cmd := f.command()
	if err := cmd.Validate(); err != nil {
		return err
	}
	cfg, err := f.config().WithDefaults()
	if err != nil {
		return err
	}
	ch := cfg.Convert(&cmd)
	rc := servosilawire.RemoteControl{FrameType: cfg.Frames.RemoteControl}
	if dropped := cfg.Mapping.Encode(&rc, &ch); dropped != 0 {
		fmt.Fprintf(io.err, "telebridge encode servosila: warning: %s cannot move with this command: the protocol shares their axes with a higher-priority channel (e.g. the waist with the chassis)\n", servosilawire.DroppedNames(dropped))
	}
	pkt, err := servosilawire.EncodeRemoteControl(make([]byte, servosilawire.RemoteControlSize), &rc)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(io.out, hex.EncodeToString(pkt))
	return err
}
