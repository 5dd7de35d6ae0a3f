package console

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestBeatLiveness: a page that joined with ?beat=1 and answers pings
// (its client reads, as a browser's network process does for a page
// that no longer runs) but sends no beat loses the lease about
// BeatTimeout after joining; one that beats keeps it well past that, and
// so does one whose last beat said it is hidden; a page without ?beat=1
// is judged by its pongs only.
func TestBeatLiveness(t *testing.T) {
	const beatTimeout = 600 * time.Millisecond
	for _, tc := range []struct {
		name     string
		query    string
		beat     bool
		hidden   bool          // sends one hidden beat, then nothing
		freedBy  time.Duration // 0: must keep the lease for keepFor
		keepFor  time.Duration
		freedMin time.Duration
	}{
		{"silent beater", "?beat=1", false, false, beatTimeout + 5*BeatPeriod + time.Second, 0, beatTimeout},
		{"beater", "?beat=1", true, false, 0, 4 * beatTimeout, 0},
		{"hidden beater", "?beat=1", false, true, 0, 4 * beatTimeout, 0},
		{"no beat asked", "", false, false, 0, 4 * beatTimeout, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, addr, _, _ := serve(t, Config{BeatTimeout: beatTimeout})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ws, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws"+tc.query, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.CloseNow()
			go func() { // reads: pongs answered
				for {
					if _, _, err := ws.Read(ctx); err != nil {
						return
					}
				}
			}()
			if tc.hidden {
				if err := ws.Write(ctx, websocket.MessageText, beatHiddenMsg); err != nil {
					t.Fatal(err)
				}
			}
			if tc.beat {
				go func() {
					tk := time.NewTicker(BeatPeriod)
					defer tk.Stop()
					for {
						select {
						case <-ctx.Done():
							return
						case <-tk.C:
							if ws.Write(ctx, websocket.MessageText, beatMsg) != nil {
								return
							}
						}
					}
				}()
			}
			start := time.Now()
			for h, _ := s.hub.holder(); h == 0; h, _ = s.hub.holder() {
				if time.Since(start) > 5*time.Second {
					t.Fatal("the page never got control")
				}
				time.Sleep(time.Millisecond)
			}
			for {
				h, _ := s.hub.holder()
				d := time.Since(start)
				if h == 0 {
					if tc.freedBy == 0 {
						t.Fatalf("lost the lease after %v", d)
					}
					if d < tc.freedMin {
						t.Fatalf("lost the lease after %v, before BeatTimeout %v", d, tc.freedMin)
					}
					t.Logf("lease freed %v after joining", d)
					return
				}
				if tc.freedBy != 0 && d > tc.freedBy {
					t.Fatalf("still holds the lease after %v", d)
				}
				if tc.freedBy == 0 && d > tc.keepFor {
					if n := s.Counters().BadMessages.Load() + s.Counters().RateLimited.Load(); n != 0 {
						t.Errorf("beats counted as %d bad or rate-limited messages", n)
					}
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
}
