package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	furbotwire "github.com/telebridge/telebridge/pkg/furbot/wire"
)

func init() {
	registerProtocol(protocol{name: "furbot", decode: decodeFurbot, encode: encodeFurbot})
}

// furbotStatusJSON is a status frame with only the blocks it carried.
type furbotStatusJSON struct {
	Frame      string                 `json:"frame"`
	Timestamp  uint32                 `json:"timestamp"`
	Present    uint16                 `json:"present"`
	Unknown    uint8                  `json:"unknown_blocks"`
	Comm       *furbotwire.Comm       `json:"comm,omitempty"`
	BMS        *furbotwire.BMS        `json:"bms,omitempty"`
	Motion     *furbotwire.Motion     `json:"motion,omitempty"`
	Traction   *furbotwire.Traction   `json:"traction,omitempty"`
	Steering   *furbotwire.Steering   `json:"steering,omitempty"`
	Hydraulics *furbotwire.Hydraulics `json:"hydraulics,omitempty"`
	Suspension map[string]any         `json:"suspension,omitempty"`
	Forks      map[string]any         `json:"forks,omitempty"`
	Working    []string               `json:"working"` // blocks in a working state
}

type furbotControlJSON struct {
	Frame string `json:"frame"`
	furbotwire.Control
	FlagNames []string `json:"flag_names"`
}

// errFurbotFrame is returned for a packet that starts with neither magic.
var errFurbotFrame = errors.New("furbot: neither a status (ATSF) nor a control (ATCF) frame")

func decodeFurbot(pkt []byte) (any, error) {
	if len(pkt) >= 4 && [4]byte(pkt[:4]) == furbotwire.ControlMagic {
		var c furbotwire.Control
		if err := furbotwire.DecodeControl(pkt, &c); err != nil {
			return nil, err
		}
		j := furbotControlJSON{Frame: "control", Control: c, FlagNames: []string{}}
		for bit, name := range map[uint8]string{furbotwire.FlagEnable: "enable", furbotwire.FlagEStop: "estop", furbotwire.FlagReverse: "reverse"} {
			if c.Flags&bit != 0 {
				j.FlagNames = append(j.FlagNames, name)
			}
		}
		slices.Sort(j.FlagNames)
		return j, nil
	}
	if len(pkt) >= 4 && [4]byte(pkt[:4]) != furbotwire.StatusMagic {
		return nil, fmt.Errorf("%w: starts % x", errFurbotFrame, pkt[:4])
	}
	var s furbotwire.Status
	if err := furbotwire.DecodeStatus(pkt, &s); err != nil {
		return nil, err
	}
	j := furbotStatusJSON{Frame: "status", Timestamp: s.Timestamp, Present: s.Present, Unknown: s.Unknown, Working: []string{}}
	if s.Has(furbotwire.BlockComm) {
		j.Comm = &s.Comm
	}
	if s.Has(furbotwire.BlockBMS) {
		j.BMS = &s.BMS
	}
	if s.Has(furbotwire.BlockMotion) {
		j.Motion = &s.Motion
	}
	if s.Has(furbotwire.BlockTraction) {
		j.Traction = &s.Traction
	}
	if s.Has(furbotwire.BlockSteering) {
		j.Steering = &s.Steering
	}
	if s.Has(furbotwire.BlockHydraulics) {
		j.Hydraulics = &s.Hydraulics
	}
	j.Suspension = presentBlocks(&s, furbotwire.BlockSuspRL, s.Suspension[:], "suspension_", "")
	j.Forks = presentBlocks(&s, furbotwire.BlockRearFork, s.Forks[:], "", "_fork")
	for id := furbotwire.BlockID(0); id < furbotwire.NumBlocks; id++ {
		if s.Working(id) {
			j.Working = append(j.Working, id.String())
		}
	}
	return j, nil
}

// presentBlocks maps the blocks of one kind that s carries by a short
// name: the block's name without prefix and suffix ("rl", "front").
func presentBlocks[T any](s *furbotwire.Status, first furbotwire.BlockID, blocks []T, prefix, suffix string) map[string]any {
	var m map[string]any
	for i, b := range blocks {
		id := first + furbotwire.BlockID(i)
		if !s.Has(id) {
			continue
		}
		if m == nil {
			m = map[string]any{}
		}
		m[strings.TrimSuffix(strings.TrimPrefix(id.String(), prefix), suffix)] = b
	}
	return m
}

func encodeFurbot(args []string, io stdio) error {
	fs := newFlagSet("encode furbot", io)
	seq := fs.Uint("seq", 0, "sequence number")
	ts := fs.Uint("timestamp", 0, "sender clock [ms]")
	steer := fs.Float64("steer-deg", 0, "road-wheel angle, positive left [deg]")
	throttle := fs.Float64("throttle", 0, "throttle [%], 0-100")
	brake := fs.Float64("brake", 0, "brake [%], 0-100")
	enable := fs.Bool("enable", false, "set the enable flag")
	estop := fs.Bool("estop", false, "set the emergency-stop flag")
	reverse := fs.Bool("reverse", false, "set the reverse-gear flag")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if *seq > math.MaxUint32 || *ts > math.MaxUint32 {
		return fmt.Errorf("%w: --seq and --timestamp must fit in 32 bits", errUsage)
	}
	for name, v := range map[string]float64{"steer-deg": *steer, "throttle": *throttle, "brake": *brake} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: --%s is not finite", errUsage, name)
		}
	}
	c := furbotwire.Control{
		Seq: uint32(*seq), Timestamp: uint32(*ts),
		Steer:    int32(math.Round(*steer * 100)),
		Throttle: int32(math.Round(*throttle * 10)),
		Brake:    int16(math.Max(math.MinInt16, math.Min(math.MaxInt16, math.Round(*brake*10)))),
	}
	if *enable {
		c.Flags |= furbotwire.FlagEnable
	}
	if *estop {
		c.Flags |= furbotwire.FlagEStop
	}
	if *reverse {
		c.Flags |= furbotwire.FlagReverse
	}
	if err := c.Validate(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if c.Throttle > 0 && c.Brake > 0 {
		return fmt.Errorf("%w: throttle and brake together", errUsage)
	}
	_, err := fmt.Fprintf(io.out, "%x\n", furbotwire.AppendControl(nil, &c))
	return err
}
