// Command corpusmin minimises the fuzz corpora of the module: for every
// fuzz target of the named packages it keeps only the files under
// testdata/fuzz/<Target>/ that add statement coverage to what the seeds
// added in code (f.Add) and the other kept files already cover.
//
//	go run ./internal/tools/corpusmin ./...          # minimise every corpus
//	go run ./internal/tools/corpusmin -n ./pkg/jog   # only report
//
// For each package it builds the test binary once with coverage of every
// package of the module (-coverpkg), runs each corpus file alone as its
// fuzz target's sub-test, and picks the files by greedy set cover
// (cover.go). After deleting the others it runs the whole remaining corpus
// once and restores the deleted files if the covered set shrank (a
// target whose coverage depends on more than its input). It prints, per
// target, the file counts before and after.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

func main() {
	dry := flag.Bool("n", false, "report what would be kept; delete nothing")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	if err := run(patterns, *dry); err != nil {
		fmt.Fprintln(os.Stderr, "corpusmin:", err)
		os.Exit(1)
	}
}

func run(patterns []string, dry bool) error {
	mod, err := goOut("", "list", "-m")
	if err != nil {
		return err
	}
	list, err := goOut("", append([]string{"list", "-f", "{{.ImportPath}} {{.Dir}}"}, patterns...)...)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "corpusmin")
	if err != nil {
		return fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, line := range strings.Split(list, "\n") {
		path, dir, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "testdata", "fuzz")); err != nil {
			continue
		}
		if err := minimisePackage(mod, path, dir, tmp, dry); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

// minimisePackage builds the package's test binary with coverage and
// minimises the corpus of each of its fuzz targets.
func minimisePackage(mod, path, dir, tmp string, dry bool) error {
	out, err := goOut("", "test", "-list", "^Fuzz", path)
	if err != nil {
		return err
	}
	var targets []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Fuzz") {
			targets = append(targets, l)
		}
	}
	if len(targets) == 0 {
		return nil
	}
	bin := filepath.Join(tmp, strings.ReplaceAll(path, "/", "_")+".test")
	if _, err := goOut("", "test", "-c", "-cover", "-covermode=set", "-coverpkg="+mod+"/...", "-o", bin, path); err != nil {
		return err
	}
	for _, target := range targets {
		if err := minimiseTarget(bin, dir, target, tmp, dry); err != nil {
			return fmt.Errorf("%s: %w", target, err)
		}
	}
	return nil
}

// minimiseTarget minimises testdata/fuzz/<target>/ in dir.
func minimiseTarget(bin, dir, target, tmp string, dry bool) error {
	cdir := filepath.Join(dir, "testdata", "fuzz", target)
	entries, err := os.ReadDir(cdir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return fmt.Errorf("read corpus: %w", err)
	}
	runOne := func(sub string) (blocks, error) {
		return cover(bin, dir, "^"+target+"$"+sub, filepath.Join(tmp, "cover.out"))
	}
	base, err := runOne("/^seed#")
	if err != nil {
		return err
	}
	full, err := runOne("")
	if err != nil {
		return err
	}
	var inputs []input
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return fmt.Errorf("stat corpus file: %w", err)
		}
		b, err := runOne("/^" + regexp.QuoteMeta(e.Name()) + "$")
		if err != nil {
			return err
		}
		inputs = append(inputs, input{name: e.Name(), size: info.Size(), covers: b})
	}
	kept := choose(base, inputs)
	fmt.Printf("%s %s: %d -> %d files\n", dir, target, len(inputs), len(kept))
	if dry {
		return nil
	}
	keep := map[string]bool{}
	for _, k := range kept {
		keep[k] = true
	}
	removed := map[string][]byte{}
	for _, in := range inputs {
		if keep[in.name] {
			continue
		}
		p := filepath.Join(cdir, in.name)
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("read corpus file: %w", err)
		}
		removed[p] = data
		if err := os.Remove(p); err != nil {
			return fmt.Errorf("remove corpus file: %w", err)
		}
	}
	after, err := runOne("")
	if err != nil {
		return err
	}
	if lost := missing(full, after); len(lost) > 0 {
		for p, data := range removed {
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return fmt.Errorf("restore corpus file: %w", err)
			}
		}
		return fmt.Errorf("coverage shrank by %d blocks (e.g. %s) after minimising: files restored", len(lost), lost[0])
	}
	return nil
}

// missing lists the blocks of want that got lacks.
func missing(want, got blocks) []string {
	var out []string
	for b := range want {
		if !got[b] {
			out = append(out, b)
		}
	}
	return out
}

// cover runs the test binary in dir on the tests that match run and
// returns the blocks they cover.
func cover(bin, dir, run, profile string) (blocks, error) {
	cmd := exec.Command(bin, "-test.run", run, "-test.count=1", "-test.coverprofile", profile)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("run %s -test.run %s: %w\n%s", filepath.Base(bin), run, err, out.String())
	}
	f, err := os.Open(profile)
	if err != nil {
		return nil, fmt.Errorf("open profile: %w", err)
	}
	defer f.Close()
	return parseProfile(f)
}

// goOut runs the go command and returns its trimmed standard output.
func goOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(stdout.String()), nil
}
