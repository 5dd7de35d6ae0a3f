// Command ros2typecheck type-checks the ROS 2 layer (the packages built
// with the `ros2` tag) on a machine without ROS 2.
//
// The ROS 2 layer is cgo code: rclgo and the message bindings that
// rclgo-gen generates include ROS 2's C headers, which only exist where ROS 2
// is installed. This command checks everything else about it: it copies the
// module to a temporary directory, generates the message bindings there with
// the rclgo-gen pinned in go.mod from interface definitions (the project's
// own interfaces/ and the standard ones in stubs/), then type-checks every
// package under the given patterns from source with go/types, treating
// `import "C"` as an opaque package (FakeImportC). Any type error fails the
// check: a wrong field name, a wrong rclgo call, a core API that changed.
//
// Usage (from the module root):
//
//	go run ./internal/tools/ros2typecheck [-v] [patterns...]   (default ./...)
//	go run ./internal/tools/ros2typecheck -verify-stubs /opt/ros/humble
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// modulePath is the import path of this module; generated bindings live
// under modulePath + "/" + msgDir.
const (
	modulePath = "github.com/telebridge/telebridge"
	msgDir     = "internal/rosmsg"
	ifacePkg   = "telebridge_interfaces"
)

func main() {
	verbose := flag.Bool("v", false, "print every package checked")
	keep := flag.Bool("keep", false, "keep the temporary copy and print its path")
	verify := flag.String("verify-stubs", "", "instead of type-checking, compare the stub definitions with those installed under this prefix (e.g. /opt/ros/humble)")
	flag.Parse()
	if *verify != "" {
		n, err := verifyStubs(filepath.Join("internal", "tools", "ros2typecheck", "stubs"), *verify)
		if err != nil {
			fmt.Fprintln(os.Stderr, "ros2typecheck:", err)
			os.Exit(1)
		}
		fmt.Printf("ros2typecheck: %d stub definitions match %s\n", n, *verify)
		return
	}
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	if err := run(patterns, *verbose, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "ros2typecheck:", err)
		os.Exit(1)
	}
}

func run(patterns []string, verbose, keep bool) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return fmt.Errorf("run from the module root: %w", err)
	}
	tmp, err := os.MkdirTemp("", "ros2typecheck-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("copy kept at", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	mod := filepath.Join(tmp, "src")
	if err := copyModule(root, mod); err != nil {
		return fmt.Errorf("copy module: %w", err)
	}
	if err := generate(mod, filepath.Join(tmp, "roots")); err != nil {
		return err
	}
	pkgs, err := list(mod, patterns)
	if err != nil {
		return err
	}
	return check(pkgs, verbose)
}

// copyModule copies the module's files (Go sources, go.mod, go.sum,
// interface definitions and the files that go:embed directives name),
// skipping VCS, build output and any bindings generated on this machine.
func copyModule(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			switch rel {
			case ".git", "build", "install", "log", msgDir:
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// generate stages the interface definitions as rclgo-gen expects them
// (<root>/share/<package>/{msg,srv}/) and runs rclgo-gen into mod/msgDir.
func generate(mod, roots string) error {
	stubs := filepath.Join(mod, "internal", "tools", "ros2typecheck", "stubs")
	own := filepath.Join(roots, "share", ifacePkg)
	for _, kind := range []string{"msg", "srv", "action"} {
		files, _ := filepath.Glob(filepath.Join(mod, "interfaces", kind, "*."+kind))
		for _, f := range files {
			if err := os.MkdirAll(filepath.Join(own, kind), 0o755); err != nil {
				return err
			}
			if err := copyFile(f, filepath.Join(own, kind, filepath.Base(f))); err != nil {
				return err
			}
		}
	}
	cmd := exec.Command("go", "tool", "rclgo-gen", "generate",
		"--root-path", stubs, "--root-path", roots,
		"--dest-path", filepath.Join(mod, msgDir),
		"--message-module-prefix", modulePath+"/"+msgDir,
		"--cgo-flags-path=")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "ROS_DISTRO=humble")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("rclgo-gen: %w\n%s", err, out.String())
	}
	// rclgo-gen reports bad definitions and goes on; make them fatal.
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "Error") || strings.HasPrefix(line, "Failed") {
			return fmt.Errorf("rclgo-gen: %s", line)
		}
	}
	return nil
}

// goPackage is the part of `go list -json` output used here.
type goPackage struct {
	ImportPath string
	Dir        string
	Standard   bool
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
	ImportMap  map[string]string
	DepOnly    bool
	Error      *struct{ Err string }
	DepsErrors []*struct{ Err string }
}

// list returns the packages matching patterns with the ros2 tag, and all
// their dependencies, dependencies first.
func list(mod string, patterns []string) ([]*goPackage, error) {
	args := append([]string{"list", "-e", "-json", "-deps", "-tags", "ros2"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w\n%s", err, stderr.String())
	}
	var pkgs []*goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(goPackage)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// check type-checks the non-standard packages in order; the standard
// library comes from the compiler's export data.
func check(pkgs []*goPackage, verbose bool) error {
	fset := token.NewFileSet()
	std := importer.ForCompiler(fset, "gc", nil).(types.ImporterFrom)
	done := map[string]*types.Package{}
	var failures []string
	nChecked, nTagged, nDepErrs := 0, 0, 0
	for _, p := range pkgs {
		if p.Standard {
			continue
		}
		files, tagged, err := parseFiles(fset, p)
		if err != nil {
			return err
		}
		imp := importerFunc(func(path string) (*types.Package, error) {
			if mapped, ok := p.ImportMap[path]; ok {
				path = mapped
			}
			if tp, ok := done[path]; ok {
				return tp, nil
			}
			return std.ImportFrom(path, p.Dir, 0)
		})
		var errs []string
		conf := types.Config{
			Importer:    imp,
			FakeImportC: true,
			Error:       func(err error) { errs = append(errs, err.Error()) },
		}
		tp, _ := conf.Check(p.ImportPath, fset, files, nil)
		done[p.ImportPath] = tp
		nChecked++
		if tagged {
			nTagged++
		}
		if verbose {
			fmt.Printf("%-70s %d files, %d errors\n", p.ImportPath, len(files), len(errs))
		}
		// FakeImportC leaves C types untyped, which shows up as errors in
		// cgo-heavy dependencies such as rclgo itself; only this module's
		// packages (the generated bindings included) must be clean.
		if p.ImportPath == modulePath || strings.HasPrefix(p.ImportPath, modulePath+"/") {
			failures = append(failures, errs...)
		} else {
			nDepErrs += len(errs)
		}
	}
	if len(failures) > 0 {
		sort.Strings(failures)
		return fmt.Errorf("%d type errors:\n%s", len(failures), strings.Join(failures, "\n"))
	}
	fmt.Printf("ros2typecheck: %d packages type-checked (%d with ros2-tagged files), no errors in %s (%d ignored in cgo dependencies)\n",
		nChecked, nTagged, modulePath, nDepErrs)
	return nil
}

// parseFiles parses the Go and cgo files of p, and reports whether any of
// them carries the ros2 build tag.
func parseFiles(fset *token.FileSet, p *goPackage) ([]*ast.File, bool, error) {
	var files []*ast.File
	tagged := false
	for _, name := range append(append([]string(nil), p.GoFiles...), p.CgoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, false, fmt.Errorf("parse: %w", err)
		}
		for _, cg := range f.Comments {
			if cg.Pos() >= f.Package {
				break
			}
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ros2") {
					tagged = true
				}
			}
		}
		files = append(files, f)
	}
	return files, tagged, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
