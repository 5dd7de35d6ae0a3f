package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// verifyStubs compares every stub definition with the installed one under
// prefix/share (e.g. /opt/ros/humble/share): each stub line must exist in
// the real definition, and every field of the real definition (constants
// aside) must be in the stub, so the type-check sees the real field set.
func verifyStubs(stubRoot, prefix string) (int, error) {
	n := 0
	var problems []string
	err := filepath.WalkDir(filepath.Join(stubRoot, "share"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(stubRoot, p)
		stub, err := readDefinition(p)
		if err != nil {
			return err
		}
		real, err := readDefinition(filepath.Join(prefix, rel))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: no installed definition: %v", rel, err))
			return nil
		}
		n++
		have := map[string]bool{}
		for _, l := range real {
			have[l] = true
		}
		inStub := map[string]bool{}
		for _, l := range stub {
			inStub[l] = true
			if !have[l] {
				problems = append(problems, fmt.Sprintf("%s: stub line %q is not in the installed definition", rel, l))
			}
		}
		for _, l := range real {
			if !inStub[l] && !isConstant(l) {
				problems = append(problems, fmt.Sprintf("%s: installed field %q is missing from the stub", rel, l))
			}
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	if len(problems) > 0 {
		return n, fmt.Errorf("stubs differ from %s:\n%s", prefix, strings.Join(problems, "\n"))
	}
	return n, nil
}

// readDefinition returns the lines of a .msg/.srv file without comments and
// blank lines, with white space and package qualifiers normalised
// ("std_msgs/Header" and "Header" read alike), so that formatting does not
// count as a difference.
func readDefinition(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		fields := strings.Fields(strings.ReplaceAll(l, "=", " = "))
		if len(fields) == 0 {
			continue
		}
		if fields[0] != "---" {
			if i := strings.LastIndex(fields[0], "/"); i >= 0 {
				fields[0] = fields[0][i+1:]
			}
		}
		lines = append(lines, strings.Join(fields, " "))
	}
	return lines, nil
}

func isConstant(line string) bool { return strings.Contains(line, " = ") }
