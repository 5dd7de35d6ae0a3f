package console

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/telebridge/telebridge/pkg/console/access"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// Options are the transport and access settings both console commands
// (`telebridge console` and the operator_console node) take; Apply turns
// them into Config fields.
type Options struct {
	// Token is one access token for an operator with every role (see
	// Config.Token).
	Token string
	// TokensFile names a tokens file of operators with roles
	// (access.LoadOperators).
	TokensFile string
	// TLS serves HTTPS with the self-signed certificate of StateDir.
	// Off loopback it is on unless CertFile or Insecure is given.
	TLS bool
	// CertFile and KeyFile serve HTTPS with this certificate instead.
	CertFile, KeyFile string
	// Insecure allows plain HTTP off loopback.
	Insecure bool
	// StateDir keeps the self-signed certificate and the audit log.
	// Default DefaultStateDir().
	StateDir string
	// AuditFile is the audit log (JSON lines, appended). Default
	// audit.jsonl in StateDir; "off": none.
	AuditFile string
	// ICEServers are STUN/TURN servers for the cameras' WebRTC on routed
	// networks (ParseICEServer's forms); none: host candidates only.
	ICEServers []string
	// NoWebRTC turns WebRTC off: the cameras are MJPEG only.
	NoWebRTC bool
	// MaxPagesPerOperator and MaxPagesPerSource cap the open pages
	// (Config's fields of the same names); 0: the defaults.
	MaxPagesPerOperator, MaxPagesPerSource int
	// MDNS resolves the pages' .local WebRTC candidates by multicast DNS
	// (peer.Config.MDNS; off by default).
	MDNS bool
}

// Setup is what Options.Apply prepared.
type Setup struct {
	// Notes are lines for the operator: the certificate's fingerprint,
	// where the audit log goes.
	Notes []string
	// Fingerprint is the SHA-256 fingerprint of the served certificate
	// ("" without TLS).
	Fingerprint string
	audit       *os.File
}

// Close closes the audit log.
func (s *Setup) Close() error {
	if s == nil || s.audit == nil {
		return nil
	}
	return s.audit.Close()
}

// Apply checks o for a console on cfg.Listen and fills cfg's Token,
// Operators, TLS, Insecure and Audit. Close the returned Setup when the
// console has stopped.
func (o Options) Apply(cfg *Config) (*Setup, error) {
	listen := cfg.Listen
	if listen == "" {
		listen = "127.0.0.1:8080"
	}
	if o.Insecure && (o.TLS || o.CertFile != "") {
		return nil, errors.New("console: --insecure and TLS (--tls, --cert) exclude each other")
	}
	if o.Token != "" {
		if err := access.CheckToken(o.Token); err != nil {
			return nil, err
		}
		cfg.Token = o.Token
	}
	var notes []string
	if o.Token != "" {
		notes = append(notes, "access: the token of --token/$"+access.TokenEnv+" accepted: "+access.TokenAccepted)
	}
	if o.TokensFile != "" {
		ops, err := access.LoadOperators(o.TokensFile)
		if err != nil {
			return nil, err
		}
		cfg.Operators = ops
		who := make([]string, len(ops))
		for i, op := range ops {
			who[i] = op.Name + " (" + op.Roles.String() + ")"
		}
		notes = append(notes, fmt.Sprintf("access: %d operators from %s: %s; each token accepted: %s", len(ops), o.TokensFile, strings.Join(who, ", "), access.TokenAccepted))
	}
	for _, u := range o.ICEServers {
		is, err := ParseICEServer(u)
		if err != nil {
			return nil, err
		}
		cfg.WebRTC.ICEServers = append(cfg.WebRTC.ICEServers, is)
	}
	cfg.WebRTC.MDNS = o.MDNS
	if o.NoWebRTC {
		cfg.NoWebRTC = "turned off on this console (--no-webrtc)"
	}
	cfg.MaxPagesPerOperator, cfg.MaxPagesPerSource = o.MaxPagesPerOperator, o.MaxPagesPerSource
	s := &Setup{Notes: notes}
	// Off loopback, TLS is the default.
	self := o.TLS || (o.CertFile == "" && !o.Insecure && !access.IsLoopback(listen))
	dir := o.StateDir
	if dir == "" {
		var err error
		if dir, err = access.DefaultStateDir(); err != nil {
			// Without $HOME (a service), only what needs the directory fails.
			if self {
				return nil, fmt.Errorf("%w: give --state-dir for the self-signed certificate", err)
			}
			if o.AuditFile == "" {
				o.AuditFile = "off"
				s.Notes = append(s.Notes, "no state directory ("+err.Error()+"): no audit log; give --state-dir or --audit")
			}
		}
	}
	tc, fp, made, err := access.LoadTLS(access.TLSOptions{SelfSigned: self, CertFile: o.CertFile, KeyFile: o.KeyFile, StateDir: dir}, listen)
	if err != nil {
		return nil, err
	}
	if tc != nil {
		cfg.TLS, s.Fingerprint = tc, fp
		what := "certificate"
		if self {
			what = "self-signed certificate in " + dir
			if made {
				what = "new self-signed certificate, saved in " + dir
			}
		}
		s.Notes = append(s.Notes, fmt.Sprintf("TLS: %s, SHA-256 fingerprint %s (compare it with what the browser shows before you accept it)", what, fp))
	}
	cfg.Insecure = o.Insecure
	if o.Insecure && !access.IsLoopback(listen) {
		s.Notes = append(s.Notes, "plain HTTP off loopback (--insecure): anyone on the network can read the token")
	}
	switch path := o.AuditFile; {
	case strings.EqualFold(path, "off"):
	default:
		if path == "" {
			path = access.DefaultAuditPath(dir)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("console: audit log: %w", err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("console: audit log: %w", err)
		}
		s.audit, cfg.Audit = f, f
		s.Notes = append(s.Notes, "audit log: "+path)
	}
	return s, nil
}

// ParseICEServer parses one ICE server: stun:HOST[:PORT], or
// turn:USER:CREDENTIAL@HOST[:PORT][?transport=udp|tcp] (turns: alike),
// credentials taken out of the URL.
func ParseICEServer(u string) (peer.ICEServer, error) {
	is := peer.ICEServer{URL: u}
	scheme, rest, ok := strings.Cut(u, ":")
	if ok && (scheme == "turn" || scheme == "turns") {
		if cred, host, ok := strings.Cut(rest, "@"); ok {
			user, pass, _ := strings.Cut(cred, ":")
			is = peer.ICEServer{URL: scheme + ":" + host, Username: user, Credential: pass}
		}
	}
	if err := is.Validate(); err != nil {
		return peer.ICEServer{}, fmt.Errorf("console: --ice-server: %w", err)
	}
	return is, nil
}
