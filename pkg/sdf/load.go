package sdf

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/telebridge/telebridge/pkg/mesh"
	"gonum.org/v1/gonum/spatial/r3"
)

// Folder is one folder of model folders searched for model://name.
type Folder struct {
	// Name is how messages name the folder (its path on disk, or
	// "worlds/models" for the shipped ones).
	Name string
	// FS holds the model folders at its root: FS/name/model.config.
	FS fs.FS
}

// Options tune a load. The zero value is usable: no model search path,
// default limits.
type Options struct {
	// ModelPath is searched in order for model://name URIs (includes and
	// meshes). See EnvModelPath for Gazebo's environment variables.
	ModelPath []Folder
	// MaxFileBytes is the largest SDF or model.config file read [bytes];
	// default 16 MiB.
	MaxFileBytes int64
	// MaxIncludeDepth bounds nested <include>s; default 16.
	MaxIncludeDepth int
	// Mesh bounds every mesh file read (see mesh.Limits).
	Mesh mesh.Limits
}

// Defaults of Options.
const (
	DefaultMaxFileBytes    = 16 << 20
	DefaultMaxIncludeDepth = 16
	maxDepth               = 200 // nested XML elements
	maxNodes               = 1e6 // XML elements in one file
	maxShapes              = 1e5 // collisions and visuals in a world
)

// EnvModelPath returns the folders named by the environment variables
// Gazebo and its successors search for models, in this order:
// GAZEBO_MODEL_PATH, GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH,
// SDF_PATH (each a colon-separated list; empty entries skipped).
func EnvModelPath() []Folder {
	var out []Folder
	for _, v := range []string{"GAZEBO_MODEL_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH", "SDF_PATH"} {
		for _, d := range filepath.SplitList(os.Getenv(v)) {
			if d != "" {
				out = append(out, Folder{Name: d, FS: os.DirFS(d)})
			}
		}
	}
	return out
}

// source is one file being read, to resolve relative paths against.
type source struct {
	fsys fs.FS
	dir  string // slash path of the file's folder in fsys
	name string // for messages
	id   string // unique name of the folder, for caching meshes
}

// LoadFile loads the world in the SDF file at path on disk; relative mesh
// and include paths resolve against its folder (and may climb out of it
// with "..").
func LoadFile(file string, opt Options) (*World, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("sdf: %w", err)
	}
	// Rooted at / so "../meshes/x.stl" from a world's folder works as it
	// does in Gazebo.
	dir, base := filepath.Split(filepath.ToSlash(abs))
	rel := strings.Trim(dir, "/")
	if rel == "" {
		rel = "."
	}
	return load(&source{fsys: os.DirFS("/"), dir: rel, name: file, id: "abs:" + rel}, base, opt)
}

// Load loads the world in the SDF file name (a slash path) of fsys;
// relative mesh and include paths resolve against its folder in fsys.
func Load(fsys fs.FS, name string, opt Options) (*World, error) {
	return load(&source{fsys: fsys, dir: path.Dir(name), name: name, id: "fs:" + path.Dir(name)}, path.Base(name), opt)
}

// Parse loads a world from the bytes of an SDF file. file names it in
// messages. With no folder to resolve them against, relative mesh paths
// and includes are errors; model:// URIs still resolve in opt.ModelPath.
func Parse(data []byte, file string, opt Options) (*World, error) {
	l := newLoader(opt)
	root, err := parseXML(file, data, maxDepth, maxNodes)
	if err != nil {
		return nil, err
	}
	return l.world(root, &source{name: file, id: "bytes:" + file})
}

func load(src *source, base string, opt Options) (*World, error) {
	l := newLoader(opt)
	data, err := l.read(src, base)
	if err != nil {
		return nil, err
	}
	root, err := parseXML(src.name, data, maxDepth, maxNodes)
	if err != nil {
		return nil, err
	}
	return l.world(root, src)
}

type loader struct {
	opt    Options
	w      *World
	finish []func() error
	roots  []*node
	meshes map[string]*mesh.Mesh
	depth  int
	shapes int
}

func newLoader(opt Options) *loader {
	if opt.MaxFileBytes <= 0 {
		opt.MaxFileBytes = DefaultMaxFileBytes
	}
	if opt.MaxIncludeDepth <= 0 {
		opt.MaxIncludeDepth = DefaultMaxIncludeDepth
	}
	return &loader{opt: opt, meshes: map[string]*mesh.Mesh{}}
}

// read returns the bytes of name in src's folder, within the size limit.
func (l *loader) read(src *source, name string) ([]byte, error) {
	if src.fsys == nil {
		return nil, fmt.Errorf("sdf: %s: %w: no folder to read %q from", src.name, ErrMalformed, name)
	}
	p := path.Join(src.dir, name)
	f, err := src.fsys.Open(p)
	if err != nil {
		return nil, fmt.Errorf("sdf: %s: %w", p, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, l.opt.MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("sdf: %s: %w", p, err)
	}
	if int64(len(data)) > l.opt.MaxFileBytes {
		return nil, fmt.Errorf("sdf: %s: %w: larger than %d bytes", p, ErrMalformed, l.opt.MaxFileBytes)
	}
	return data, nil
}

// resolveURI finds the folder and slash path a <uri> names, seen from src.
func (l *loader) resolveURI(n *node, uri string, src *source) (*source, string, error) {
	uri = strings.TrimSpace(uri)
	switch {
	case uri == "":
		return nil, "", n.errorf("empty uri")
	case strings.HasPrefix(uri, "model://"):
		rest := strings.TrimPrefix(uri, "model://")
		name, sub, _ := strings.Cut(rest, "/")
		if !fs.ValidPath(name) || name == "." {
			return nil, "", n.errorf("uri %q: bad model name", uri)
		}
		for i, f := range l.opt.ModelPath {
			if st, err := fs.Stat(f.FS, name); err == nil && st.IsDir() {
				s := &source{fsys: f.FS, dir: name, name: path.Join(f.Name, name), id: fmt.Sprintf("modelpath[%d]/%s", i, name)}
				return s, path.Clean(sub), nil
			}
		}
		var names []string
		for _, f := range l.opt.ModelPath {
			names = append(names, f.Name)
		}
		return nil, "", n.errorf("uri %q: no model folder %q in the model path [%s] (set GAZEBO_MODEL_PATH)", uri, name, strings.Join(names, ", "))
	case strings.HasPrefix(uri, "http://"), strings.HasPrefix(uri, "https://"):
		return nil, "", n.errorf("uri %q: remote models (Gazebo Fuel) are not fetched; download the model and add its folder to GAZEBO_MODEL_PATH", uri)
	case strings.HasPrefix(uri, "file://"), strings.HasPrefix(uri, "/"):
		p := strings.TrimPrefix(uri, "file://")
		if !strings.HasPrefix(p, "/") {
			return nil, "", n.errorf("uri %q: file:// needs an absolute path", uri)
		}
		p = path.Clean(p)
		return &source{fsys: os.DirFS("/"), dir: path.Dir(p)[1:], name: path.Dir(p), id: "abs:" + path.Dir(p)}, path.Base(p), nil
	case strings.Contains(uri, "://"):
		return nil, "", n.errorf("uri %q: unsupported scheme (model://, file:// or a relative path)", uri)
	}
	if src.fsys == nil {
		return nil, "", n.errorf("uri %q: a relative path needs the world loaded from a folder (Load or LoadFile)", uri)
	}
	p := path.Join(src.dir, uri)
	if !fs.ValidPath(p) {
		return nil, "", n.errorf("uri %q leaves the folder of %s", uri, src.name)
	}
	return &source{fsys: src.fsys, dir: path.Dir(p), name: path.Join(path.Dir(src.name), path.Dir(uri)), id: src.id + "/" + path.Dir(uri)}, path.Base(p), nil
}

// loadMesh reads and scales the mesh a <mesh> names; one copy per file and
// scale.
func (l *loader) loadMesh(n *node, uri string, scale r3.Vec, src *source) (*mesh.Mesh, error) {
	ms, name, err := l.resolveURI(n, uri, src)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s|%s|%v", ms.id, name, scale)
	if m := l.meshes[key]; m != nil {
		return m, nil
	}
	lim := l.opt.Mesh
	f, err := ms.fsys.Open(path.Join(ms.dir, name))
	if err != nil {
		return nil, n.errorf("mesh %q: %v", uri, err)
	}
	defer f.Close()
	maxb := lim.MaxBytes
	if maxb <= 0 {
		maxb = mesh.DefaultMaxBytes
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(maxb)+1))
	if err != nil {
		return nil, n.errorf("mesh %q: %v", uri, err)
	}
	m, err := mesh.Decode(path.Join(ms.name, name), data, lim)
	if err != nil {
		return nil, n.errorf("mesh %q: %v", uri, err)
	}
	if len(m.Triangles) == 0 {
		return nil, n.errorf("mesh %q has no triangles", uri)
	}
	if scale != (r3.Vec{X: 1, Y: 1, Z: 1}) {
		m = m.Scaled(scale)
	}
	l.meshes[key] = m
	return m, nil
}

// modelFile finds the SDF file of a model folder: the first <sdf> of its
// model.config, or model.sdf without one.
func (l *loader) modelFile(n *node, ms *source) (string, error) {
	data, err := l.read(ms, "model.config")
	if err != nil {
		if _, serr := fs.Stat(ms.fsys, path.Join(ms.dir, "model.sdf")); serr == nil {
			return "model.sdf", nil
		}
		return "", n.errorf("model folder %s: no model.config and no model.sdf", ms.name)
	}
	root, err := parseXML(path.Join(ms.name, "model.config"), data, maxDepth, maxNodes)
	if err != nil {
		return "", err
	}
	best, bestVer := "", -1.0
	for _, k := range root.kids {
		if k.name != "sdf" || k.text == "" {
			continue
		}
		var v float64
		fmt.Sscanf(k.attrs["version"], "%g", &v)
		if v > 1.11 { // newer than this reader knows
			continue
		}
		if v > bestVer {
			best, bestVer = k.text, v
		}
	}
	if best == "" {
		best = "model.sdf"
	}
	if !fs.ValidPath(path.Join(ms.dir, best)) {
		return "", n.errorf("model.config of %s names %q outside its folder", ms.name, best)
	}
	return best, nil
}
