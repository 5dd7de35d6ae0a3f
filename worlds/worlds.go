// Package worlds holds the training worlds shipped with telebridge, as SDF
// files embedded in the binary: "course" (the Servosila Engineer's
// training course) and "yard" (the Furbot's yard), with the model folders
// they include (models/) and their meshes. docs/world.md describes them.
//
// Load takes a shipped world's name or a path to any SDF file; either way
// the shipped models resolve as model://name after the caller's model
// path. The package holds no state; every function is safe for concurrent
// use.
package worlds

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/telebridge/telebridge/pkg/sdf"
)

//go:embed *.sdf models meshes
var files embed.FS

// FS returns the shipped files: name.sdf at the root, models/, meshes/.
func FS() fs.FS { return files }

// Models returns the folder of the shipped model folders, for
// sdf.Options.ModelPath.
func Models() sdf.Folder {
	sub, err := fs.Sub(files, "models")
	if err != nil { // cannot happen: the folder is embedded
		return sdf.Folder{Name: "worlds/models", FS: files}
	}
	return sdf.Folder{Name: "worlds/models", FS: sub}
}

// Names returns the names of the shipped worlds, sorted.
func Names() []string {
	var out []string
	ents, _ := fs.ReadDir(files, ".")
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".sdf"); ok && !e.IsDir() {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// ErrUnknown is wrapped by Load for a name that is neither a shipped world
// nor an SDF file on disk.
var ErrUnknown = errors.New("worlds: no such world")

// Load loads a shipped world by name ("course", "yard") or, when
// nameOrPath is not one, the SDF file at that path. model:// URIs resolve
// in the folders of GAZEBO_MODEL_PATH (and its successors, see
// sdf.EnvModelPath), then in the shipped models.
func Load(nameOrPath string) (*sdf.World, error) {
	return LoadWith(nameOrPath, sdf.Options{ModelPath: sdf.EnvModelPath()})
}

// LoadWith is Load with the caller's options; the shipped models folder is
// appended to opt.ModelPath.
func LoadWith(nameOrPath string, opt sdf.Options) (*sdf.World, error) {
	opt.ModelPath = append(append([]sdf.Folder(nil), opt.ModelPath...), Models())
	for _, n := range Names() {
		if n == nameOrPath {
			w, err := sdf.Load(files, n+".sdf", opt)
			if err != nil {
				return nil, fmt.Errorf("worlds: shipped world %q: %w", n, err)
			}
			return w, nil
		}
	}
	if _, err := os.Stat(nameOrPath); err != nil {
		return nil, fmt.Errorf("%w: %q is not a shipped world (%s) and not a file: %v", ErrUnknown, nameOrPath, strings.Join(Names(), ", "), err)
	}
	return sdf.LoadFile(nameOrPath, opt)
}
