// Command worldpng draws a shipped world (or an SDF file) from above as a
// PNG: a floor plan cut at -cut metres (walls cut through show dark, a
// door under its lintel shows open), one ray straight down per pixel
// against the collision geometry,
// coloured by the body's visual material, shaded by height and by the sun,
// with a 1 m grid on the ground and the drawn-only markers as discs. The
// pictures of docs/world.md are made with it:
//
//	go run ./internal/tools/worldpng -world course -o docs/img/world-course.png
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"

	"github.com/telebridge/telebridge/pkg/raycast"
	"github.com/telebridge/telebridge/pkg/sdf"
	"github.com/telebridge/telebridge/worlds"
	"gonum.org/v1/gonum/spatial/r3"
)

func main() {
	name := flag.String("world", "course", "shipped world name or SDF file")
	out := flag.String("o", "world.png", "PNG file to write")
	ppm := flag.Float64("px", 40, "pixels per metre")
	cut := flag.Float64("cut", 1.5, "height of the plan's cut [m]")
	flag.Parse()
	w, err := worlds.Load(*name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "worldpng:", err)
		os.Exit(1)
	}
	for _, wn := range w.Warnings {
		fmt.Fprintln(os.Stderr, "worldpng: warning:", wn)
	}
	img, err := render(w, *ppm, *cut)
	if err != nil {
		fmt.Fprintln(os.Stderr, "worldpng:", err)
		os.Exit(1)
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "worldpng:", err)
		os.Exit(1)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		fmt.Fprintln(os.Stderr, "worldpng:", err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "worldpng:", err)
		os.Exit(1)
	}
	b := img.Bounds()
	fmt.Printf("wrote %s (%dx%d px, %g px/m)\n", *out, b.Dx(), b.Dy(), *ppm)
}

// disc is a marker drawn on the ground.
type disc struct {
	x, y, r float64
	c       sdf.Color
}

// render draws w from above over the bounds of its static geometry, ppm
// pixels a metre, cut at height cut [m]; +X to the right, +Y up the
// picture.
func render(w *sdf.World, ppm, cut float64) (*image.RGBA, error) {
	s := raycast.New(w)
	mn, mx, ok := s.Bounds()
	if !ok {
		return nil, fmt.Errorf("world %q has no bounded geometry to frame", w.Name)
	}
	mn, mx = r3.Sub(mn, r3.Vec{X: 0.5, Y: 0.5}), r3.Add(mx, r3.Vec{X: 0.5, Y: 0.5})
	wpx, hpx := int(math.Ceil((mx.X-mn.X)*ppm)), int(math.Ceil((mx.Y-mn.Y)*ppm))
	if wpx <= 0 || hpx <= 0 || wpx*hpx > 1<<24 {
		return nil, fmt.Errorf("picture of %dx%d px", wpx, hpx)
	}
	var discs []disc
	for _, b := range w.Bodies {
		if len(b.Collisions) > 0 {
			continue
		}
		for _, v := range b.Visuals {
			if v.Geometry.Kind == sdf.Cylinder {
				p := b.Pose.Mul(v.Pose).Translation
				discs = append(discs, disc{p.X, p.Y, v.Geometry.Radius, v.Material.Diffuse})
			}
		}
	}
	sun := r3.Unit(r3.Vec{X: 0.4, Y: -0.3, Z: 1}) // towards the sun
	for _, l := range w.Lights {
		if l.Kind == sdf.Directional {
			sun = r3.Scale(-1, l.Direction)
		}
	}
	top := math.Min(mx.Z+1, cut)
	img := image.NewRGBA(image.Rect(0, 0, wpx, hpx))
	for py := range hpx {
		for px := range wpx {
			x := mn.X + (float64(px)+0.5)/ppm
			y := mx.Y - (float64(py)+0.5)/ppm
			// A solid cut by the plan: a ray up from the cut leaves it
			// through a face whose outward normal points up the ray.
			if u, in := s.Cast(r3.Vec{X: x, Y: y, Z: top}, r3.Vec{Z: 1}, 1000); in && u.Normal.Z > 0 {
				c := bodyColor(w, u)
				img.Set(px, py, color.RGBA{byte8(0.05 + 0.15*c.R), byte8(0.05 + 0.15*c.G), byte8(0.05 + 0.15*c.B), 255})
				continue
			}
			h, ok := s.Cast(r3.Vec{X: x, Y: y, Z: top}, r3.Vec{Z: -1}, top-mn.Z+100)
			if !ok {
				img.Set(px, py, color.RGBA{255, 255, 255, 255})
				continue
			}
			c := bodyColor(w, h)
			ground := h.Point.Z < 1e-6
			if ground {
				for _, d := range discs {
					if (x-d.x)*(x-d.x)+(y-d.y)*(y-d.y) <= d.r*d.r {
						c = d.c
					}
				}
				// A 1 m grid: darken within half a pixel of a whole metre.
				if fx, fy := math.Abs(x-math.Round(x)), math.Abs(y-math.Round(y)); fx < 0.5/ppm || fy < 0.5/ppm {
					c = sdf.Color{R: c.R * 0.8, G: c.G * 0.8, B: c.B * 0.8, A: 1}
				}
			}
			// Lambert from the sun plus ambient, and lighter with height.
			k := 0.55 + 0.45*math.Max(0, r3.Dot(h.Normal, sun))
			k *= 0.85 + 0.25*math.Min(h.Point.Z, 1)
			img.Set(px, py, color.RGBA{byte8(c.R * k), byte8(c.G * k), byte8(c.B * k), 255})
		}
	}
	return img, nil
}

// bodyColor is the diffuse colour of the visual named like the hit
// collision, else of the body's first visual, else grey.
func bodyColor(w *sdf.World, h raycast.Hit) sdf.Color {
	b := &w.Bodies[h.Body]
	name := b.Collisions[h.Shape].Name
	for _, v := range b.Visuals {
		if v.Name == name {
			return v.Material.Diffuse
		}
	}
	if len(b.Visuals) > 0 {
		return b.Visuals[0].Material.Diffuse
	}
	return sdf.DefaultMaterial.Diffuse
}

func byte8(v float64) uint8 { return uint8(math.Round(255 * math.Min(1, math.Max(0, v)))) }
