package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// minSaving is the least a compressed copy must save to be kept [0, 1]:
// below it the client's inflating is not worth the bytes.
const minSaving = 0.1

// file is one asset in memory, as sent.
type file struct {
	ctype    string
	plain    []byte
	packed   []byte // gzip; nil when it would not save minSaving
	etag     string // of plain, quoted
	etagGzip string // of packed, quoted
}

// Handler serves the files of an fs.FS from memory (GET and HEAD):
// gzip-compressed to clients that accept it, each with a strong ETag of
// its content, so that a page reloaded over a narrow link costs a few
// hundred bytes of 304 answers. "/" and "DIR/" serve index.html; there
// are no directory listings. Create it with New.
type Handler struct {
	files map[string]*file // by URL path, "/" for the root's index.html
}

// New reads every regular file of fsys into memory and compresses those
// that shrink by at least a tenth. The files must not change afterwards
// (an embed.FS).
func New(fsys fs.FS) (*Handler, error) {
	h := &Handler{files: map[string]*file{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		f, err := newFile(p, b)
		if err != nil {
			return err
		}
		u := "/" + p
		h.files[u] = f
		if path.Base(p) == "index.html" {
			h.files[strings.TrimSuffix(u, "index.html")] = f
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	return h, nil
}

func newFile(name string, plain []byte) (*file, error) {
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = http.DetectContentType(plain)
	}
	f := &file{ctype: ctype, plain: plain, etag: etagOf(plain)}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(plain); err != nil {
		return nil, fmt.Errorf("compress %s: %w", name, err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("compress %s: %w", name, err)
	}
	if float64(buf.Len()) <= (1-minSaving)*float64(len(plain)) {
		f.packed = buf.Bytes()
		f.etagGzip = etagOf(f.packed)
	}
	return f, nil
}

// etagOf is a strong entity tag of b: 128 bits of its SHA-256, quoted.
func etagOf(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	f := h.files[r.URL.Path]
	if f == nil {
		http.NotFound(w, r)
		return
	}
	body, tag := f.plain, f.etag
	hd := w.Header()
	if f.packed != nil {
		// Both representations share the URL: caches key on the header.
		hd.Set("Vary", "Accept-Encoding")
		if AcceptsGzip(r.Header.Values("Accept-Encoding")) {
			body, tag = f.packed, f.etagGzip
			hd.Set("Content-Encoding", "gzip")
		}
	}
	hd.Set("Content-Type", f.ctype)
	hd.Set("ETag", tag)
	// The names carry no version: the browser asks again every time and
	// gets a 304 while the file is the same.
	hd.Set("Cache-Control", "no-cache")
	// ServeContent answers If-None-Match against the ETag (304), HEAD
	// and ranges; the zero time leaves Last-Modified out.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// AcceptsGzip reports whether Accept-Encoding header values allow a
// gzip body: "gzip" (or "x-gzip") with a non-zero quality, or "*" with
// a non-zero quality when gzip is not named.
func AcceptsGzip(values []string) bool {
	star := false
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			coding, q := parseCoding(item)
			switch coding {
			case "gzip", "x-gzip":
				return q > 0
			case "*":
				star = q > 0
			}
		}
	}
	return star
}

// parseCoding splits one Accept-Encoding item into its coding (lower
// case) and quality [0, 1] (1 when absent, 0 when unreadable).
func parseCoding(item string) (string, float64) {
	coding, params, _ := strings.Cut(item, ";")
	coding = strings.ToLower(strings.TrimSpace(coding))
	q := 1.0
	for _, p := range strings.Split(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || f < 0 || f > 1 {
			f = 0
		}
		q = f
	}
	return coding, q
}
