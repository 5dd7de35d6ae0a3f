// Command doccheck reports every exported name without a doc comment in
// the named packages (go list patterns, default ./...): functions, methods
// of exported types, types, constants, variables, the methods of exported
// interfaces and the exported fields of exported structs; and packages
// without a package comment. A member is documented by its own comment
// (above it or at the end of its line), or by a comment that names it:
// its type's, or that of an earlier member in its run of lines ("A and B
// are ..." above A documents B below). Test files and generated files (// Code generated ... DO NOT
// EDIT.) are left out; so are packages under a -skip prefix.
//
//	go run ./internal/tools/doccheck ./...
//	go run ./internal/tools/doccheck -skip ./pkg/console ./...
//
// It exits 1 if it reports anything. scripts/check.sh runs it after
// staticcheck. It checks that a comment is there, not what it says (units
// and frames are the reviewer's).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	skip := flag.String("skip", "", "comma-separated package directories (./pkg/x) whose packages are not checked, with their sub-packages")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	n, err := run(patterns, strings.Split(*skip, ","), os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "doccheck:", err)
		os.Exit(2)
	}
	if n > 0 {
		fmt.Fprintf(os.Stderr, "doccheck: %d undocumented exported names\n", n)
		os.Exit(1)
	}
}

// run checks the packages the patterns name and writes one line per
// finding; it returns how many it wrote.
func run(patterns, skip []string, w *os.File) (int, error) {
	root, err := os.Getwd()
	if err != nil {
		return 0, fmt.Errorf("working directory: %w", err)
	}
	var skipDirs []string
	for _, s := range skip {
		if s = strings.TrimSpace(s); s != "" {
			abs, err := filepath.Abs(s)
			if err != nil {
				return 0, fmt.Errorf("skip %s: %w", s, err)
			}
			skipDirs = append(skipDirs, abs)
		}
	}
	args := append([]string{"list", "-f", "{{.Dir}}\t{{join .GoFiles \" \"}} {{join .CgoFiles \" \"}}"}, patterns...)
	cmd := exec.Command("go", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("go list: %w\n%s", err, stderr.String())
	}
	count := 0
	fset := token.NewFileSet()
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		dir, names, _ := strings.Cut(line, "\t")
		if dir == "" || skipped(dir, skipDirs) {
			continue
		}
		var paths []string
		for _, n := range strings.Fields(names) {
			paths = append(paths, filepath.Join(dir, n))
		}
		if len(paths) == 0 {
			continue
		}
		found, pkgDoc, err := checkFiles(fset, paths)
		if err != nil {
			return count, fmt.Errorf("%s: %w", dir, err)
		}
		if !pkgDoc {
			fmt.Fprintf(w, "%s: package has no package comment\n", relative(root, dir))
			count++
		}
		for _, f := range found {
			f.pos.Filename = relative(root, f.pos.Filename)
			fmt.Fprintln(w, f)
			count++
		}
	}
	return count, nil
}

// skipped reports whether dir is one of skip or below one.
func skipped(dir string, skip []string) bool {
	for _, s := range skip {
		if dir == s || strings.HasPrefix(dir, s+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
