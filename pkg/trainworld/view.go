package trainworld

import (
	"errors"
	"fmt"

	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/geom"
	"github.com/telebridge/telebridge/pkg/mesh"
	"github.com/telebridge/telebridge/pkg/render"
	"github.com/telebridge/telebridge/pkg/sdf"
	"gonum.org/v1/gonum/spatial/r3"
)

// view is the world's rendered scene: one render body per SDF visual.
type view struct {
	r      *render.Renderer
	bodies [][]visual // by dynamic body (w.dynamic order)
}

// visual is a render body and its pose on its link.
type visual struct {
	id   render.BodyID
	pose geom.Transform
}

// AttachRenderer puts the world's visuals into r (uploaded once; the
// dynamic ones follow their bodies after every step) and lights it with
// the world's first directional light and its ambient and background.
// The robot itself is not drawn: its cameras look out from it.
func (w *World) AttachRenderer(r *render.Renderer) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.view != nil {
		return errors.New("trainworld: a renderer is attached already")
	}
	v := &view{r: r, bodies: make([][]visual, len(w.dynamic))}
	dynIdx := map[int]int{}
	for i, d := range w.dynamic {
		dynIdx[d.index] = i
	}
	meshes := map[string]render.MeshID{}
	for bi := range w.sdf.Bodies {
		b := &w.sdf.Bodies[bi]
		di, dynamic := dynIdx[bi]
		for k := range b.Visuals {
			vs := &b.Visuals[k]
			key, m, pose := renderMesh(&vs.Geometry)
			if m == nil {
				continue
			}
			id, ok := meshes[key]
			if !ok {
				var err error
				if id, err = r.UploadMesh(m); err != nil {
					return fmt.Errorf("trainworld: body %q visual %q: %w", b.Name, vs.Name, err)
				}
				meshes[key] = id
			}
			c := vs.Material.Diffuse
			rel := vs.Pose.Mul(pose)
			bid, err := r.AddBody(id, [4]float32{float32(c.R), float32(c.G), float32(c.B), float32(c.A)}, b.Pose.Mul(rel))
			if err != nil {
				return fmt.Errorf("trainworld: body %q visual %q: %w", b.Name, vs.Name, err)
			}
			if dynamic {
				v.bodies[di] = append(v.bodies[di], visual{id: bid, pose: rel})
			}
		}
	}
	l := render.DefaultLighting()
	amb, bg := w.sdf.Ambient, w.sdf.Background
	l.Ambient = [3]float32{float32(amb.R), float32(amb.G), float32(amb.B)}
	l.Background = [4]float32{float32(bg.R), float32(bg.G), float32(bg.B), 1}
	for _, li := range w.sdf.Lights {
		if li.Kind == sdf.Directional {
			k := li.Intensity
			if k == 0 {
				k = 1
			}
			l.SunDirection = li.Direction
			l.Sun = [3]float32{float32(li.Diffuse.R * k), float32(li.Diffuse.G * k), float32(li.Diffuse.B * k)}
			break
		}
	}
	r.SetLighting(l)
	w.view = v
	return v.mirror(w)
}

// mirror moves the dynamic visuals to their bodies (w.mu held).
func (v *view) mirror(w *World) error {
	for i, vs := range v.bodies {
		for _, x := range vs {
			if err := v.r.SetPose(x.id, w.dynamic[i].pose.Mul(x.pose)); err != nil {
				return fmt.Errorf("trainworld: render: %w", err)
			}
		}
	}
	return nil
}

// renderMesh returns a visual geometry's triangles, a key shared by equal
// geometries, and the pose of the mesh in the shape frame (a plane turned
// to its normal); nil for a geometry not drawn.
func renderMesh(g *sdf.Geometry) (string, *render.Mesh, geom.Transform) {
	id := geom.Identity()
	switch g.Kind {
	case sdf.Box:
		return fmt.Sprintf("box %g %g %g", g.Size.X, g.Size.Y, g.Size.Z), render.Box(g.Size.X, g.Size.Y, g.Size.Z), id
	case sdf.Cylinder:
		return fmt.Sprintf("cyl %g %g", g.Radius, g.Length), render.Cylinder(g.Radius, g.Length, 24), id
	case sdf.Sphere:
		return fmt.Sprintf("sph %g", g.Radius), render.Sphere(g.Radius, 20, 12), id
	case sdf.Plane:
		sx, sy := g.PlaneSize[0], g.PlaneSize[1]
		if sx <= 0 || sy <= 0 {
			sx, sy = 200, 200
		}
		return fmt.Sprintf("plane %g %g", sx, sy), render.Plane(sx, sy), geom.Rotation(zTo(g.Normal))
	case sdf.MeshGeom:
		if g.Mesh == nil || len(g.Mesh.Triangles) == 0 {
			return "", nil, id
		}
		return fmt.Sprintf("mesh %p", g.Mesh), flatMesh(g.Mesh), id
	}
	return "", nil, id
}

// flatMesh turns a mesh file's triangles into a flat-shaded render mesh
// (three vertices and one normal per triangle), drawn from both sides
// since a file's winding cannot be trusted.
func flatMesh(m *mesh.Mesh) *render.Mesh {
	out := &render.Mesh{DoubleSided: true}
	for _, t := range m.Triangles {
		a, b, c := m.Vertices[t[0]], m.Vertices[t[1]], m.Vertices[t[2]]
		n := r3.Cross(r3.Sub(b, a), r3.Sub(c, a))
		if r3.Norm(n) == 0 {
			continue
		}
		n = r3.Unit(n)
		for _, p := range []r3.Vec{a, b, c} {
			out.Positions = append(out.Positions, float32(p.X), float32(p.Y), float32(p.Z))
			out.Normals = append(out.Normals, float32(n.X), float32(n.Y), float32(n.Z))
			out.Indices = append(out.Indices, uint32(len(out.Indices)))
		}
	}
	return out
}

// Camera renders what one of the robot's cameras sees.
type Camera struct {
	w    *World
	link string
	cam  *render.Camera
}

// NewCamera makes a camera at the robot's URDF link (e.g.
// "front_left_camera_link", body convention: x along the lens axis) with
// intrinsics in. AttachRenderer first.
func (w *World) NewCamera(link string, in render.Intrinsics) (*Camera, error) {
	w.mu.Lock()
	v := w.view
	_, err := w.robot.LinkPose(link)
	w.mu.Unlock()
	if v == nil {
		return nil, errors.New("trainworld: no renderer attached")
	}
	if err != nil {
		return nil, fmt.Errorf("trainworld: camera: %w", err)
	}
	c, err := v.r.NewCamera(in)
	if err != nil {
		return nil, fmt.Errorf("trainworld: camera %s: %w", link, err)
	}
	return &Camera{w: w, link: link, cam: c}, nil
}

// Pose returns the camera's optical frame in the world now (base pose x
// URDF chain x OpticalFromLink).
func (c *Camera) Pose() (geom.Transform, error) {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	if c.w.closed {
		return geom.Transform{}, errors.New("trainworld: world closed")
	}
	p, err := c.w.robot.LinkPose(c.link)
	if err != nil {
		return geom.Transform{}, err
	}
	return render.OpticalFromLink(toGeom(p)), nil
}

// Render draws the camera's picture now into dst (rows packed, top row
// first) in format f (wire.FmtYUYV for the console's cameras).
func (c *Camera) Render(dst []byte, f wire.FourCC) error {
	p, err := c.Pose()
	if err != nil {
		return err
	}
	return c.cam.Render(p, dst, f)
}

// Intrinsics returns the camera's intrinsics.
func (c *Camera) Intrinsics() render.Intrinsics { return c.cam.Intrinsics() }

// Close frees the camera's framebuffers.
func (c *Camera) Close() error { return c.cam.Close() }
