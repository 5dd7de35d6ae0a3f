package ode

// SurfaceParameters is ODE's dSurfaceParameters (ode/contact.h, dReal =
// double): 120 bytes. Mode is a set of Contact* flags; the other fields
// are read only when their flag is set.
type SurfaceParameters struct {
	Mode      int32   // Contact* flags
	_         int32   // C padding before the first double
	Mu        float64 // Coulomb friction coefficient (direction 1, or both without ContactMu2)
	Mu2       float64 // friction coefficient of direction 2 (ContactMu2)
	Rho       float64 // rolling friction (ContactRolling)
	Rho2      float64 // rolling friction, direction 2
	RhoN      float64 // spinning friction
	Bounce    float64 // restitution 0..1 (ContactBounce)
	BounceVel float64 // minimum incoming speed for a bounce [m/s]
	SoftERP   float64 // contact normal ERP (ContactSoftERP)
	SoftCFM   float64 // contact normal CFM (ContactSoftCFM)
	Motion1   float64 // surface velocity along friction direction 1 [m/s] (ContactMotion1)
	Motion2   float64 // surface velocity along friction direction 2 [m/s] (ContactMotion2)
	MotionN   float64 // surface velocity along the normal [m/s] (ContactMotionN)
	Slip1     float64 // force-dependent slip, direction 1 [m/s/N] (ContactSlip1)
	Slip2     float64 // force-dependent slip, direction 2 [m/s/N] (ContactSlip2)
}

// ContactGeom is ODE's dContactGeom: 96 bytes. Pos and Normal are
// dVector3 (four doubles, the fourth unused); Normal points into the
// first geom (the direction G1 is pushed out of G2).
type ContactGeom struct {
	Pos    [4]float64 // contact point in the world frame [m]
	Normal [4]float64 // unit normal in the world frame
	Depth  float64    // penetration depth [m]
	G1, G2 Geom       // the colliding geoms
	Side1  int32      // trimesh triangle index of G1 (or -1)
	Side2  int32      // trimesh triangle index of G2 (or -1)
}

// Contact is ODE's dContact: 248 bytes, what dJointCreateContact copies.
type Contact struct {
	Surface SurfaceParameters // friction, softness, surface motion
	Geom    ContactGeom       // where and along which normal
	FDir1   [4]float64        // friction direction 1 in the world frame (ContactFDir1), unit, perpendicular to the normal
}

// Mass is ODE's dMass: 136 bytes (mass, centre of gravity as a dVector4,
// inertia as a dMatrix3 of 3 rows by 4).
type Mass struct {
	Mass float64     // [kg]
	C    [4]float64  // centre of mass in the body frame [m]
	I    [12]float64 // inertia about C [kg m^2], rows of 4
}

// Contact mode flags (ode/contact.h).
const (
	ContactMu2      = 0x001 // use Mu2 for friction direction 2
	ContactFDir1    = 0x002 // use FDir1 as friction direction 1
	ContactBounce   = 0x004 // restitution
	ContactSoftERP  = 0x008 // use SoftERP
	ContactSoftCFM  = 0x010 // use SoftCFM
	ContactMotion1  = 0x020 // surface velocity Motion1 along direction 1
	ContactMotion2  = 0x040 // surface velocity Motion2 along direction 2
	ContactMotionN  = 0x080 // surface velocity along the normal
	ContactSlip1    = 0x100 // force-dependent slip, direction 1
	ContactSlip2    = 0x200 // force-dependent slip, direction 2
	ContactRolling  = 0x400 // rolling friction
	ContactApprox1  = 0x7000
	ContactApprox11 = 0x1000 // friction pyramid approximation, direction 1
	ContactApprox12 = 0x2000 // friction pyramid approximation, direction 2
)

// Joint parameters (ode/common.h D_ALL_PARAM_NAMES), for the first axis.
const (
	ParamLoStop  = 0  // low stop [rad]
	ParamHiStop  = 1  // high stop [rad]
	ParamVel     = 2  // motor target velocity [rad/s]
	ParamFMax    = 5  // motor maximum torque [N m]; 0 disables the motor
	ParamFudge   = 6  // fudge factor of the stops
	ParamBounce  = 7  // bounciness of the stops
	ParamCFM     = 8  // constraint force mixing when not at a stop
	ParamStopERP = 9  // ERP of the stops
	ParamStopCFM = 10 // CFM of the stops
)

// Joint type number of contact joints (dJointTypeContact), for
// AreConnectedExcluding.
const JointTypeContact = 4
