package sdf

import (
	"strings"

	"github.com/telebridge/telebridge/pkg/geom"
)

// frame is a named pose waiting to be composed into the world frame.
type frame struct {
	name  string
	at    *node          // the element whose pose this is, for errors
	local geom.Transform // pose relative to the parent frame
	rel   string         // relative_to as written; "" for the default
	def   *frame         // the default parent; nil means the world
	sc    *scope         // where rel is looked up
	world geom.Transform
	state int // 0 new, 1 resolving, 2 done
}

// scope is the name space of the world or of one model.
type scope struct {
	parent *scope
	prefix string // "" for the world, "outer::inner::" inside models
	model  *frame // __model__; nil for the world
	frames map[string]*frame
	models map[string]*scope
	static bool
	index  int // World.Models index; -1 for the world
}

func newScope(parent *scope, prefix string, model *frame) *scope {
	return &scope{parent: parent, prefix: prefix, model: model, frames: map[string]*frame{}, models: map[string]*scope{}, index: -1}
}

// worldFrame is the root of every pose.
var worldFrame = &frame{name: "world", world: geom.Identity(), state: 2}

// lookup finds a frame by a name written in scope sc.
func (sc *scope) lookup(name string) *frame {
	switch name {
	case "__model__":
		if sc.model == nil {
			return worldFrame
		}
		return sc.model
	case "world":
		return worldFrame
	}
	if first, rest, ok := strings.Cut(name, "::"); ok {
		if sub := sc.models[first]; sub != nil {
			return sub.lookup(rest)
		}
		return nil
	}
	if f := sc.frames[name]; f != nil {
		return f
	}
	return nil
}

// maxChain bounds a chain of frames each relative to the next, so a
// hostile file cannot recurse deeply.
const maxChain = 1000

// resolve composes f into the world frame.
func (f *frame) resolve() error { return f.resolveDepth(0) }

func (f *frame) resolveDepth(depth int) error {
	if depth > maxChain {
		return f.at.errorf("a chain of more than %d frames each relative to the next", maxChain)
	}
	switch f.state {
	case 2:
		return nil
	case 1:
		return f.at.errorf("relative_to makes a cycle through frame %q", f.name)
	}
	f.state = 1
	parent := f.def
	if f.rel != "" {
		parent = f.sc.lookup(f.rel)
		if parent == nil {
			return f.at.errorf("relative_to %q names no frame, link, joint or model in scope", f.rel)
		}
		if parent == f {
			return f.at.errorf("relative_to %q names the frame itself", f.rel)
		}
	}
	if parent == nil {
		parent = worldFrame
	}
	if err := parent.resolveDepth(depth + 1); err != nil {
		return err
	}
	f.world = parent.world.Mul(f.local)
	f.state = 2
	return nil
}
