package console

import (
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strings"
	"testing"
)

// importRe finds a module's static imports (import ... from '...';
// import '...') and dynamic ones (import('...')).
var importRe = regexp.MustCompile(`(?m)(?:^\s*import\s[^;]*?from\s*|^\s*import\s*|\bimport\()\s*['"]([^'"]+)['"]`)

// TestModules: every JavaScript module of the page is served as
// JavaScript (a module with another MIME type does not run), under a
// Content-Security-Policy that lets the page load scripts from itself
// only; every import names a relative path of an embedded file (no bare
// specifier, no CDN), so the page loads without a build step or the
// internet.
func TestModules(t *testing.T) {
	_, _, ts := newTestServer(t, "")
	var mods []string
	err := fs.WalkDir(assets, "assets", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".js") {
			mods = append(mods, strings.TrimPrefix(p, "assets/"))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) < 10 {
		t.Fatalf("only %d modules embedded: %v", len(mods), mods)
	}
	for _, m := range mods {
		resp, err := http.Get(ts.URL + "/" + m)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", m, resp.StatusCode)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
			t.Fatalf("%s served as %q, want text/javascript", m, ct)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || strings.Contains(csp, "script-src") {
			t.Fatalf("%s: Content-Security-Policy %q: scripts must come from the page's own origin only", m, csp)
		}
		for _, im := range importRe.FindAllStringSubmatch(string(body), -1) {
			spec := im[1]
			if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
				t.Fatalf("%s imports %q: not a relative path of the embedded assets", m, spec)
			}
			target := path.Join("assets", path.Dir(m), spec)
			if _, err := fs.Stat(assets, target); err != nil {
				t.Fatalf("%s imports %q: %v", m, spec, err)
			}
		}
	}
	page, err := fs.ReadFile(assets, "assets/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `<script type="module" src="app.js">`) {
		t.Fatal("index.html does not load app.js as a module")
	}
}
