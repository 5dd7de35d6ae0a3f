package console

import (
	"context"
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/console/access"
)

// Servosila message types. Held commands (the deadman applies) are
// marked *.
const (
	MsgDrive        = "servosila_drive"  // * linear [m/s], angular [rad/s]
	MsgJoints       = "servosila_joints" // * joints: name -> velocity [rad/s]
	MsgTarget       = "servosila_target" // joint, value: angle [rad]
	MsgCancelTarget = "servosila_cancel" // joint
	MsgHeadlight    = "headlight"        // on
	MsgMaxVel       = "max_velocity"     // joint (or "linear", "angular"), value
)

// servosilaMessage is the union of the Servosila's messages. Numbers are
// pointers so that a missing value (JSON null, which is what a page's NaN
// becomes) is told from zero.
type servosilaMessage struct {
	Type    string              `json:"type"`
	Linear  *float64            `json:"linear"`
	Angular *float64            `json:"angular"`
	Joints  map[string]*float64 `json:"joints"`
	Joint   string              `json:"joint"`
	Value   *float64            `json:"value"`
	On      *bool               `json:"on"`
	Seq     uint64              `json:"seq"` // checked by the hub (messageType)
}

// Deadman groups of the Servosila panel.
const (
	servosilaDrive  = iota // chassis
	servosilaJoints        // joint velocities
)

// servosilaPanel drives a Servosila Engineer: chassis, joint velocities,
// arm position targets, headlight, the operator's maximum velocities. The
// tracks, flippers and headlight need RoleDrive, the arm joints, targets
// and gripper RoleArm.
type servosilaPanel struct {
	be      Backend
	info    Info
	targets [NumArmJoints]uint64        // page that set each running position target (0: none)
	maxVel  [NumServosilaJoints]float64 // [rad/s], the operator's maximum-velocity settings
	maxLin  float64                     // [m/s]
	maxAng  float64                     // [rad/s]
}

func newServosilaPanel(be Backend, info Info) panel {
	return &servosilaPanel{be: be, info: info, maxVel: info.ServosilaMaxJoint, maxLin: info.ServosilaMaxLinear, maxAng: info.ServosilaMaxAngular}
}

func (p *servosilaPanel) Name() string { return "servosila" }
func (p *servosilaPanel) Types() []string {
	return []string{MsgDrive, MsgJoints, MsgTarget, MsgCancelTarget, MsgHeadlight, MsgMaxVel}
}
func (p *servosilaPanel) Groups() []string { return []string{"servosila drive", "servosila joints"} }

// limitsMsg is the panel's "limits" entry of the state: the operator's
// maximum velocities and the robot's start speeds.
type limitsMsg struct {
	Linear  float64                     `json:"linear"`  // [m/s]
	Angular float64                     `json:"angular"` // [rad/s]
	Joints  [NumServosilaJoints]float64 `json:"joints"`  // [rad/s]
	// StartSpeed [m/s, rad/s] and GripperSpeed [rad/s] as in Info.
	StartSpeed   float64 `json:"start_speed"`
	GripperSpeed float64 `json:"gripper_speed"`
}

func (p *servosilaPanel) State(add func(string, any)) {
	add("limits", limitsMsg{p.maxLin, p.maxAng, p.maxVel, p.info.ServosilaStartSpeed, p.info.ServosilaGripperSpeed})
}

// role is what moving joint j needs: the flippers are the chassis'.
func servosilaRole(j int) access.Role {
	if j == jointFlippers {
		return access.RoleDrive
	}
	return access.RoleArm
}

const (
	jointFlippers = 4
	jointGripper  = 5
)

func (p *servosilaPanel) Handle(ctx context.Context, c *call, typ string, raw []byte) error {
	var m servosilaMessage
	if err := decode(raw, &m); err != nil {
		return err
	}
	if !p.info.Servosila {
		return fmt.Errorf("%w: no Servosila connected", ErrBadMessage)
	}
	switch typ {
	case MsgDrive:
		lin, err := num("linear", m.Linear, p.maxLin)
		if err != nil {
			return err
		}
		ang, err := num("angular", m.Angular, p.maxAng)
		if err != nil {
			return err
		}
		if lin != 0 || ang != 0 {
			if err := c.Need(access.RoleDrive, "driving the Servosila"); err != nil {
				return err
			}
		}
		refused := p.belowStart(lin, ang)
		if refused == nil {
			lin, ang, refused = p.fitMaxima(lin, ang)
		}
		if refused != nil {
			lin, ang = 0, 0
		}
		if err := p.be.DriveServosila(ctx, lin, ang); err != nil {
			return fmt.Errorf("servosila drive: %w", err)
		}
		c.Hold(servosilaDrive, lin != 0 || ang != 0)
		return refused
	case MsgJoints:
		var v [NumServosilaJoints]float64
		for name, q := range m.Joints {
			j, err := servosilaJoint(name, false)
			if err != nil {
				return err
			}
			if v[j], err = num(name, q, p.maxVel[j]); err != nil {
				return err
			}
			if v[j] != 0 {
				if err := c.Need(servosilaRole(j), "moving the "+name); err != nil {
					return err
				}
			}
		}
		refused := p.gripperTooSlow(v[jointGripper])
		if refused != nil {
			v = [NumServosilaJoints]float64{}
		}
		if err := p.be.ServosilaJointVelocities(ctx, v); err != nil {
			return fmt.Errorf("servosila joints: %w", err)
		}
		c.Hold(servosilaJoints, v != [NumServosilaJoints]float64{})
		return refused
	case MsgTarget:
		j, err := servosilaJoint(m.Joint, true)
		if err != nil {
			return err
		}
		a, err := num(m.Joint, m.Value, -1)
		if err != nil {
			return err
		}
		if a < p.info.ServosilaLower[j] || a > p.info.ServosilaUpper[j] {
			return fmt.Errorf("%w: %s target %g rad outside [%g, %g]", ErrBadMessage, m.Joint, a, p.info.ServosilaLower[j], p.info.ServosilaUpper[j])
		}
		if err := c.Need(access.RoleArm, "a "+m.Joint+" target"); err != nil {
			return err
		}
		// The driver's position control moves at up to its own maximum:
		// with a lower operator maximum the target would run faster.
		if drv := p.info.ServosilaMaxJoint[j]; p.maxVel[j] < drv*(1-1e-9) {
			return fmt.Errorf("%w: %s target: the robot moves to targets at up to %.2f rad/s, above your %.2f rad/s maximum (raise it, or move the joint with velocities)", ErrFaster, m.Joint, drv, p.maxVel[j])
		}
		if err := p.be.ServosilaTarget(ctx, j, a); err != nil {
			return fmt.Errorf("servosila target: %w", err)
		}
		p.targets[j] = c.Page
		return nil
	case MsgCancelTarget:
		j, err := servosilaJoint(m.Joint, true)
		if err != nil {
			return err
		}
		p.targets[j] = 0
		return p.be.ServosilaCancelTarget(ctx, j)
	case MsgHeadlight:
		if m.On == nil {
			return fmt.Errorf("%w: on: missing", ErrBadMessage)
		}
		if err := c.Need(access.RoleDrive, "the headlight"); err != nil {
			return err
		}
		return p.be.ServosilaHeadlight(ctx, *m.On)
	case MsgMaxVel:
		return p.setMax(c, m)
	}
	return fmt.Errorf("%w: unknown type %q", ErrBadMessage, typ)
}

// belowStart refuses a chassis twist the robot would execute faster: the
// driver raises a non-zero twist whose linear [m/s] and angular [rad/s]
// parts are both below its start speed to it (servosila.Config.Chassis).
func (p *servosilaPanel) belowStart(lin, ang float64) error {
	m := p.info.ServosilaStartSpeed
	al, aa := math.Abs(lin), math.Abs(ang)
	if m <= 0 || (lin == 0 && ang == 0) || al >= m || aa >= m {
		return nil
	}
	switch {
	case ang == 0:
		return fmt.Errorf("%w: %.2f m/s is below the robot's %.2g m/s start speed: nothing sent (raise the maximum to at least %.2g m/s)", ErrFaster, al, m, m)
	case lin == 0:
		return fmt.Errorf("%w: %.2f rad/s is below the robot's %.2g rad/s start speed: nothing sent (raise the maximum to at least %.2g rad/s)", ErrFaster, aa, m, m)
	}
	return fmt.Errorf("%w: %.2f m/s and %.2f rad/s are both below the robot's start speed (%.2g m/s or rad/s): nothing sent", ErrFaster, al, aa, m)
}

// fitMaxima returns the twist [m/s, rad/s] to send for the asked one so
// that what the robot executes, per track, stays within the operator's
// maxima: the driver starts or stops a track asked to move below its start
// speed (control.ChassisLimits.Apply), which can turn or drive the robot
// faster than asked (0.1 m/s with 0.2 rad/s turns at 0.222 rad/s). Such a
// twist is scaled down to the largest fraction whose executed twist fits
// (Fit), and the executed twist itself is sent (the driver passes it
// unchanged); when no fraction fits, the twist is refused with ErrFaster.
func (p *servosilaPanel) fitMaxima(lin, ang float64) (float64, float64, error) {
	l := servosilaChassis(p.info)
	v, w, ok := l.Fit(lin, ang, p.maxLin, p.maxAng)
	if ok {
		return v, w, nil
	}
	return 0, 0, fmt.Errorf("%w: %.2f m/s with %.2f rad/s: a track below the robot's start speed (%.2g) would run it at %.2f m/s, %.2f rad/s, above your maxima of %.2f m/s, %.2f rad/s: nothing sent", ErrFaster, lin, ang, l.MinStart, v, w, p.maxLin, p.maxAng)
}

// gripperTooSlow refuses a gripper velocity [rad/s] below the gripper's
// one fixed speed: the driver presses the open or close button, whatever
// the magnitude.
func (p *servosilaPanel) gripperTooSlow(v float64) error {
	g := p.info.ServosilaGripperSpeed
	if g <= 0 || v == 0 || math.Abs(v) >= g*(1-1e-4) {
		return nil
	}
	return fmt.Errorf("%w: gripper %.2f rad/s is below the gripper's one fixed speed of %.2f rad/s: nothing sent (raise the gripper maximum to %.2f rad/s)", ErrFaster, math.Abs(v), g, g)
}

// setMax sets one maximum velocity, within the driver's limit.
func (p *servosilaPanel) setMax(c *call, m servosilaMessage) error {
	switch m.Joint {
	case "linear", "angular":
		lim := p.info.ServosilaMaxLinear
		if m.Joint == "angular" {
			lim = p.info.ServosilaMaxAngular
		}
		v, err := num(m.Joint, m.Value, lim)
		if err != nil {
			return err
		}
		if err := c.Need(access.RoleDrive, "the "+m.Joint+" maximum"); err != nil {
			return err
		}
		if m.Joint == "linear" {
			p.maxLin = math.Abs(v)
		} else {
			p.maxAng = math.Abs(v)
		}
	default:
		j, err := servosilaJoint(m.Joint, false)
		if err != nil {
			return err
		}
		v, err := num(m.Joint, m.Value, p.info.ServosilaMaxJoint[j])
		if err != nil {
			return err
		}
		if err := c.Need(servosilaRole(j), "the "+m.Joint+" maximum"); err != nil {
			return err
		}
		p.maxVel[j] = math.Abs(v)
	}
	return nil
}

func (p *servosilaPanel) Zero(ctx context.Context, g int) error {
	if g == servosilaDrive {
		return p.be.DriveServosila(ctx, 0, 0)
	}
	return p.be.ServosilaJointVelocities(ctx, [NumServosilaJoints]float64{})
}

func (p *servosilaPanel) StopPage(ctx context.Context, page uint64) (int, error) {
	n := 0
	var first error
	for j, q := range p.targets {
		if q != 0 && (page == 0 || q == page) {
			p.targets[j] = 0
			n++
			if err := p.be.ServosilaCancelTarget(ctx, j); err != nil && first == nil {
				first = fmt.Errorf("cancel %s target: %w", ServosilaJoints[j], err)
			}
		}
	}
	return n, first
}

func (p *servosilaPanel) EStopped() { p.targets = [NumArmJoints]uint64{} }

// servosilaJoint returns the index of a Servosila joint name.
func servosilaJoint(name string, armOnly bool) (int, error) {
	for i, n := range ServosilaJoints {
		if n == name {
			if armOnly && i >= NumArmJoints {
				return 0, fmt.Errorf("%w: joint %q has no position control", ErrBadMessage, name)
			}
			return i, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown joint %q", ErrBadMessage, name)
}
