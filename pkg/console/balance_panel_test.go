package console

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// describingBackend is the fake backend with the Servosila's URDF.
type describingBackend struct {
	*fakeBackend
	urdf string
}

func (d *describingBackend) RobotDescription(_ context.Context, machine string) (string, error) {
	if machine != MachineServosila || d.urdf == "" {
		return "", ErrNoDescription
	}
	return d.urdf, nil
}

func servosilaDescription(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../launch/urdf/servosila_engineer.urdf")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func balanceHub(t *testing.T, be Backend) *hub {
	t.Helper()
	return newHub(be, hubConfig{timeout: 300 * time.Millisecond, rate: 1000, burst: 1000, estopRepeat: 20 * time.Millisecond, confirm: 10 * time.Second,
		journal: access.NewJournal(quiet, nil, 10*time.Second), cnt: &Counters{}, notify: func(uint64, []byte) {}})
}

// balanceAt returns the "balance" entry of a state update at now.
func balanceAt(t *testing.T, h *hub, now time.Time, snap *Snapshot) *BalanceState {
	t.Helper()
	var got *BalanceState
	h.observe(context.Background(), now, snap, func(k string, v any) {
		if k == "balance" {
			got = v.(*BalanceState)
		}
	})
	if got == nil {
		t.Fatal("no balance in the state")
	}
	return got
}

// TestBalanceState: the state carries the Servosila's margin from the
// live joints at 5 Hz, warns below the threshold once the slope entered
// by the page in control tips it, and says the masses are assumed; a
// view-only page cannot enter a slope.
func TestBalanceState(t *testing.T) {
	h := balanceHub(t, &describingBackend{fakeBackend: &fakeBackend{}, urdf: servosilaDescription(t)})
	holder, _ := join(h)
	viewer, _ := join(h)
	snap := &Snapshot{Servosila: &ServosilaState{HaveTelemetry: true}}

	b := balanceAt(t, h, at(0), snap)
	// The arm stretched forward: the CoM 0.0877 m ahead of base_link,
	// the tracks' front edge at 0.24185 m (pkg/balance's hand-computed
	// case).
	if want := 0.4837/2 - 3.8989/44.46; b.Error != "" || math.Abs(b.Margin-want) > 1e-9 || b.Warn || b.Threshold != DefaultBalanceThreshold {
		t.Fatalf("flat: %+v, want margin %.5f without a warning", b, want)
	}
	if !strings.Contains(b.Assumed, "assumed") || len(b.Polygon) != 4 {
		t.Fatalf("assumed %q, polygon %v", b.Assumed, b.Polygon)
	}
	// Within the period the same result is sent again; a joint move shows
	// after it.
	snap.Servosila.Joints[1] = math.Pi / 2 // shoulder up
	if b2 := balanceAt(t, h, at(100), snap); b2 != b {
		t.Fatal("computed again within 200 ms")
	}
	up := balanceAt(t, h, at(200), snap)
	if !(up.Margin > b.Margin+0.02) {
		t.Fatalf("arm up: margin %.4f, stretched %.4f", up.Margin, b.Margin)
	}
	// A slope 0.05 rad steeper than the front edge's tip-over angle:
	// the CoM falls outside, the page is warned.
	pitch := up.Tip[up.Edge] + 0.05
	msg := `{"type":"balance_slope","pitch":` + strconv.FormatFloat(pitch, 'g', -1, 64) + `,"roll":0}`
	if err := h.handle(context.Background(), viewer, []byte(msg), at(210)); !errors.Is(err, ErrViewOnly) {
		t.Fatalf("slope from a view-only page: %v", err)
	}
	if err := h.handle(context.Background(), holder, []byte(msg), at(220)); err != nil {
		t.Fatal(err)
	}
	tipped := balanceAt(t, h, at(230), snap)
	if !(tipped.Margin < 0) || !tipped.Warn || tipped.Slope.Pitch != pitch {
		t.Fatalf("on the slope: %+v", tipped)
	}
	for _, bad := range []string{`{"type":"balance_slope","pitch":2,"roll":0}`, `{"type":"balance_slope","pitch":0}`, `{"type":"balance_slope","pitch":0,"roll":0,"x":1}`} {
		if err := h.handle(context.Background(), holder, []byte(bad), at(240)); !errors.Is(err, ErrBadMessage) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	// Without telemetry: said, no margin.
	if nt := balanceAt(t, h, at(1000), &Snapshot{Servosila: &ServosilaState{}}); nt.Error == "" || nt.Warn {
		t.Fatalf("without telemetry: %+v", nt)
	}
}

// TestBalanceWithoutDescription: a backend without a description gets
// an error entry, not a warning.
func TestBalanceWithoutDescription(t *testing.T) {
	h := balanceHub(t, &fakeBackend{})
	b := balanceAt(t, h, at(0), &Snapshot{Servosila: &ServosilaState{HaveTelemetry: true}})
	if !strings.Contains(b.Error, ErrNoDescription.Error()) || b.Warn {
		t.Fatalf("%+v", b)
	}
}

// TestDescriptionRoute: GET /robot/servosila serves the backend's URDF;
// 404 for an unknown machine or a backend without descriptions.
func TestDescriptionRoute(t *testing.T) {
	doc := servosilaDescription(t)
	for _, tc := range []struct {
		be   Backend
		path string
		code int
	}{
		{&describingBackend{fakeBackend: &fakeBackend{}, urdf: doc}, "/robot/servosila", http.StatusOK},
		{&describingBackend{fakeBackend: &fakeBackend{}, urdf: doc}, "/robot/furbot", http.StatusNotFound},
		{&fakeBackend{}, "/robot/servosila", http.StatusNotFound},
	} {
		s, err := New(Config{Backend: tc.be, Listen: "127.0.0.1:0", Logger: quiet, BalanceThreshold: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(s.Handler())
		resp, err := http.Get(ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ts.Close()
		if resp.StatusCode != tc.code || (tc.code == http.StatusOK && string(body) != doc) {
			t.Errorf("%s: %d (%d bytes), want %d", tc.path, resp.StatusCode, len(body), tc.code)
		}
	}
	if _, err := New(Config{Backend: &fakeBackend{}, BalanceThreshold: -1}); err == nil {
		t.Error("negative balance threshold accepted")
	}
}
