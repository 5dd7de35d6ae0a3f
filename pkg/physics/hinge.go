package physics

import (
	"fmt"
	"math"

	"github.com/telebridge/telebridge/pkg/physics/ode"
)

// HingeSpec describes a revolute joint with an optional motor and limits.
// The bodies must already be placed at the joint's present Angle.
type HingeSpec struct {
	Name   string // for errors
	Parent *Body  // nil: the world (the child is hinged to a fixed point)
	Child  *Body  // the body the joint turns
	Anchor Vec3   // a point on the axis [m, world]
	// Axis [world]: a positive angle turns the child about it relative to
	// the parent (right hand).
	Axis Vec3
	// Angle is the present angle [rad] (what Angle reports now).
	Angle float64
	// Lower and Upper are the limits [rad], within [-pi, pi] (ODE's
	// range); both zero: no limits.
	Lower, Upper float64
	// MaxTorque is the motor's torque limit [N m] (URDF effort): the
	// motor drives the joint towards its target velocity with at most
	// this torque, and holds it (target 0) against loads up to it. Zero:
	// no motor, the joint turns freely.
	MaxTorque float64
	// MaxVelocity caps the target velocity [rad/s] (URDF velocity); zero:
	// no cap.
	MaxVelocity float64
	// HoldGain [1/s] makes the motor a servo, as a robot's joint
	// controllers are: it tracks the commanded velocity's integral (a
	// reference angle) by adding HoldGain times the angle error to the
	// velocity it asks of ODE, so a joint commanded to stop stays where
	// it stopped instead of creeping under load (ODE's motors act on
	// velocity only). Default 10; negative: pure velocity motor.
	HoldGain float64
}

// Hinge is a revolute joint.
type Hinge struct {
	w      *World
	j      ode.Joint
	name   string
	spec   HingeSpec
	fb     *ode.Feedback
	axis   Vec3    // in the child's link frame
	anchor Vec3    // in the child's link frame
	vel    float64 // commanded velocity [rad/s]
	ref    float64 // servo reference angle [rad]
	gain   float64 // HoldGain in force (0: none)
	asked  float64 // the velocity last given to ODE
}

// AddHinge adds a hinge joint.
func (w *World) AddHinge(s HingeSpec) (*Hinge, error) {
	switch {
	case s.Child == nil || s.Child.w != w || (s.Parent != nil && s.Parent.w != w) || s.Parent == s.Child:
		return nil, fmt.Errorf("hinge %q: child must be a body of this world, parent another one or nil", s.Name)
	case !s.Anchor.finite() || !s.Axis.finite() || !(s.Axis.Norm() > 1e-9):
		return nil, fmt.Errorf("hinge %q: anchor %v, axis %v: finite, axis non-zero", s.Name, s.Anchor, s.Axis)
	case !(s.Lower >= -math.Pi && s.Upper <= math.Pi && s.Lower <= s.Upper):
		return nil, fmt.Errorf("hinge %q: limits %g..%g rad: want -pi <= lower <= upper <= pi", s.Name, s.Lower, s.Upper)
	case !(s.MaxTorque >= 0 && s.MaxTorque < 1e6) || !(s.MaxVelocity >= 0 && s.MaxVelocity < 1e3):
		return nil, fmt.Errorf("hinge %q: max torque %g N m, max velocity %g rad/s: want >= 0 and finite", s.Name, s.MaxTorque, s.MaxVelocity)
	case math.IsNaN(s.Angle) || math.Abs(s.Angle) > math.Pi:
		return nil, fmt.Errorf("hinge %q: angle %g rad: want -pi..pi", s.Name, s.Angle)
	}
	lock.Lock()
	defer lock.Unlock()
	if w.closed {
		return nil, ErrClosed
	}
	l := w.l
	h := &Hinge{w: w, name: s.Name, spec: s, fb: new(ode.Feedback), ref: s.Angle}
	if s.MaxTorque > 0 {
		switch {
		case s.HoldGain == 0:
			h.gain = 10
		case s.HoldGain > 0:
			h.gain = s.HoldGain
		}
	}
	h.j = l.JointCreateHinge(w.world)
	var parent ode.Body
	if s.Parent != nil {
		parent = s.Parent.b
	}
	// ODE's hinge angle is body 1 relative to body 2: child first.
	l.JointAttach(h.j, s.Child.b, parent)
	l.JointSetHingeAnchor(h.j, s.Anchor[0], s.Anchor[1], s.Anchor[2])
	ax := s.Axis.Scale(1 / s.Axis.Norm())
	if s.Angle != 0 {
		l.JointSetHingeAxisOffset(h.j, ax[0], ax[1], ax[2], s.Angle)
	} else {
		l.JointSetHingeAxis(h.j, ax[0], ax[1], ax[2])
	}
	h.axis = s.Child.rot().Conj().Rotate(ax)
	h.anchor = s.Child.pose().Inverse().Apply(s.Anchor)
	if s.Lower != 0 || s.Upper != 0 {
		// Set the high stop first when raising it above the default
		// low stop and vice versa (ODE ignores lo > hi).
		l.JointSetHingeParam(h.j, ode.ParamLoStop, -math.Pi)
		l.JointSetHingeParam(h.j, ode.ParamHiStop, s.Upper)
		l.JointSetHingeParam(h.j, ode.ParamLoStop, s.Lower)
	}
	if s.MaxTorque > 0 {
		l.JointSetHingeParam(h.j, ode.ParamVel, 0)
		l.JointSetHingeParam(h.j, ode.ParamFMax, s.MaxTorque)
	}
	w.pinner.Pin(h.fb)
	l.JointSetFeedback(h.j, h.fb)
	w.hinges = append(w.hinges, h)
	return h, nil
}

// Name returns the hinge's name.
func (h *Hinge) Name() string { return h.name }

// Spec returns the hinge's description as added.
func (h *Hinge) Spec() HingeSpec { return h.spec }

// SetVelocity sets the motor's target velocity [rad/s], capped at
// MaxVelocity; 0 holds the joint. The motor reaches it when its torque
// limit allows.
func (h *Hinge) SetVelocity(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("hinge %q: velocity %g rad/s is not finite", h.name, v)
	}
	if h.spec.MaxTorque == 0 {
		return fmt.Errorf("hinge %q has no motor", h.name)
	}
	if m := h.spec.MaxVelocity; m > 0 {
		v = math.Max(-m, math.Min(m, v))
	}
	lock.Lock()
	defer lock.Unlock()
	if h.w.closed {
		return ErrClosed
	}
	if v != h.vel {
		h.vel = v
		if h.gain == 0 {
			h.asked = v
			h.w.l.JointSetHingeParam(h.j, ode.ParamVel, v)
		}
	}
	return nil
}

// servo advances the reference angle by one step of the commanded
// velocity and asks ODE for the velocity that closes the error (under
// lock, before a step).
func (h *Hinge) servo(dt float64) {
	if h.gain == 0 {
		return
	}
	h.ref += h.vel * dt
	if lo, hi := h.spec.Lower, h.spec.Upper; lo != 0 || hi != 0 {
		h.ref = math.Max(lo, math.Min(hi, h.ref))
	}
	a := h.w.l.JointHingeAngle(h.j)
	v := h.vel + h.gain*math.Remainder(h.ref-a, 2*math.Pi)
	if m := h.spec.MaxVelocity; m > 0 {
		v = math.Max(-2*m, math.Min(2*m, v))
	}
	if v != h.asked {
		h.asked = v
		h.w.l.JointSetHingeParam(h.j, ode.ParamVel, v)
	}
}

// Target returns the motor's target velocity [rad/s] in force.
func (h *Hinge) Target() float64 {
	lock.Lock()
	defer lock.Unlock()
	return h.vel
}

// Angle returns the joint angle [rad].
func (h *Hinge) Angle() (float64, error) {
	lock.Lock()
	defer lock.Unlock()
	if h.w.closed {
		return 0, ErrClosed
	}
	return h.w.l.JointHingeAngle(h.j), nil
}

// Rate returns the joint velocity [rad/s].
func (h *Hinge) Rate() (float64, error) {
	lock.Lock()
	defer lock.Unlock()
	if h.w.closed {
		return 0, ErrClosed
	}
	return h.w.l.JointHingeAngleRate(h.j), nil
}

// Torque returns the torque [N m] the joint applied to the child about
// its axis in the last step (motor and limit together): what a motor
// current is computed from.
func (h *Hinge) Torque() (float64, error) {
	lock.Lock()
	defer lock.Unlock()
	if h.w.closed {
		return 0, ErrClosed
	}
	c := h.spec.Child
	p := c.pose()
	ax := p.Rot.Rotate(h.axis)
	// ODE reports the torque about the child's centre of mass, including
	// the moment of the joint's force; take that moment out to get the
	// torque about the axis through the anchor.
	arm := p.Apply(h.anchor).Sub(Vec3(h.w.l.BodyPosition(c.b)))
	f := Vec3{h.fb.F1[0], h.fb.F1[1], h.fb.F1[2]}
	t := Vec3{h.fb.T1[0], h.fb.T1[1], h.fb.T1[2]}.Sub(arm.Cross(f))
	return t.Dot(ax), nil
}
