package urdf

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Robot is a URDF document: its name, links and joints in document order.
type Robot struct {
	Name   string  `xml:"name,attr"`
	Links  []Link  `xml:"link"`
	Joints []Joint `xml:"joint"`
}

// Link is a URDF link; Inertial is nil for a link without one.
type Link struct {
	Name       string    `xml:"name,attr"`
	Inertial   *Inertial `xml:"inertial"`
	Visuals    []Shape   `xml:"visual"`
	Collisions []Shape   `xml:"collision"`
}

// Inertial is a link's mass and inertia; either is nil when its element
// is missing. Origin is the pose of the centre of mass (and of the
// inertia's axes) in the link frame; nil when not written (the link
// origin).
type Inertial struct {
	Origin  *Origin  `xml:"origin"`
	Mass    *Mass    `xml:"mass"`
	Inertia *Inertia `xml:"inertia"`
}

// Shape is a link's <visual> or <collision>: the pose of its geometry in
// the link frame (nil: the link origin) and the geometry.
type Shape struct {
	Name     string    `xml:"name,attr"`
	Origin   *Origin   `xml:"origin"`
	Geometry *Geometry `xml:"geometry"`
}

// Geometry is one of a box, a cylinder, a sphere or a mesh; the others
// are nil.
type Geometry struct {
	Box      *Box      `xml:"box"`
	Cylinder *Cylinder `xml:"cylinder"`
	Sphere   *Sphere   `xml:"sphere"`
	Mesh     *Mesh     `xml:"mesh"`
}

// Box is a box centred on its origin: Size "x y z" [m].
type Box struct {
	Size string `xml:"size,attr"`
}

// Cylinder is a cylinder centred on its origin, its axis along z: radius
// and length [m].
type Cylinder struct {
	Radius string `xml:"radius,attr"`
	Length string `xml:"length,attr"`
}

// Sphere is a sphere centred on its origin: radius [m].
type Sphere struct {
	Radius string `xml:"radius,attr"`
}

// Mesh is a mesh file (a URI) scaled by Scale "x y z" ("" is 1 1 1).
type Mesh struct {
	Filename string `xml:"filename,attr"`
	Scale    string `xml:"scale,attr"`
}

// Mass is a link's mass [kg].
type Mass struct {
	Value string `xml:"value,attr"`
}

// Inertia is a link's inertia tensor about its centre of mass [kg m²].
type Inertia struct {
	IXX string `xml:"ixx,attr"`
	IXY string `xml:"ixy,attr"`
	IXZ string `xml:"ixz,attr"`
	IYY string `xml:"iyy,attr"`
	IYZ string `xml:"iyz,attr"`
	IZZ string `xml:"izz,attr"`
}

// Joint is a URDF joint. Optional elements are nil when missing.
type Joint struct {
	Name   string            `xml:"name,attr"`
	Type   string            `xml:"type,attr"`
	Parent LinkRef           `xml:"parent"`
	Child  LinkRef           `xml:"child"`
	Origin *Origin           `xml:"origin"`
	Axis   *Axis             `xml:"axis"`
	Limit  *Limit            `xml:"limit"`
	Safety *SafetyController `xml:"safety_controller"`
	Mimic  *Mimic            `xml:"mimic"`
}

// LinkRef names a joint's parent or child link.
type LinkRef struct {
	Link string `xml:"link,attr"`
}

// Origin is the pose of a joint's frame in its parent link's frame:
// translation "x y z" [m] and fixed-axis roll, pitch, yaw "r p y" [rad].
type Origin struct {
	XYZ string `xml:"xyz,attr"`
	RPY string `xml:"rpy,attr"`
}

// Axis is a joint's axis "x y z" in the joint frame.
type Axis struct {
	XYZ string `xml:"xyz,attr"`
}

// Limit is a joint's <limit>: positions [rad or m], effort [N m or N] and
// velocity [rad/s or m/s]; an attribute not written is "".
type Limit struct {
	Lower    string `xml:"lower,attr"`
	Upper    string `xml:"upper,attr"`
	Effort   string `xml:"effort,attr"`
	Velocity string `xml:"velocity,attr"`
}

// SafetyController is a joint's <safety_controller>: soft position limits
// [rad or m] and the gains of the controller that enforces them.
type SafetyController struct {
	SoftLower string `xml:"soft_lower_limit,attr"`
	SoftUpper string `xml:"soft_upper_limit,attr"`
	KPosition string `xml:"k_position,attr"`
	KVelocity string `xml:"k_velocity,attr"`
}

// Mimic names the joint a mimic joint follows.
type Mimic struct {
	Joint string `xml:"joint,attr"`
}

// Decode reads a URDF document.
func Decode(r io.Reader) (*Robot, error) {
	var robot Robot
	if err := xml.NewDecoder(r).Decode(&robot); err != nil {
		return nil, fmt.Errorf("urdf: decode: %w", err)
	}
	return &robot, nil
}

// Number parses a number attribute that must be written: a finite
// decimal, surrounding spaces allowed.
func Number(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("bad number %q", s)
	}
	return v, nil
}

// NumberOr parses a number attribute that may be left out: an empty or
// blank s gives def.
func NumberOr(s string, def float64) (float64, error) {
	if strings.TrimSpace(s) == "" {
		return def, nil
	}
	return Number(s)
}

// Vec3 parses a vector attribute "x y z"; an empty or blank s gives def.
func Vec3(s string, def [3]float64) ([3]float64, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return def, nil
	}
	var v [3]float64
	if len(f) != 3 {
		return v, fmt.Errorf("want 3 numbers, got %q", s)
	}
	for i, w := range f {
		x, err := Number(w)
		if err != nil {
			return v, err
		}
		v[i] = x
	}
	return v, nil
}
