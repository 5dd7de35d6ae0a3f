package static_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/telebridge/telebridge/pkg/console/static"
)

// page is a small site: text that compresses well, bytes that do not.
func page() fstest.MapFS {
	noise := make([]byte, 4096)
	x := uint32(12345)
	for i := range noise {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		noise[i] = byte(x)
	}
	return fstest.MapFS{
		"index.html":    {Data: []byte("<!doctype html><title>t</title>" + strings.Repeat("<p>drive</p>", 200))},
		"js/app.js":     {Data: []byte(strings.Repeat("export const speed = 0.3;\n", 300))},
		"js/index.html": {Data: []byte("<p>sub</p>")},
		"img/noise.bin": {Data: noise},
	}
}

func newHandler(t *testing.T) *static.Handler {
	t.Helper()
	h, err := static.New(page())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func get(h http.Handler, method, target string, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Add(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gzip body: %v", err)
	}
	return out
}

func TestServesEveryFileAsStored(t *testing.T) {
	h := newHandler(t)
	fsys := page()
	for _, tc := range []struct {
		target, file, ctype string
		gzip                bool // compressed when asked for
	}{
		{"/", "index.html", "text/html; charset=utf-8", true},
		{"/index.html", "index.html", "text/html; charset=utf-8", true},
		{"/js/app.js", "js/app.js", "javascript", true},
		{"/js/", "js/index.html", "text/html; charset=utf-8", false}, // too small to gain
		{"/img/noise.bin", "img/noise.bin", "application/octet-stream", false},
	} {
		want := fsys[tc.file].Data
		for _, ae := range []string{"", "gzip, deflate, br"} {
			w := get(h, http.MethodGet, tc.target, "Accept-Encoding", ae)
			if w.Code != http.StatusOK {
				t.Fatalf("%s (Accept-Encoding %q): status %d", tc.target, ae, w.Code)
			}
			body, enc := w.Body.Bytes(), w.Header().Get("Content-Encoding")
			if zipped := ae != "" && tc.gzip; zipped != (enc == "gzip") {
				t.Errorf("%s (Accept-Encoding %q): Content-Encoding %q", tc.target, ae, enc)
			}
			if enc == "gzip" {
				if len(body) >= len(want) {
					t.Errorf("%s: gzip body %d bytes, plain %d", tc.target, len(body), len(want))
				}
				body = gunzip(t, body)
			}
			if !bytes.Equal(body, want) {
				t.Errorf("%s (Accept-Encoding %q): body differs from the file", tc.target, ae)
			}
			if ct := w.Header().Get("Content-Type"); !strings.Contains(ct, tc.ctype) {
				t.Errorf("%s: Content-Type %q, want %q", tc.target, ct, tc.ctype)
			}
			if got, want := w.Header().Get("Vary") == "Accept-Encoding", tc.gzip; got != want {
				t.Errorf("%s: Vary %q", tc.target, w.Header().Get("Vary"))
			}
			if w.Header().Get("Content-Length") != "" && w.Header().Get("Content-Length") != strconv.Itoa(w.Body.Len()) {
				t.Errorf("%s: Content-Length %s for %d bytes", tc.target, w.Header().Get("Content-Length"), w.Body.Len())
			}
		}
	}
}

func TestRevalidationCostsNoBody(t *testing.T) {
	h := newHandler(t)
	for _, ae := range []string{"", "gzip"} {
		first := get(h, http.MethodGet, "/js/app.js", "Accept-Encoding", ae)
		tag := first.Header().Get("ETag")
		if len(tag) < 10 || tag[0] != '"' {
			t.Fatalf("Accept-Encoding %q: ETag %q", ae, tag)
		}
		if cc := first.Header().Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("Cache-Control %q", cc)
		}
		for _, inm := range []string{tag, "W/" + tag, `"other", ` + tag, "*"} {
			w := get(h, http.MethodGet, "/js/app.js", "Accept-Encoding", ae, "If-None-Match", inm)
			if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
				t.Errorf("If-None-Match %s: status %d, %d bytes", inm, w.Code, w.Body.Len())
			}
		}
		if w := get(h, http.MethodGet, "/js/app.js", "Accept-Encoding", ae, "If-None-Match", `"stale"`); w.Code != http.StatusOK {
			t.Errorf("stale tag: status %d", w.Code)
		}
	}
	// The two representations are different entities.
	plain := get(h, http.MethodGet, "/js/app.js").Header().Get("ETag")
	zipped := get(h, http.MethodGet, "/js/app.js", "Accept-Encoding", "gzip").Header().Get("ETag")
	if plain == zipped {
		t.Errorf("plain and gzip share the ETag %s", plain)
	}
	if w := get(h, http.MethodGet, "/js/app.js", "If-None-Match", zipped); w.Code != http.StatusOK {
		t.Errorf("the gzip tag revalidated the plain body: status %d", w.Code)
	}
}

func TestRefusesWhatIsNotAFile(t *testing.T) {
	h := newHandler(t)
	for _, tc := range []struct {
		method, target string
		code           int
	}{
		{http.MethodGet, "/img/", http.StatusNotFound}, // no listing
		{http.MethodGet, "/img", http.StatusNotFound},
		{http.MethodGet, "/missing.js", http.StatusNotFound},
		{http.MethodGet, "/../index.html", http.StatusNotFound},
		{http.MethodPost, "/", http.StatusMethodNotAllowed},
		{http.MethodHead, "/js/app.js", http.StatusOK},
	} {
		w := get(h, tc.method, tc.target)
		if w.Code != tc.code {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.target, w.Code, tc.code)
		}
		if tc.method == http.MethodHead && w.Body.Len() != 0 {
			t.Errorf("HEAD sent %d bytes", w.Body.Len())
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"gzip"}, true},
		{[]string{"GZIP"}, true},
		{[]string{"x-gzip"}, true},
		{[]string{"deflate, br"}, false},
		{[]string{"br", "gzip;q=0.5"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000"}, false},
		{[]string{"gzip;q=nonsense"}, false},
		{[]string{"gzip;q=2"}, false},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"gzip;q=0, *"}, false},
		{[]string{"identity"}, false},
	} {
		if got := static.AcceptsGzip(tc.values); got != tc.want {
			t.Errorf("AcceptsGzip(%q) = %v, want %v", tc.values, got, tc.want)
		}
	}
}

func BenchmarkServe(b *testing.B) {
	h, err := static.New(page())
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/js/app.js", nil)
	r.Header.Set("Accept-Encoding", "gzip, deflate, br")
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		w.Body.Reset()
		h.ServeHTTP(w, r)
	}
}
