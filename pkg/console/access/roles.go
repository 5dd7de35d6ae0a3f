package access

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"gopkg.in/yaml.v3"
)

// Role is a set of permissions of an operator.
type Role uint8

// The roles. View may watch and press the e-stop; Drive moves the chassis
// (Servosila tracks, flippers and headlight, the Furbot) and releases a
// latched e-stop; Arm moves the arms (Servosila arm joints and gripper,
// the jog arm); Admin may do everything and take control from another
// page.
const (
	RoleView Role = 1 << iota
	RoleDrive
	RoleArm
	RoleAdmin
)

var roleNames = []struct {
	r    Role
	name string
}{{RoleView, "view"}, {RoleDrive, "drive"}, {RoleArm, "arm"}, {RoleAdmin, "admin"}}

// Has reports whether the set grants r (admin grants everything).
func (r Role) Has(want Role) bool { return r&RoleAdmin != 0 || r&want == want }

// String returns the roles as "drive,arm".
func (r Role) String() string {
	var s []string
	for _, n := range roleNames {
		if r&n.r != 0 {
			s = append(s, n.name)
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ",")
}

// ParseRole parses one role name.
func ParseRole(s string) (Role, error) {
	for _, n := range roleNames {
		if n.name == strings.TrimSpace(s) {
			return n.r, nil
		}
	}
	return 0, fmt.Errorf("console: unknown role %q (view, drive, arm, admin)", s)
}

// Operator is a person allowed on the console: a name (for the log and the
// audit), an access token and roles.
type Operator struct {
	Name  string // shown in the log and the audit
	Token string // access token, one NewToken made (CheckToken)
	Roles Role   // permissions, a set of Role bits
}

// tokensFile is the YAML layout of a tokens file.
type tokensFile struct {
	Operators []struct {
		Name  string   `yaml:"name"`
		Token string   `yaml:"token"`
		Roles []string `yaml:"roles"`
	} `yaml:"operators"`
}

// ParseOperators reads a tokens file (YAML):
//
//	operators:
//	  - name: alice
//	    token: tb1_...            # from `telebridge token new`
//	    roles: [drive, arm]
//
// Names and tokens must be unique; every operator needs a role.
func ParseOperators(b []byte) ([]Operator, error) {
	var f tokensFile
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("console: tokens file: %w", err)
	}
	if len(f.Operators) == 0 {
		return nil, errors.New("console: tokens file: no operators")
	}
	names, tokens := map[string]bool{}, map[string]bool{}
	var ops []Operator
	for i, o := range f.Operators {
		if o.Name == "" {
			return nil, fmt.Errorf("console: tokens file: operator %d has no name", i+1)
		}
		if names[o.Name] || tokens[o.Token] {
			return nil, fmt.Errorf("console: tokens file: operator %q: name or token used twice", o.Name)
		}
		names[o.Name], tokens[o.Token] = true, true
		if err := CheckToken(o.Token); err != nil {
			return nil, fmt.Errorf("console: tokens file: operator %q: %w", o.Name, err)
		}
		op := Operator{Name: o.Name, Token: o.Token}
		for _, r := range o.Roles {
			role, err := ParseRole(r)
			if err != nil {
				return nil, fmt.Errorf("console: tokens file: operator %q: %w", o.Name, err)
			}
			op.Roles |= role
		}
		if op.Roles == 0 {
			return nil, fmt.Errorf("console: tokens file: operator %q has no role", o.Name)
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// LoadOperators reads a tokens file (see ParseOperators). The file holds
// secrets: it is refused when others than its owner may read it.
func LoadOperators(path string) ([]Operator, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("console: tokens file: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("console: tokens file %s is readable by others (mode %v): chmod 600 it", path, st.Mode().Perm())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("console: tokens file: %w", err)
	}
	return ParseOperators(b)
}
