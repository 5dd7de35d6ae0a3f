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
	Name   string  `xml:"name,attr"` // its name attribute
	Links  []Link  `xml:"link"`      // its <link> elements
	Joints []Joint `xml:"joint"`     // its <joint> elements
}

// Link is a URDF link; Inertial is nil for a link without one.
type Link struct {
	Name       string    `xml:"name,attr"` // its name attribute
	Inertial   *Inertial `xml:"inertial"`
	Visuals    []Shape   `xml:"visual"`    // its <visual> elements
	Collisions []Shape   `xml:"collision"` // its <collision> elements
}

// Inertial is a link's mass and inertia; either is nil when its element
// is missing. Origin is the pose of the centre of mass (and of the
// inertia's axes) in the link frame; nil when not written (the link
// origin).
type Inertial struct {
	Origin  *Origin  `xml:"origin"`  // its <origin> element
	Mass    *Mass    `xml:"mass"`    // its <mass> element
	Inertia *Inertia `xml:"inertia"` // its <inertia> element
}

// Shape is a link's <visual> or <collision>: the pose of its geometry in
// the link frame (nil: the link origin) and the geometry.
type Shape struct {
	Name     string    `xml:"name,attr"` // its name attribute ("" when absent)
	Origin   *Origin   `xml:"origin"`    // pose of the geometry in the link frame; nil: the link origin
	Geometry *Geometry `xml:"geometry"`  // the shape itself
}

// Geometry is one of a box, a cylinder, a sphere or a mesh; the others
// are nil.
type Geometry struct {
	Box      *Box      `xml:"box"`      // a <box>, or nil
	Cylinder *Cylinder `xml:"cylinder"` // a <cylinder>, or nil
	Sphere   *Sphere   `xml:"sphere"`   // a <sphere>, or nil
	Mesh     *Mesh     `xml:"mesh"`     // a <mesh>, or nil
}

// Box is a box centred on its origin: Size "x y z" [m].
type Box struct {
	Size string `xml:"size,attr"`
}

// Cylinder is a cylinder centred on its origin, its axis along z: radius
// and length [m].
type Cylinder struct {
	Radius string `xml:"radius,attr"` // radius [m], as written
	Length string `xml:"length,attr"` // length along z [m], as written
}

// Sphere is a sphere centred on its origin: radius [m].
type Sphere struct {
	Radius string `xml:"radius,attr"` // radius [m], as written
}

// Mesh is a mesh file (a URI) scaled by Scale "x y z" ("" is 1 1 1).
type Mesh struct {
	Filename string `xml:"filename,attr"` // the mesh URI, as written
	Scale    string `xml:"scale,attr"`    // "x y z" scale factors; "" is 1 1 1
}

// Mass is a link's mass [kg].
type Mass struct {
	Value string `xml:"value,attr"` // its value attribute [kg]
}

// Inertia is a link's inertia tensor about its centre of mass [kg m²].
type Inertia struct {
	IXX string `xml:"ixx,attr"` // its ixx attribute [kg m²]
	IXY string `xml:"ixy,attr"` // its ixy attribute [kg m²]
	IXZ string `xml:"ixz,attr"` // its ixz attribute [kg m²]
	IYY string `xml:"iyy,attr"` // its iyy attribute [kg m²]
	IYZ string `xml:"iyz,attr"` // its iyz attribute [kg m²]
	IZZ string `xml:"izz,attr"` // its izz attribute [kg m²]
}

// Joint is a URDF joint. Optional elements are nil when missing.
type Joint struct {
	Name   string            `xml:"name,attr"`         // its name attribute
	Type   string            `xml:"type,attr"`         // its type attribute: "revolute", "fixed", ...
	Parent LinkRef           `xml:"parent"`            // its <parent> element
	Child  LinkRef           `xml:"child"`             // its <child> element
	Origin *Origin           `xml:"origin"`            // its <origin> element
	Axis   *Axis             `xml:"axis"`              // its <axis> element
	Limit  *Limit            `xml:"limit"`             // its <limit> element
	Safety *SafetyController `xml:"safety_controller"` // its <safety_controller> element
	Mimic  *Mimic            `xml:"mimic"`             // its <mimic> element
}

// LinkRef names a joint's parent or child link.
type LinkRef struct {
	Link string `xml:"link,attr"` // its link attribute
}

// Origin is the pose of a joint's frame in its parent link's frame:
// translation "x y z" [m] and fixed-axis roll, pitch, yaw "r p y" [rad].
type Origin struct {
	XYZ string `xml:"xyz,attr"` // its xyz attribute [m]
	RPY string `xml:"rpy,attr"` // its rpy attribute [rad]
}

// Axis is a joint's axis "x y z" in the joint frame.
type Axis struct {
	XYZ string `xml:"xyz,attr"` // its xyz attribute (a direction)
}

// Limit is a joint's <limit>: positions [rad or m], effort [N m or N] and
// velocity [rad/s or m/s]; an attribute not written is "".
type Limit struct {
	Lower    string `xml:"lower,attr"`    // its lower attribute [rad or m]
	Upper    string `xml:"upper,attr"`    // its upper attribute [rad or m]
	Effort   string `xml:"effort,attr"`   // its effort attribute [N m or N]
	Velocity string `xml:"velocity,attr"` // its velocity attribute [rad/s or m/s]
}

// SafetyController is a joint's <safety_controller>: soft position limits
// [rad or m] and the gains of the controller that enforces them.
type SafetyController struct {
	SoftLower string `xml:"soft_lower_limit,attr"` // its soft_lower_limit attribute [rad or m]
	SoftUpper string `xml:"soft_upper_limit,attr"` // its soft_upper_limit attribute [rad or m]
	KPosition string `xml:"k_position,attr"`       // its k_position attribute
	KVelocity string `xml:"k_velocity,attr"`       // its k_velocity attribute
}

// Mimic names the joint a mimic joint follows.
type Mimic struct {
	Joint string `xml:"joint,attr"` // its joint attribute
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
