package console

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// TestVendoredFiles checks the embedded three.js and urdf-loader
// (assets/vendor, VENDOR.md) against the SHA-256 sums recorded when they
// were taken from the npm tarballs (scripts/vendor-three.sh check
// compares those with the published files), that every file there is
// listed, and that no module of the page imports a bare specifier (the
// browser would need an import map or a bundler).
func TestVendoredFiles(t *testing.T) {
	sums, err := fs.ReadFile(assets, "assets/vendor/SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{"SHA256SUMS": true}
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			t.Fatalf("SHA256SUMS line %q", sc.Text())
		}
		b, err := fs.ReadFile(assets, "assets/vendor/"+f[1])
		if err != nil {
			t.Fatal(err)
		}
		if h := sha256.Sum256(b); hex.EncodeToString(h[:]) != f[0] {
			t.Errorf("%s: SHA-256 %x, recorded %s: changed since vendored (scripts/vendor-three.sh)", f[1], h, f[0])
		}
		listed[f[1]] = true
	}
	entries, err := fs.ReadDir(assets, "assets/vendor")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !listed[e.Name()] {
			t.Errorf("assets/vendor/%s is not in SHA256SUMS", e.Name())
		}
	}
	for _, want := range []string{"three.module.js", "three.core.js", "OrbitControls.js", "URDFLoader.js", "URDFClasses.js", "LICENSE-three", "LICENSE-urdf-loader", "VENDOR.md"} {
		if !listed[want] {
			t.Errorf("%s not vendored", want)
		}
	}
	// Import and export statements (not comments) must name relative
	// paths.
	stmt := regexp.MustCompile(`(?m)^(?:import|export|\}).*\bfrom\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]`)
	err = fs.WalkDir(assets, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		b, err := fs.ReadFile(assets, p)
		if err != nil {
			return err
		}
		for _, m := range stmt.FindAllSubmatch(b, -1) {
			spec := string(m[1]) + string(m[2])
			if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
				t.Errorf("%s imports %q: a bare specifier the browser cannot resolve", p, spec)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
