package console

import (
	"errors"
	"testing"
)

// FuzzHandle feeds arbitrary bytes to the console as one page message:
// never a panic, and a refused message never reaches the backend.
func FuzzHandle(f *testing.F) {
	for _, s := range []string{
		`{"type":"servosila_drive","linear":0.3,"angular":0}`,
		`{"type":"servosila_joints","joints":{"waist":0.2,"gripper":-0.5}}`,
		`{"type":"servosila_target","joint":"elbow","value":0.4}`,
		`{"type":"furbot_drive","v":1,"w":0.2}`,
		`{"type":"jog_joint","delta":true,"values":[1,0],"speed":0.5}`,
		`{"type":"jog_cartesian","delta":false,"pose":{"X":1,"Y":0,"Z":0,"RZ":0,"RY":0,"RX":0},"frame":"base","speed":1}`,
		`{"type":"max_velocity","joint":"linear","value":0.2}`,
		`{"type":"estop"}`, `{"type":"take_control"}`, `{"type":"servosila_drive","linear":null}`,
		`{"type":"release"}`, `{"type":"release_confirm","nonce":"00ff"}`, `{"type":"servosila_drive","linear":0.1,"angular":0}`,
		`{"type":"servosila_joints","joints":{"gripper":-0.3}}`, "\x00", `{"type":"jog_stop"}`,
		`{"type":"servosila_drive",`, `[]`, `null`, ``,
		`{"type":"balance_slope","pitch":0.3,"roll":-0.1}`, `{"type":"balance_slope","pitch":1e309,"roll":0}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, be, _ := testHub()
		p, _ := join(h)
		err := h.handle(ctx, p, b, at(0))
		if errors.Is(err, ErrBadMessage) {
			if calls := be.take(); len(calls) != 0 {
				t.Fatalf("refused %q but called %q", b, calls)
			}
		}
		h.tick(ctx, at(10_000))
		h.leave(ctx, p, t0, "test")
	})
}

// BenchmarkHandleDrive is the cost of one held drive command from a page:
// JSON decode, validation, lease and deadman, backend call.
func BenchmarkHandleDrive(b *testing.B) {
	h, be, _ := testHub()
	h.cfg.rate, h.cfg.burst = 1e12, 1e12
	p, _ := join(h)
	msg := []byte(`{"type":"servosila_drive","linear":0.3,"angular":-0.5}`)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := h.handle(ctx, p, msg, at(i)); err != nil {
			b.Fatal(err)
		}
		if i%1024 == 0 {
			be.take()
		}
	}
}
