package console

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// joyFake is the fake backend with a joystick publisher.
type joyFake struct{ *fakeBackend }

func (f joyFake) PublishJoy(_ context.Context, j Joy) error {
	return f.rec("joy %s %v %v", j.Machine, j.Axes, j.Buttons)
}

func joyHub(t *testing.T) (*hub, *fakeBackend) {
	t.Helper()
	be := &fakeBackend{}
	info := be.Info()
	info.Joy = true
	be.info = &info
	h := newHub(joyFake{be}, hubConfig{timeout: 300 * time.Millisecond, rate: 100, burst: 50, estopRepeat: 20 * time.Millisecond, confirm: 10 * time.Second,
		journal: access.NewJournal(quiet, nil, 10*time.Second), cnt: &Counters{}, notify: func(uint64, []byte) {}})
	return h, be
}

const padNeutral = `"axes":[0,0,0,0],"buttons":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]`

func TestJoyFromPad(t *testing.T) {
	// The browser: left stick pushed full left and up (-1, -1), right
	// stick half right, RT pulled three quarters, A and LB pressed.
	j, err := JoyFromPad("furbot", []float64{-1, -1, 0.5, 0.02}, []float64{1, 0, 0, 0, 1, 0, 0, 0.75})
	if err != nil {
		t.Fatal(err)
	}
	half := (0.5 - JoyDeadzone) / (1 - JoyDeadzone)
	threeQ := (0.75 - JoyDeadzone) / (1 - JoyDeadzone)
	want := [JoyAxes]float64{1, 1, -half, 0, 0, threeQ} // ROS: left and up +; 0.02 inside the deadzone
	for i := range want {
		if math.Abs(j.Axes[i]-want[i]) > 1e-12 || math.Signbit(j.Axes[i]) && want[i] == 0 {
			t.Errorf("axes %v, want %v", j.Axes, want)
			break
		}
	}
	if j.Buttons[0] != 1 || j.Buttons[4] != 1 || j.Buttons[7] != 1 || j.Buttons[1] != 0 || j.Buttons[6] != 0 {
		t.Errorf("buttons %v: want A, LB and RT (past half way) pressed", j.Buttons)
	}
	if j.Neutral() {
		t.Error("a deflected pad is neutral")
	}
	if n, err := JoyFromPad("servosila", nil, nil); err != nil || !n.Neutral() {
		t.Errorf("an empty pad: %+v, %v; want neutral", n, err)
	}
	for _, bad := range []struct {
		axes, buttons []float64
		want          string
	}{
		{make([]float64, PadAxes+1), nil, "axes"},
		{nil, make([]float64, PadButtons+1), "buttons"},
		{[]float64{1.5}, nil, "axis 0"},
		{nil, []float64{0, -0.1}, "button 1"},
	} {
		if _, err := JoyFromPad("furbot", bad.axes, bad.buttons); !errors.Is(err, ErrBadMessage) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("JoyFromPad(%v, %v) = %v, want ErrBadMessage about %s", bad.axes, bad.buttons, err, bad.want)
		}
	}
}

// The pad is published for the page in control; its deadman publishes a
// neutral Joy when the page stops sending, as it does for the e-stop.
func TestJoyDeadmanAndEStop(t *testing.T) {
	h, be := joyHub(t)
	p, _ := join(h)
	pushed := `{"type":"joy","machine":"servosila","axes":[0,-1,0,0],"buttons":[0,0,0,0,1]}`
	if err := h.handle(ctx, p, []byte(pushed), at(0)); err != nil {
		t.Fatal(err)
	}
	check(t, be, "joy servosila [0 1 0 0 0 0] [0 0 0 0 1 0 0 0 0 0 0 0 0 0 0 0 0]")
	h.tick(ctx, at(299))
	check(t, be)
	h.tick(ctx, at(300))
	neutral := "joy servosila [0 0 0 0 0 0] [0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0]"
	check(t, be, neutral)

	if err := h.handle(ctx, p, []byte(pushed), at(400)); err != nil {
		t.Fatal(err)
	}
	be.take()
	if err := h.handle(ctx, p, []byte(`{"type":"estop"}`), at(450)); err != nil {
		t.Fatal(err)
	}
	check(t, be, neutral, "estop")
	h.tick(ctx, at(2000))
	check(t, be) // nothing held any more

	// A neutral pad holds nothing; moving to the Furbot releases the
	// Servosila's joystick first.
	if err := h.handle(ctx, p, []byte(`{"type":"joy","machine":"servosila",`+padNeutral+`}`), at(2100)); err != nil {
		t.Fatal(err)
	}
	check(t, be, neutral)
	h.tick(ctx, at(3000))
	check(t, be)
	if err := h.handle(ctx, p, []byte(pushed), at(3100)); err != nil {
		t.Fatal(err)
	}
	be.take()
	if err := h.handle(ctx, p, []byte(`{"type":"joy","machine":"furbot","axes":[1],"buttons":[]}`), at(3150)); err != nil {
		t.Fatal(err)
	}
	check(t, be, neutral, "joy furbot [-1 0 0 0 0 0] [0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0]")
}

func TestJoyRefused(t *testing.T) {
	h, be := joyHub(t)
	viewer, _ := joinAs(h, "watcher", access.RoleView)
	driver, _ := joinAs(h, "op", access.RoleDrive)
	if err := h.handle(ctx, driver, []byte(`{"type":"take_control"}`), at(0)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		page uint64
		msg  string
		want error
	}{
		{viewer, `{"type":"joy","machine":"servosila","axes":[0,1]}`, ErrViewOnly},
		{driver, `{"type":"joy","machine":"arm","axes":[0,1]}`, ErrBadMessage},
		{driver, `{"type":"joy","machine":"servosila","axes":[0,2]}`, ErrBadMessage},
		{driver, `{"type":"joy","machine":"servosila","axes":[0,1],"hat":1}`, ErrBadMessage},
	} {
		if err := h.handle(ctx, c.page, []byte(c.msg), at(10)); !errors.Is(err, c.want) {
			t.Errorf("%s from page %d: %v, want %v", c.msg, c.page, err, c.want)
		}
	}
	check(t, be)

	// A backend without a joystick (the direct one) refuses the type.
	h2, be2, _ := testHub()
	p, _ := join(h2)
	if err := h2.handle(ctx, p, []byte(`{"type":"joy","machine":"servosila",`+padNeutral+`}`), at(0)); !errors.Is(err, ErrBadMessage) {
		t.Errorf("joy without a JoyBackend: %v, want ErrBadMessage", err)
	}
	check(t, be2)
}

// An operator without the drive role may send a neutral pad (nothing
// moves) but not a deflected one.
func TestJoyNeedsDriveToMove(t *testing.T) {
	h, be := joyHub(t)
	arm, _ := joinAs(h, "armer", access.RoleArm)
	if err := h.handle(ctx, arm, []byte(`{"type":"take_control"}`), at(0)); err != nil {
		t.Fatal(err)
	}
	be.take()
	if err := h.handle(ctx, arm, []byte(`{"type":"joy","machine":"furbot",`+padNeutral+`}`), at(10)); err != nil {
		t.Fatal(err)
	}
	be.take()
	err := h.handle(ctx, arm, []byte(`{"type":"joy","machine":"furbot","axes":[0,-1]}`), at(20))
	if !errors.Is(err, ErrRole) {
		t.Fatalf("deflected pad from an arm operator: %v, want ErrRole", err)
	}
	check(t, be)
}
