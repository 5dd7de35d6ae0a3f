package control

import (
	"encoding/binary"
	"testing"
	"time"
)

// FuzzCommandCheck feeds a command check arbitrary packets, sent and
// received, as the network could deliver them (any tick, any echo, any
// spacing; the driver's clock never goes back). Each 8-byte step: kind,
// delay [ms] (2 bytes), tick step, then left and right track values. The
// verdicts must stay consistent: no panic, a new event is a loss, a
// confirmation is no mismatch, figures are not negative.
func FuzzCommandCheck(f *testing.F) {
	f.Add([]byte{0, 200, 0, 0, 10, 0, 10, 0, 1, 232, 3, 1, 10, 0, 10, 0})
	f.Add([]byte{0, 200, 0, 0, 10, 0, 10, 0, 1, 232, 3, 1, 10, 0, 10, 0, 1, 208, 7, 2, 0, 0, 0, 0, 3, 232, 3, 0, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		cc, err := NewCommandCheck(CommandCheckConfig{})
		if err != nil {
			t.Fatal(err)
		}
		at := time.Unix(1000, 0)
		var tick uint64
		for ; len(data) >= 8; data = data[8:] {
			at = at.Add(time.Duration(binary.LittleEndian.Uint16(data[1:])) * time.Millisecond)
			e := tracks(int16(binary.LittleEndian.Uint16(data[4:])), int16(binary.LittleEndian.Uint16(data[6:])))
			switch data[0] % 4 {
			case 0:
				cc.Sent(at, &e, trackMask)
			default:
				resync := data[0]%4 == 3
				if resync {
					tick = uint64(data[3])
				} else {
					tick += uint64(data[3])
				}
				v := cc.Telemetry(at, tick, resync, &e, &e)
				if v.New && !v.Loss() || v.Confirmed && v.Mismatch || v.Unconfirmed < 0 || v.Stopped && !v.Mismatch {
					t.Fatalf("inconsistent verdict %+v", v)
				}
			}
			if p := cc.Period(); p <= 0 {
				t.Fatalf("period %v", p)
			}
		}
	})
}
