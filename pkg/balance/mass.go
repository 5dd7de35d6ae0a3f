package balance

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/urdf"
)

func (m *Model) inertials(robot *urdf.Robot, index map[string]int) error {
	for _, l := range robot.Links {
		in := l.Inertial
		if in == nil || in.Mass == nil {
			continue
		}
		mass, err := urdf.Number(in.Mass.Value)
		if err != nil || mass < 0 {
			return fmt.Errorf("link %q: mass %q", l.Name, in.Mass.Value)
		}
		var at r3.Vec
		if in.Origin != nil {
			t, err := pose(in.Origin)
			if err != nil {
				return fmt.Errorf("link %q inertial: %w", l.Name, err)
			}
			at = t.Translation
		}
		if mass > 0 {
			m.masses = append(m.masses, massPoint{node: index[l.Name], mass: mass, at: at})
			m.total += mass
		}
	}
	if !(m.total > 0) || math.IsInf(m.total, 0) {
		return fmt.Errorf("total mass %g kg", m.total)
	}
	return nil
}

// rimPoints is how many points of each rim of a cylinder are contact
// candidates.
const rimPoints = 16

func (m *Model) addShape(n int, s urdf.Shape) error {
	g := s.Geometry
	if g == nil {
		return nil
	}
	at := geom.Identity()
	if s.Origin != nil {
		var err error
		if at, err = pose(s.Origin); err != nil {
			return err
		}
	}
	add := func(p r3.Vec) { m.contacts = append(m.contacts, contactPoint{node: n, at: at.Apply(p)}) }
	switch {
	case g.Box != nil:
		sz, err := urdf.Vec3(g.Box.Size, [3]float64{})
		if err != nil {
			return fmt.Errorf("box size: %w", err)
		}
		for c := 0; c < 8; c++ {
			add(r3.Vec{X: sign(c&1) * sz[0] / 2, Y: sign(c&2) * sz[1] / 2, Z: sign(c&4) * sz[2] / 2})
		}
	case g.Cylinder != nil:
		r, err := urdf.Number(g.Cylinder.Radius)
		if err != nil {
			return fmt.Errorf("cylinder radius: %w", err)
		}
		h, err := urdf.Number(g.Cylinder.Length)
		if err != nil {
			return fmt.Errorf("cylinder length: %w", err)
		}
		for k := 0; k < rimPoints; k++ {
			a := 2 * math.Pi * float64(k) / rimPoints
			add(r3.Vec{X: r * math.Cos(a), Y: r * math.Sin(a), Z: h / 2})
			add(r3.Vec{X: r * math.Cos(a), Y: r * math.Sin(a), Z: -h / 2})
		}
	case g.Sphere != nil:
		// A sphere touches the ground at its lowest point, which depends
		// on its orientation: its centre stands for it, one radius up.
		r, err := urdf.Number(g.Sphere.Radius)
		if err != nil {
			return fmt.Errorf("sphere radius: %w", err)
		}
		add(r3.Vec{Z: -r})
	}
	return nil
}

func sign(bit int) float64 {
	if bit != 0 {
		return 1
	}
	return -1
}

// assumedNote says which share of the mass is assumed, from the comments
// of the description ("" when none is).
func assumedNote(doc []byte, m *Model) string {
	d := xml.NewDecoder(bytes.NewReader(doc))
	last := ""
	assumed := map[string]bool{}
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.Comment:
			last = strings.ToLower(string(t))
		case xml.StartElement:
			if t.Name.Local != "link" {
				continue
			}
			if strings.Contains(last, "assumed") || strings.Contains(last, "estimate") {
				for _, a := range t.Attr {
					if a.Name.Local == "name" {
						assumed[a.Value] = true
					}
				}
			}
		}
	}
	var mass float64
	var names []string
	for _, mp := range m.masses {
		if n := m.nodes[mp.node].name; assumed[n] {
			mass += mp.mass
			names = append(names, n)
		}
	}
	if mass == 0 {
		return ""
	}
	sort.Strings(names)
	names = slices.Compact(names)
	return fmt.Sprintf("assumed masses (URDF comments say so): %.0f%% of %.1f kg, in %d of %d links", 100*mass/m.total, m.total, len(names), len(m.masses))
}
