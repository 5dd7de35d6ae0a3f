package ode

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// World is a dWorldID.
type World uintptr

// Space is a dSpaceID (also usable as a Geom).
type Space uintptr

// Body is a dBodyID; 0 is the static world.
type Body uintptr

// Geom is a dGeomID.
type Geom uintptr

// Joint is a dJointID.
type Joint uintptr

// JointGroup is a dJointGroupID.
type JointGroup uintptr

// TriMeshData is a dTriMeshDataID.
type TriMeshData uintptr

// Library is the file Load opens, as Debian's libode8 installs it.
const Library = "libode.so.8"

// ErrMissing is returned (wrapped) by Load when libode cannot be opened.
var ErrMissing = errors.New("ODE (" + Library + ") not found: install the Debian package libode-dev (or libode8)")

// Lib is the loaded library: its functions, ready to call. The zero
// value is not usable; get one from Load.
type Lib struct {
	// Config is dGetConfiguration(): the space-separated build options.
	Config string

	// Integer-only entry points, called with purego.SyscallN.
	fnSpaceCollide, fnSpaceCollide2, fnCollide, fnJointCreateContact          uintptr
	fnJointAttach, fnGeomGetBody, fnBodyGetPosition, fnBodyGetQuaternion      uintptr
	fnBodyGetLinearVel, fnBodyGetAngularVel, fnJointGroupEmpty, fnGeomGetAABB uintptr
	fnBodyGetRotation, fnAreConnectedExcluding, fnRandGetSeed, fnRandSetSeed  uintptr
	fnGeomGetPosition, fnGeomGetRotation                                      uintptr

	worldCreate            func() World
	worldDestroy           func(World)
	worldSetGravity        func(World, float64, float64, float64)
	worldSetERP            func(World, float64)
	worldSetCFM            func(World, float64)
	worldStep              func(World, float64) int32
	worldQuickStep         func(World, float64) int32
	worldSetQuickStepIters func(World, int32)
	worldSetSurfaceLayer   func(World, float64)
	worldSetMaxCorrVel     func(World, float64)

	simpleSpaceCreate func(Space) Space
	hashSpaceCreate   func(Space) Space
	spaceDestroy      func(Space)
	spaceSetCleanup   func(Space, int32)

	jointGroupCreate  func(int32) JointGroup
	jointGroupDestroy func(JointGroup)

	bodyCreate         func(World) Body
	bodyDestroy        func(Body)
	bodySetPosition    func(Body, float64, float64, float64)
	bodySetQuaternion  func(Body, *[4]float64)
	bodySetLinearVel   func(Body, float64, float64, float64)
	bodySetAngularVel  func(Body, float64, float64, float64)
	bodySetMass        func(Body, *Mass)
	bodyAddForce       func(Body, float64, float64, float64)
	bodySetAutoDisable func(Body, int32)
	massSetParameters  func(*Mass, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64)

	createPlane         func(Space, float64, float64, float64, float64) Geom
	createBox           func(Space, float64, float64, float64) Geom
	createSphere        func(Space, float64) Geom
	createCylinder      func(Space, float64, float64) Geom
	createTriMesh       func(Space, TriMeshData, uintptr, uintptr, uintptr) Geom
	triMeshDataCreate   func() TriMeshData
	triMeshDataDestroy  func(TriMeshData)
	triMeshDataBuild    func(TriMeshData, unsafe.Pointer, int32, int32, unsafe.Pointer, int32, int32)
	geomDestroy         func(Geom)
	geomSetBody         func(Geom, Body)
	geomSetPosition     func(Geom, float64, float64, float64)
	geomSetQuaternion   func(Geom, *[4]float64)
	geomSetOffsetPos    func(Geom, float64, float64, float64)
	geomSetOffsetQuat   func(Geom, *[4]float64)
	geomSetCategoryBits func(Geom, uint64)
	geomSetCollideBits  func(Geom, uint64)

	jointCreateHinge       func(World, JointGroup) Joint
	jointCreateFixed       func(World, JointGroup) Joint
	jointDestroy           func(Joint)
	jointSetFixed          func(Joint)
	jointSetHingeAnchor    func(Joint, float64, float64, float64)
	jointSetHingeAxis      func(Joint, float64, float64, float64)
	jointSetHingeAxisOff   func(Joint, float64, float64, float64, float64)
	jointSetHingeParam     func(Joint, int32, float64)
	jointGetHingeAngle     func(Joint) float64
	jointGetHingeAngleRate func(Joint) float64
	jointSetFeedback       func(Joint, unsafe.Pointer)
}

var (
	loadOnce sync.Once
	loaded   *Lib
	loadErr  error
)

// Load opens libode once per process and returns it (the same *Lib on
// every call). It fails with ErrMissing when the library is not
// installed, and with a one-line error when it is not the double-precision
// build this binding's struct layouts assume.
func Load() (*Lib, error) {
	loadOnce.Do(func() { loaded, loadErr = load() })
	return loaded, loadErr
}

func load() (*Lib, error) { return loadFrom(Library) }

func loadFrom(path string) (l *Lib, err error) {
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrMissing, err)
	}
	// RegisterLibFunc panics on a missing symbol: turn that into an error
	// (an older or foreign libode), never a crash.
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, fmt.Errorf("ode: %s lacks a symbol this binding needs (ODE 0.16 expected): %v", path, r)
		}
	}()
	sym := func(name string) uintptr {
		p, err := purego.Dlsym(h, name)
		if err != nil {
			panic(name)
		}
		return p
	}
	l = &Lib{}
	var getConfig func() string
	var checkConfig func(string) int32
	var initODE func(uint32) int32
	var allocData func(uint32) int32
	purego.RegisterLibFunc(&getConfig, h, "dGetConfiguration")
	purego.RegisterLibFunc(&checkConfig, h, "dCheckConfiguration")
	purego.RegisterLibFunc(&initODE, h, "dInitODE2")
	purego.RegisterLibFunc(&allocData, h, "dAllocateODEDataForThread")
	l.Config = getConfig()
	if checkConfig("ODE_double_precision") != 1 {
		return nil, fmt.Errorf("ode: %s is not built with double precision (configuration %q); this binding needs Debian's libode8", path, l.Config)
	}
	if initODE(0) == 0 {
		return nil, errors.New("ode: dInitODE2 failed")
	}
	// Without ODE_EXT_mt (Debian's build) the data is global, not per
	// thread, so one allocation serves every goroutine's thread.
	if allocData(^uint32(0)) == 0 {
		return nil, errors.New("ode: dAllocateODEDataForThread failed")
	}

	l.fnSpaceCollide = sym("dSpaceCollide")
	l.fnSpaceCollide2 = sym("dSpaceCollide2")
	l.fnCollide = sym("dCollide")
	l.fnJointCreateContact = sym("dJointCreateContact")
	l.fnJointAttach = sym("dJointAttach")
	l.fnGeomGetBody = sym("dGeomGetBody")
	l.fnBodyGetPosition = sym("dBodyGetPosition")
	l.fnBodyGetQuaternion = sym("dBodyGetQuaternion")
	l.fnBodyGetRotation = sym("dBodyGetRotation")
	l.fnBodyGetLinearVel = sym("dBodyGetLinearVel")
	l.fnBodyGetAngularVel = sym("dBodyGetAngularVel")
	l.fnJointGroupEmpty = sym("dJointGroupEmpty")
	l.fnGeomGetAABB = sym("dGeomGetAABB")
	l.fnAreConnectedExcluding = sym("dAreConnectedExcluding")
	l.fnRandGetSeed = sym("dRandGetSeed")
	l.fnRandSetSeed = sym("dRandSetSeed")
	l.fnGeomGetPosition = sym("dGeomGetPosition")
	l.fnGeomGetRotation = sym("dGeomGetRotation")

	reg := func(fptr any, name string) { purego.RegisterLibFunc(fptr, h, name) }
	reg(&l.worldCreate, "dWorldCreate")
	reg(&l.worldDestroy, "dWorldDestroy")
	reg(&l.worldSetGravity, "dWorldSetGravity")
	reg(&l.worldSetERP, "dWorldSetERP")
	reg(&l.worldSetCFM, "dWorldSetCFM")
	reg(&l.worldStep, "dWorldStep")
	reg(&l.worldQuickStep, "dWorldQuickStep")
	reg(&l.worldSetQuickStepIters, "dWorldSetQuickStepNumIterations")
	reg(&l.worldSetSurfaceLayer, "dWorldSetContactSurfaceLayer")
	reg(&l.worldSetMaxCorrVel, "dWorldSetContactMaxCorrectingVel")
	reg(&l.simpleSpaceCreate, "dSimpleSpaceCreate")
	reg(&l.hashSpaceCreate, "dHashSpaceCreate")
	reg(&l.spaceDestroy, "dSpaceDestroy")
	reg(&l.spaceSetCleanup, "dSpaceSetCleanup")
	reg(&l.jointGroupCreate, "dJointGroupCreate")
	reg(&l.jointGroupDestroy, "dJointGroupDestroy")
	reg(&l.bodyCreate, "dBodyCreate")
	reg(&l.bodyDestroy, "dBodyDestroy")
	reg(&l.bodySetPosition, "dBodySetPosition")
	reg(&l.bodySetQuaternion, "dBodySetQuaternion")
	reg(&l.bodySetLinearVel, "dBodySetLinearVel")
	reg(&l.bodySetAngularVel, "dBodySetAngularVel")
	reg(&l.bodySetMass, "dBodySetMass")
	reg(&l.bodyAddForce, "dBodyAddForce")
	reg(&l.bodySetAutoDisable, "dBodySetAutoDisableFlag")
	reg(&l.massSetParameters, "dMassSetParameters")
	reg(&l.createPlane, "dCreatePlane")
	reg(&l.createBox, "dCreateBox")
	reg(&l.createSphere, "dCreateSphere")
	reg(&l.createCylinder, "dCreateCylinder")
	reg(&l.createTriMesh, "dCreateTriMesh")
	reg(&l.triMeshDataCreate, "dGeomTriMeshDataCreate")
	reg(&l.triMeshDataDestroy, "dGeomTriMeshDataDestroy")
	reg(&l.triMeshDataBuild, "dGeomTriMeshDataBuildDouble")
	reg(&l.geomDestroy, "dGeomDestroy")
	reg(&l.geomSetBody, "dGeomSetBody")
	reg(&l.geomSetPosition, "dGeomSetPosition")
	reg(&l.geomSetQuaternion, "dGeomSetQuaternion")
	reg(&l.geomSetOffsetPos, "dGeomSetOffsetPosition")
	reg(&l.geomSetOffsetQuat, "dGeomSetOffsetQuaternion")
	reg(&l.geomSetCategoryBits, "dGeomSetCategoryBits")
	reg(&l.geomSetCollideBits, "dGeomSetCollideBits")
	reg(&l.jointCreateHinge, "dJointCreateHinge")
	reg(&l.jointCreateFixed, "dJointCreateFixed")
	reg(&l.jointDestroy, "dJointDestroy")
	reg(&l.jointSetFixed, "dJointSetFixed")
	reg(&l.jointSetHingeAnchor, "dJointSetHingeAnchor")
	reg(&l.jointSetHingeAxis, "dJointSetHingeAxis")
	reg(&l.jointSetHingeAxisOff, "dJointSetHingeAxisOffset")
	reg(&l.jointSetHingeParam, "dJointSetHingeParam")
	reg(&l.jointGetHingeAngle, "dJointGetHingeAngle")
	reg(&l.jointGetHingeAngleRate, "dJointGetHingeAngleRate")
	reg(&l.jointSetFeedback, "dJointSetFeedback")
	return l, nil
}
