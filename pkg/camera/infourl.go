package camera

import (
	"fmt"
	"path/filepath"
	"strings"
)

// InfoURL is a parsed camera_info_url (Config.CameraInfoURL), checked
// with the rest of Config; pkg/camera/node resolves and reads it.
type InfoURL struct {
	Package string // package name for package://, else ""
	Path    string // absolute path for file://, path inside the package's share directory for package://
}

// ParseInfoURL parses a camera_info_url: "file:///abs/path.yaml" or
// "package://<package>/<path>" (a path that stays inside the package).
// Errors wrap ErrBadParam.
func ParseInfoURL(u string) (InfoURL, error) {
	switch {
	case strings.HasPrefix(u, "file://"):
		p := strings.TrimPrefix(u, "file://")
		if !strings.HasPrefix(p, "/") {
			return InfoURL{}, fmt.Errorf("camera_info_url %q: file:// needs an absolute path (file:///dir/file.yaml): %w", u, ErrBadParam)
		}
		return InfoURL{Path: filepath.Clean(p)}, nil
	case strings.HasPrefix(u, "package://"):
		rest := strings.TrimPrefix(u, "package://")
		pkg, p, ok := strings.Cut(rest, "/")
		if !ok || pkg == "" || p == "" {
			return InfoURL{}, fmt.Errorf("camera_info_url %q: want package://<package>/<path>: %w", u, ErrBadParam)
		}
		clean := filepath.Clean(p)
		if clean == ".." || strings.HasPrefix(clean, "../") || filepath.IsAbs(clean) {
			return InfoURL{}, fmt.Errorf("camera_info_url %q: path leaves the package: %w", u, ErrBadParam)
		}
		return InfoURL{Package: pkg, Path: clean}, nil
	}
	return InfoURL{}, fmt.Errorf("camera_info_url %q: want file:// or package://: %w", u, ErrBadParam)
}
