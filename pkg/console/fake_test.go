package console

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// fakeBackend records every call as a string; its Info is a Servosila,
// a Furbot and a two-joint jog arm.
type fakeBackend struct {
	mu    sync.Mutex
	calls []string
	fail  error
	info  *Info // nil: the default below
}

func (f *fakeBackend) rec(format string, a ...any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fmt.Sprintf(format, a...))
	return f.fail
}

// take returns and forgets the calls so far.
func (f *fakeBackend) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.calls
	f.calls = nil
	return c
}

func (f *fakeBackend) Info() Info {
	if f.info != nil {
		return *f.info
	}
	return Info{
		Servosila: true, Furbot: true,
		JogJoints: []string{"j1", "j2"}, JogLower: []float64{-1, -2}, JogUpper: []float64{1, 2}, JogFrames: []string{"base", "tool"},
		Cameras:            []string{"front"},
		ServosilaMaxLinear: 0.45, ServosilaMaxAngular: 1.3, ServosilaMaxJoint: [NumServosilaJoints]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5},
		ServosilaLower: [NumArmJoints]float64{-3, -1, -2, -1}, ServosilaUpper: [NumArmJoints]float64{3, 1, 2, 1},
		ServosilaStartSpeed: 0.2, ServosilaGripperSpeed: 0.5,
		FurbotMaxSpeed: 5, FurbotMaxYawRate: 1,
	}
}
func (f *fakeBackend) Snapshot(context.Context) (Snapshot, error) { return Snapshot{}, nil }
func (f *fakeBackend) DriveServosila(_ context.Context, l, a float64) error {
	return f.rec("drive %g %g", l, a)
}
func (f *fakeBackend) ServosilaJointVelocities(_ context.Context, v [NumServosilaJoints]float64) error {
	return f.rec("joints %v", v)
}
func (f *fakeBackend) ServosilaTarget(_ context.Context, j int, a float64) error {
	return f.rec("target %d %g", j, a)
}
func (f *fakeBackend) ServosilaCancelTarget(_ context.Context, j int) error {
	return f.rec("cancel %d", j)
}
func (f *fakeBackend) ServosilaHeadlight(_ context.Context, on bool) error {
	return f.rec("headlight %v", on)
}
func (f *fakeBackend) DriveFurbot(_ context.Context, v, w float64) error {
	return f.rec("furbot %g %g", v, w)
}
func (f *fakeBackend) JogJoint(_ context.Context, m JogJointMove) error {
	return f.rec("jogjoint %v %v %g", m.Delta, m.Values, m.Speed)
}
func (f *fakeBackend) JogCartesian(_ context.Context, m JogCartesianMove) error {
	return f.rec("jogcart %v %+v %s %g", m.Delta, m.Pose, m.Frame, m.Speed)
}
func (f *fakeBackend) JogHeartbeat(context.Context) error { return f.rec("beat") }
func (f *fakeBackend) JogStop(context.Context) error      { return f.rec("jogstop") }
func (f *fakeBackend) EStop(context.Context) error        { return f.rec("estop") }
func (f *fakeBackend) ReleaseEStop(context.Context) error { return f.rec("release") }
func (f *fakeBackend) ServeCamera(name string, w http.ResponseWriter, _ *http.Request) {
	_ = f.rec("camera %s", name)
	_, _ = io.WriteString(w, "frames of "+name)
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// testHub is a hub on a fake backend with a 300 ms timeout, 10 messages
// per second with a burst of 5, e-stops repeated at most every 20 ms while
// latched, 10 s to confirm a release; what it sends to pages goes to
// notes.
func testHub() (*hub, *fakeBackend, *Counters) {
	h, be, cnt, _ := testHubNotes(quiet)
	return h, be, cnt
}

// notes records the messages a hub sends to pages.
type notes struct {
	mu  sync.Mutex
	msg map[uint64][]string
}

func (n *notes) add(page uint64, b []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.msg[page] = append(n.msg[page], string(b))
}

// take returns and forgets the messages to page.
func (n *notes) take(page uint64) []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	m := n.msg[page]
	delete(n.msg, page)
	return m
}

func testHubNotes(log *slog.Logger) (*hub, *fakeBackend, *Counters, *notes) {
	be := &fakeBackend{}
	cnt := &Counters{}
	n := &notes{msg: map[uint64][]string{}}
	h := newHub(be, hubConfig{timeout: 300 * time.Millisecond, rate: 10, burst: 5, estopRepeat: 20 * time.Millisecond, confirm: 10 * time.Second,
		journal: access.NewJournal(log, nil, 10*time.Second), cnt: cnt, notify: n.add})
	return h, be, cnt, n
}

// join adds an admin's page (every role), as a console without tokens
// has.
func join(h *hub) (uint64, bool) {
	return h.join(access.LocalOperator, access.RoleAdmin, "127.0.0.1", false, t0)
}

// joinToWatch adds an admin's page that joins to watch (?watch=1).
func joinToWatch(h *hub) (uint64, bool) {
	return h.join(access.LocalOperator, access.RoleAdmin, "127.0.0.1", true, t0)
}

// joinAs adds a page of an operator with roles.
func joinAs(h *hub, name string, roles access.Role) (uint64, bool) {
	return h.join(name, roles, "127.0.0.1", false, t0)
}

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
