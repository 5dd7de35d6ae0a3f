package access

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Files in the state directory.
const (
	certFile  = "console-cert.pem"
	keyFile   = "console-key.pem"
	auditFile = "audit.jsonl"
)

// DefaultStateDir is where the console keeps its certificate and audit
// log unless told otherwise: os.UserConfigDir()/telebridge.
func DefaultStateDir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("console: state directory: %w", err)
	}
	return filepath.Join(d, "telebridge"), nil
}

// DefaultAuditPath is the audit log in a state directory.
func DefaultAuditPath(stateDir string) string { return filepath.Join(stateDir, auditFile) }

// Fingerprint returns the SHA-256 fingerprint of a DER certificate as
// colon-separated hex (what browsers show).
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}

// SelfSigned returns the console's self-signed certificate for the given
// host names and addresses (localhost, 127.0.0.1 and ::1 are always
// added), kept in dir: made on first use (ECDSA P-256, valid ten years;
// the key file with mode 0600, dir 0700), reused while it covers every
// host, made anew when it does not. It reports whether it made one.
func SelfSigned(dir string, hosts []string) (tls.Certificate, bool, error) {
	hosts = append(slices.Clone(hosts), "localhost", "127.0.0.1", "::1")
	cp, kp := filepath.Join(dir, certFile), filepath.Join(dir, keyFile)
	if c, err := tls.LoadX509KeyPair(cp, kp); err == nil && covers(c, hosts) {
		return c, false, nil
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return tls.Certificate{}, false, fmt.Errorf("console: certificate in %s: %w (remove both files to make a new one)", dir, err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, false, fmt.Errorf("console: certificate key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return tls.Certificate{}, false, fmt.Errorf("console: certificate serial: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "telebridge console", Organization: []string{"telebridge"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		KeyUsage:              x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
	}
	for _, h := range hosts {
		if h == "" {
			continue
		}
		if ip := net.ParseIP(h); ip != nil {
			if !ip.IsUnspecified() {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
			}
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, false, fmt.Errorf("console: certificate: %w", err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return tls.Certificate{}, false, fmt.Errorf("console: certificate key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return tls.Certificate{}, false, fmt.Errorf("console: state directory: %w", err)
	}
	if err := writeFile(kp, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		return tls.Certificate{}, false, err
	}
	if err := writeFile(cp, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return tls.Certificate{}, false, err
	}
	c, err := tls.LoadX509KeyPair(cp, kp)
	if err != nil {
		return tls.Certificate{}, false, fmt.Errorf("console: certificate: %w", err)
	}
	return c, true, nil
}

// writeFile writes b to path with mode perm through a temporary file, so
// that a crash leaves the old file or the new one.
func writeFile(path string, b []byte, perm os.FileMode) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, perm); err != nil {
		return fmt.Errorf("console: write %s: %w", path, err)
	}
	if err := os.Chmod(tmp, perm); err != nil { // umask may have narrowed it; never widened
		return fmt.Errorf("console: write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("console: write %s: %w", path, err)
	}
	return nil
}

// covers reports whether c's leaf names every host.
func covers(c tls.Certificate, hosts []string) bool {
	leaf := c.Leaf
	if leaf == nil {
		var err error
		if leaf, err = x509.ParseCertificate(c.Certificate[0]); err != nil {
			return false
		}
	}
	if time.Now().After(leaf.NotAfter) {
		return false
	}
	for _, h := range hosts {
		if h == "" || net.ParseIP(h) != nil && net.ParseIP(h).IsUnspecified() {
			continue
		}
		if leaf.VerifyHostname(h) != nil {
			return false
		}
	}
	return true
}

// TLSOptions say how the console serves TLS (see LoadTLS).
type TLSOptions struct {
	// SelfSigned serves the self-signed certificate of StateDir
	// (SelfSigned).
	SelfSigned bool
	// CertFile and KeyFile are a certificate and key to serve instead
	// (PEM).
	CertFile, KeyFile string
	// StateDir holds the self-signed certificate. Default
	// DefaultStateDir().
	StateDir string
}

// LoadTLS returns the TLS configuration of opts for a console listening
// on listen, the certificate's SHA-256 fingerprint, and whether a
// self-signed certificate was made now. Nil without TLS.
func LoadTLS(opts TLSOptions, listen string) (*tls.Config, string, bool, error) {
	var (
		cert tls.Certificate
		made bool
		err  error
	)
	switch {
	case opts.CertFile != "" || opts.KeyFile != "":
		if opts.CertFile == "" || opts.KeyFile == "" {
			return nil, "", false, errors.New("console: --cert and --key go together")
		}
		if cert, err = tls.LoadX509KeyPair(opts.CertFile, opts.KeyFile); err != nil {
			return nil, "", false, fmt.Errorf("console: certificate: %w", err)
		}
	case opts.SelfSigned:
		dir := opts.StateDir
		if dir == "" {
			if dir, err = DefaultStateDir(); err != nil {
				return nil, "", false, err
			}
		}
		host, _, err := net.SplitHostPort(listen)
		if err != nil {
			return nil, "", false, fmt.Errorf("console: listen address %q: %w", listen, err)
		}
		hosts := []string{host}
		if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
			hosts = localAddresses()
		}
		if cert, made, err = SelfSigned(dir, hosts); err != nil {
			return nil, "", false, err
		}
	default:
		return nil, "", false, nil
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, Fingerprint(cert.Certificate[0]), made, nil
}

// localAddresses are this machine's interface addresses and host name,
// the names a console on every interface is reached by.
func localAddresses() []string {
	var out []string
	if h, err := os.Hostname(); err == nil {
		out = append(out, h)
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLinkLocalUnicast() {
			out = append(out, n.IP.String())
		}
	}
	return out
}
