package ode

import (
	"unsafe"

	"github.com/ebitengine/purego"
)

// cptr turns an address returned by C into a pointer (the memory is C's;
// the Go collector ignores it). Taking the address first keeps vet's
// unsafeptr check quiet, as purego itself does.
func cptr(r uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&r)) }

// vec3 reads a dVector3 (the first three of four doubles) at a C address.
func vec3(r uintptr) [3]float64 {
	p := (*[3]float64)(cptr(r))
	return *p
}

// --- world ---

// WorldCreate is dWorldCreate.
func (l *Lib) WorldCreate() World { return l.worldCreate() }

// WorldDestroy is dWorldDestroy (destroys its bodies and non-group joints).
func (l *Lib) WorldDestroy(w World) { l.worldDestroy(w) }

// WorldSetGravity is dWorldSetGravity [m/s^2, world frame].
func (l *Lib) WorldSetGravity(w World, x, y, z float64) { l.worldSetGravity(w, x, y, z) }

// WorldSetERP is dWorldSetERP (error reduction per step, 0..1).
func (l *Lib) WorldSetERP(w World, erp float64) { l.worldSetERP(w, erp) }

// WorldSetCFM is dWorldSetCFM (constraint force mixing, >= 0).
func (l *Lib) WorldSetCFM(w World, cfm float64) { l.worldSetCFM(w, cfm) }

// WorldStep is dWorldStep (the exact LCP solver) by dt [s]; false on failure.
func (l *Lib) WorldStep(w World, dt float64) bool { return l.worldStep(w, dt) != 0 }

// WorldQuickStep is dWorldQuickStep (iterative PGS solver) by dt [s];
// false on failure.
func (l *Lib) WorldQuickStep(w World, dt float64) bool { return l.worldQuickStep(w, dt) != 0 }

// WorldSetQuickStepIterations is dWorldSetQuickStepNumIterations.
func (l *Lib) WorldSetQuickStepIterations(w World, n int) { l.worldSetQuickStepIters(w, int32(n)) }

// WorldSetContactSurfaceLayer is dWorldSetContactSurfaceLayer [m]: the
// depth contacts may sink before they push back (stops jitter).
func (l *Lib) WorldSetContactSurfaceLayer(w World, depth float64) { l.worldSetSurfaceLayer(w, depth) }

// WorldSetContactMaxCorrectingVel is dWorldSetContactMaxCorrectingVel [m/s].
func (l *Lib) WorldSetContactMaxCorrectingVel(w World, v float64) { l.worldSetMaxCorrVel(w, v) }

// RandSeed is dRandGetSeed: the state of ODE's global generator, which
// dWorldQuickStep uses to reorder constraints.
func (l *Lib) RandSeed() uint64 {
	r, _, _ := purego.SyscallN(l.fnRandGetSeed)
	return uint64(r)
}

// SetRandSeed is dRandSetSeed.
func (l *Lib) SetRandSeed(s uint64) { purego.SyscallN(l.fnRandSetSeed, uintptr(s)) }

// --- spaces and collision ---

// SimpleSpaceCreate is dSimpleSpaceCreate (parent 0: top level).
func (l *Lib) SimpleSpaceCreate(parent Space) Space { return l.simpleSpaceCreate(parent) }

// HashSpaceCreate is dHashSpaceCreate (parent 0: top level).
func (l *Lib) HashSpaceCreate(parent Space) Space { return l.hashSpaceCreate(parent) }

// SpaceDestroy is dSpaceDestroy (with cleanup on, destroys its geoms).
func (l *Lib) SpaceDestroy(s Space) { l.spaceDestroy(s) }

// SpaceSetCleanup is dSpaceSetCleanup.
func (l *Lib) SpaceSetCleanup(s Space, on bool) {
	var m int32
	if on {
		m = 1
	}
	l.spaceSetCleanup(s, m)
}

// SpaceCollide is dSpaceCollide: cb (a purego.NewCallback of
// func(data, g1, g2 uintptr)) is called for each potentially colliding
// pair of the space.
func (l *Lib) SpaceCollide(s Space, data, cb uintptr) {
	purego.SyscallN(l.fnSpaceCollide, uintptr(s), data, cb)
}

// SpaceCollide2 is dSpaceCollide2: the pairs between two geoms or spaces.
func (l *Lib) SpaceCollide2(a, b Geom, data, cb uintptr) {
	purego.SyscallN(l.fnSpaceCollide2, uintptr(a), uintptr(b), data, cb)
}

// Collide is dCollide: fills buf with at most len(buf) (<= 0xffff)
// contact points of a and b and returns how many.
func (l *Lib) Collide(a, b Geom, buf []ContactGeom) int {
	if len(buf) == 0 {
		return 0
	}
	n := min(len(buf), 0xffff)
	r, _, _ := purego.SyscallN(l.fnCollide, uintptr(a), uintptr(b), uintptr(n),
		uintptr(unsafe.Pointer(&buf[0])), unsafe.Sizeof(ContactGeom{}))
	return int(int32(r))
}

// JointGroupCreate is dJointGroupCreate.
func (l *Lib) JointGroupCreate() JointGroup { return l.jointGroupCreate(0) }

// JointGroupDestroy is dJointGroupDestroy.
func (l *Lib) JointGroupDestroy(g JointGroup) { l.jointGroupDestroy(g) }

// JointGroupEmpty is dJointGroupEmpty (destroys the group's joints).
func (l *Lib) JointGroupEmpty(g JointGroup) { purego.SyscallN(l.fnJointGroupEmpty, uintptr(g)) }

// JointCreateContact is dJointCreateContact (ODE copies *c).
func (l *Lib) JointCreateContact(w World, g JointGroup, c *Contact) Joint {
	r, _, _ := purego.SyscallN(l.fnJointCreateContact, uintptr(w), uintptr(g), uintptr(unsafe.Pointer(c)))
	return Joint(r)
}

// JointAttach is dJointAttach (a body 0 is the static world).
func (l *Lib) JointAttach(j Joint, a, b Body) {
	purego.SyscallN(l.fnJointAttach, uintptr(j), uintptr(a), uintptr(b))
}

// AreConnectedExcluding is dAreConnectedExcluding: whether a joint other
// than of jointType links a and b.
func (l *Lib) AreConnectedExcluding(a, b Body, jointType int) bool {
	r, _, _ := purego.SyscallN(l.fnAreConnectedExcluding, uintptr(a), uintptr(b), uintptr(jointType))
	return int32(r) != 0
}

// --- bodies ---

// BodyCreate is dBodyCreate.
func (l *Lib) BodyCreate(w World) Body { return l.bodyCreate(w) }

// BodyDestroy is dBodyDestroy.
func (l *Lib) BodyDestroy(b Body) { l.bodyDestroy(b) }

// BodySetPosition is dBodySetPosition [m, world].
func (l *Lib) BodySetPosition(b Body, x, y, z float64) { l.bodySetPosition(b, x, y, z) }

// BodySetQuaternion is dBodySetQuaternion (w, x, y, z).
func (l *Lib) BodySetQuaternion(b Body, q [4]float64) { l.bodySetQuaternion(b, &q) }

// BodySetLinearVel is dBodySetLinearVel [m/s, world].
func (l *Lib) BodySetLinearVel(b Body, x, y, z float64) { l.bodySetLinearVel(b, x, y, z) }

// BodySetAngularVel is dBodySetAngularVel [rad/s, world].
func (l *Lib) BodySetAngularVel(b Body, x, y, z float64) { l.bodySetAngularVel(b, x, y, z) }

// BodySetMass is dBodySetMass (m.C must be zero: the body origin is its
// centre of mass).
func (l *Lib) BodySetMass(b Body, m *Mass) { l.bodySetMass(b, m) }

// BodyAddForce is dBodyAddForce [N, world, at the centre of mass].
func (l *Lib) BodyAddForce(b Body, x, y, z float64) { l.bodyAddForce(b, x, y, z) }

// BodySetAutoDisable is dBodySetAutoDisableFlag.
func (l *Lib) BodySetAutoDisable(b Body, on bool) {
	var m int32
	if on {
		m = 1
	}
	l.bodySetAutoDisable(b, m)
}

// MassSetParameters is dMassSetParameters: mass [kg], centre [m], inertia
// [kg m^2] (I11, I22, I33, I12, I13, I23).
func (l *Lib) MassSetParameters(m *Mass, mass, cx, cy, cz, i11, i22, i33, i12, i13, i23 float64) {
	l.massSetParameters(m, mass, cx, cy, cz, i11, i22, i33, i12, i13, i23)
}

// BodyPosition is dBodyGetPosition [m, world].
func (l *Lib) BodyPosition(b Body) [3]float64 {
	r, _, _ := purego.SyscallN(l.fnBodyGetPosition, uintptr(b))
	return vec3(r)
}

// BodyQuaternion is dBodyGetQuaternion (w, x, y, z).
func (l *Lib) BodyQuaternion(b Body) [4]float64 {
	r, _, _ := purego.SyscallN(l.fnBodyGetQuaternion, uintptr(b))
	return *(*[4]float64)(cptr(r))
}

// BodyRotation is dBodyGetRotation: the body-to-world rotation matrix,
// rows of four (the fourth of each unused).
func (l *Lib) BodyRotation(b Body) [12]float64 {
	r, _, _ := purego.SyscallN(l.fnBodyGetRotation, uintptr(b))
	return *(*[12]float64)(cptr(r))
}

// BodyLinearVel is dBodyGetLinearVel [m/s, world].
func (l *Lib) BodyLinearVel(b Body) [3]float64 {
	r, _, _ := purego.SyscallN(l.fnBodyGetLinearVel, uintptr(b))
	return vec3(r)
}

// BodyAngularVel is dBodyGetAngularVel [rad/s, world].
func (l *Lib) BodyAngularVel(b Body) [3]float64 {
	r, _, _ := purego.SyscallN(l.fnBodyGetAngularVel, uintptr(b))
	return vec3(r)
}

// --- geoms ---

// CreatePlane is dCreatePlane: the plane a*x + b*y + c*z = d (static).
func (l *Lib) CreatePlane(s Space, a, b, c, d float64) Geom { return l.createPlane(s, a, b, c, d) }

// CreateBox is dCreateBox: side lengths [m].
func (l *Lib) CreateBox(s Space, lx, ly, lz float64) Geom { return l.createBox(s, lx, ly, lz) }

// CreateSphere is dCreateSphere: radius [m].
func (l *Lib) CreateSphere(s Space, r float64) Geom { return l.createSphere(s, r) }

// CreateCylinder is dCreateCylinder: radius and length [m], axis z.
func (l *Lib) CreateCylinder(s Space, r, length float64) Geom { return l.createCylinder(s, r, length) }

// TriMeshDataCreate is dGeomTriMeshDataCreate.
func (l *Lib) TriMeshDataCreate() TriMeshData { return l.triMeshDataCreate() }

// TriMeshDataDestroy is dGeomTriMeshDataDestroy.
func (l *Lib) TriMeshDataDestroy(d TriMeshData) { l.triMeshDataDestroy(d) }

// TriMeshDataBuildDouble is dGeomTriMeshDataBuildDouble over xyz triples
// and index triples. ODE keeps the pointers: the caller keeps both slices
// alive (and pinned) until the data is destroyed.
func (l *Lib) TriMeshDataBuildDouble(d TriMeshData, vertices []float64, indices []uint32) {
	l.triMeshDataBuild(d, unsafe.Pointer(&vertices[0]), 24, int32(len(vertices)/3),
		unsafe.Pointer(&indices[0]), int32(len(indices)), 12)
}

// CreateTriMesh is dCreateTriMesh (no callbacks).
func (l *Lib) CreateTriMesh(s Space, d TriMeshData) Geom { return l.createTriMesh(s, d, 0, 0, 0) }

// GeomDestroy is dGeomDestroy.
func (l *Lib) GeomDestroy(g Geom) { l.geomDestroy(g) }

// GeomSetBody is dGeomSetBody.
func (l *Lib) GeomSetBody(g Geom, b Body) { l.geomSetBody(g, b) }

// GeomBody is dGeomGetBody (0 for a static geom).
func (l *Lib) GeomBody(g Geom) Body {
	r, _, _ := purego.SyscallN(l.fnGeomGetBody, uintptr(g))
	return Body(r)
}

// GeomSetPosition is dGeomSetPosition [m, world].
func (l *Lib) GeomSetPosition(g Geom, x, y, z float64) { l.geomSetPosition(g, x, y, z) }

// GeomSetQuaternion is dGeomSetQuaternion (w, x, y, z).
func (l *Lib) GeomSetQuaternion(g Geom, q [4]float64) { l.geomSetQuaternion(g, &q) }

// GeomSetOffsetPosition is dGeomSetOffsetPosition [m, body frame].
func (l *Lib) GeomSetOffsetPosition(g Geom, x, y, z float64) { l.geomSetOffsetPos(g, x, y, z) }

// GeomSetOffsetQuaternion is dGeomSetOffsetQuaternion (body frame).
func (l *Lib) GeomSetOffsetQuaternion(g Geom, q [4]float64) { l.geomSetOffsetQuat(g, &q) }

// GeomSetCategoryBits is dGeomSetCategoryBits.
func (l *Lib) GeomSetCategoryBits(g Geom, bits uint64) { l.geomSetCategoryBits(g, bits) }

// GeomSetCollideBits is dGeomSetCollideBits.
func (l *Lib) GeomSetCollideBits(g Geom, bits uint64) { l.geomSetCollideBits(g, bits) }

// GeomAABB is dGeomGetAABB: minx, maxx, miny, maxy, minz, maxz [m, world].
func (l *Lib) GeomAABB(g Geom, out *[6]float64) {
	purego.SyscallN(l.fnGeomGetAABB, uintptr(g), uintptr(unsafe.Pointer(out)))
}

// GeomPosition is dGeomGetPosition [m, world].
func (l *Lib) GeomPosition(g Geom) [3]float64 {
	r, _, _ := purego.SyscallN(l.fnGeomGetPosition, uintptr(g))
	return vec3(r)
}

// GeomRotation is dGeomGetRotation: rows of four.
func (l *Lib) GeomRotation(g Geom) [12]float64 {
	r, _, _ := purego.SyscallN(l.fnGeomGetRotation, uintptr(g))
	return *(*[12]float64)(cptr(r))
}

// --- joints ---

// JointCreateHinge is dJointCreateHinge (group 0: none).
func (l *Lib) JointCreateHinge(w World) Joint { return l.jointCreateHinge(w, 0) }

// JointCreateFixed is dJointCreateFixed (group 0: none).
func (l *Lib) JointCreateFixed(w World) Joint { return l.jointCreateFixed(w, 0) }

// JointDestroy is dJointDestroy.
func (l *Lib) JointDestroy(j Joint) { l.jointDestroy(j) }

// JointSetFixed is dJointSetFixed (after attaching).
func (l *Lib) JointSetFixed(j Joint) { l.jointSetFixed(j) }

// JointSetHingeAnchor is dJointSetHingeAnchor [m, world].
func (l *Lib) JointSetHingeAnchor(j Joint, x, y, z float64) { l.jointSetHingeAnchor(j, x, y, z) }

// JointSetHingeAxis is dJointSetHingeAxis (world frame); the angle is
// zero in the present pose.
func (l *Lib) JointSetHingeAxis(j Joint, x, y, z float64) { l.jointSetHingeAxis(j, x, y, z) }

// JointSetHingeAxisOffset is dJointSetHingeAxisOffset: the axis, with the
// present pose being at angle [rad].
func (l *Lib) JointSetHingeAxisOffset(j Joint, x, y, z, angle float64) {
	l.jointSetHingeAxisOff(j, x, y, z, angle)
}

// JointSetHingeParam is dJointSetHingeParam (Param* numbers).
func (l *Lib) JointSetHingeParam(j Joint, param int, v float64) {
	l.jointSetHingeParam(j, int32(param), v)
}

// JointHingeAngle is dJointGetHingeAngle [rad].
func (l *Lib) JointHingeAngle(j Joint) float64 { return l.jointGetHingeAngle(j) }

// JointHingeAngleRate is dJointGetHingeAngleRate [rad/s].
func (l *Lib) JointHingeAngleRate(j Joint) float64 { return l.jointGetHingeAngleRate(j) }

// JointSetFeedback is dJointSetFeedback: ODE writes the joint's forces
// and torques (dJointFeedback: four dVector3) into fb after each step;
// fb must stay alive and pinned while set (nil unsets).
func (l *Lib) JointSetFeedback(j Joint, fb *Feedback) { l.jointSetFeedback(j, unsafe.Pointer(fb)) }

// Feedback is ODE's dJointFeedback: the force [N] and torque [N m] the
// joint applies to its first and second body, world frame.
type Feedback struct {
	F1 [4]float64 // force on body 1 [N, world]
	T1 [4]float64 // torque on body 1 about its centre of mass [N m, world]
	F2 [4]float64 // force on body 2 [N, world]
	T2 [4]float64 // torque on body 2 about its centre of mass [N m, world]
}
