package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// protocol is a vendor wire protocol that `telebridge decode` and
// `telebridge encode` know. Each part registers its own from its file.
type protocol struct {
	name string
	// decode turns one raw packet into a value that marshals to JSON with
	// the protocol's raw fields. It must not retain pkt.
	decode func(pkt []byte) (any, error)
	// encode parses its own flags from args and writes one packet as hex
	// (one line) to io.out. Nil when the protocol has no encoder.
	encode func(args []string, io stdio) error
}

var protocols = map[string]protocol{}

func registerProtocol(p protocol) {
	if _, dup := protocols[p.name]; dup {
		panic("telebridge: protocol registered twice: " + p.name)
	}
	protocols[p.name] = p
}

func protocolNames() string {
	names := make([]string, 0, len(protocols))
	for n := range protocols {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func init() {
	register(command{
		name:    "decode",
		summary: "print one raw vendor packet (stdin, or --hex) as JSON",
		run:     runDecode,
	})
	register(command{
		name:    "encode",
		summary: "print a vendor command packet in hex",
		run:     runEncode,
	})
}

func lookupProtocol(verb string, args []string) (protocol, []string, error) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return protocol{}, nil, fmt.Errorf("%w: telebridge %s <protocol> [flags]; protocols: %s", errUsage, verb, protocolNames())
	}
	p, ok := protocols[args[0]]
	if !ok {
		return protocol{}, nil, fmt.Errorf("%w: unknown protocol %q; protocols: %s", errUsage, args[0], protocolNames())
	}
	return p, args[1:], nil
}

func runDecode(_ context.Context, args []string, io stdio) error {
	p, rest, err := lookupProtocol("decode", args)
	if err != nil {
		return err
	}
	fs := newFlagSet("decode "+p.name, io)
	hexIn := fs.String("hex", "", "the packet as hex digits (spaces and colons allowed) instead of binary on stdin")
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	pkt, err := readPacket(*hexIn, io.in)
	if err != nil {
		return err
	}
	v, err := p.decode(pkt)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(io.out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runEncode(_ context.Context, args []string, io stdio) error {
	p, rest, err := lookupProtocol("encode", args)
	if err != nil {
		return err
	}
	if p.encode == nil {
		return fmt.Errorf("%w: protocol %s has no encoder", errUsage, p.name)
	}
	return p.encode(rest, io)
}

// readPacket returns the packet given as hex text, or else all of in.
func readPacket(hexText string, in io.Reader) ([]byte, error) {
	if hexText != "" {
		clean := strings.NewReplacer(" ", "", ":", "", "\n", "", "\t", "").Replace(hexText)
		pkt, err := hex.DecodeString(clean)
		if err != nil {
			return nil, fmt.Errorf("parse --hex: %w", err)
		}
		return pkt, nil
	}
	pkt, err := io.ReadAll(io.LimitReader(in, 1<<16))
	if err != nil {
		return nil, fmt.Errorf("read stdin: %w", err)
	}
	if len(pkt) == 0 {
		return nil, fmt.Errorf("no packet on stdin (pipe the raw bytes, or use --hex)")
	}
	return pkt, nil
}
