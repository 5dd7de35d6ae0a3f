package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// finding is one exported name without a doc comment.
type finding struct {
	pos  token.Position
	what string // "func Foo", "method T.Bar", "field T.X", ...
}

func (f finding) String() string {
	return fmt.Sprintf("%s:%d: %s has no doc comment", f.pos.Filename, f.pos.Line, f.what)
}

// checkFiles parses the named Go files of one package (tests and
// generated files must be left out by the caller or are skipped here) and
// returns the exported names they declare without a doc comment, and
// whether the package has a package comment in any of them.
func checkFiles(fset *token.FileSet, paths []string) (out []finding, pkgDoc bool, err error) {
	exportedTypes := map[string]bool{}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, false, fmt.Errorf("parse: %w", err)
		}
		if ast.IsGenerated(f) {
			continue
		}
		if f.Doc != nil && strings.TrimSpace(f.Doc.Text()) != "" {
			pkgDoc = true
		}
		files = append(files, f)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					if ts := s.(*ast.TypeSpec); ts.Name.IsExported() {
						exportedTypes[ts.Name.Name] = true
					}
				}
			}
		}
	}
	report := func(n ast.Node, what string) {
		out = append(out, finding{pos: fset.Position(n.Pos()), what: what})
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				checkFunc(d, exportedTypes, report)
			case *ast.GenDecl:
				checkGen(fset, d, report)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].pos, out[j].pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Line < b.Line
	})
	return out, pkgDoc, nil
}

// checkFunc reports an exported function, or an exported method of an
// exported type, without a doc comment.
func checkFunc(d *ast.FuncDecl, exportedTypes map[string]bool, report func(ast.Node, string)) {
	if !d.Name.IsExported() || hasDoc(d.Doc) {
		return
	}
	if d.Recv == nil {
		report(d, "func "+d.Name.Name)
		return
	}
	if recv := recvName(d.Recv.List[0].Type); exportedTypes[recv] {
		report(d, "method "+recv+"."+d.Name.Name)
	}
}

// recvName returns the type name of a receiver (T, *T, T[P], *T[P]).
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// checkGen reports exported types, constants and variables without a doc
// comment, and the exported fields and interface methods of exported
// types. In a parenthesised group, a constant or variable may be
// documented by the group's comment or by a comment at the end of its
// line; a field likewise by a comment at the end of its line.
func checkGen(fset *token.FileSet, d *ast.GenDecl, report func(ast.Node, string)) {
	grouped := d.Lparen.IsValid()
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			if !s.Name.IsExported() {
				continue
			}
			doc := s.Doc
			if !hasDoc(doc) && !grouped {
				doc = d.Doc
			}
			if !hasDoc(doc) {
				report(s, "type "+s.Name.Name)
			}
			checkMembers(fset, s, doc, report)
		case *ast.ValueSpec:
			for _, n := range s.Names {
				if !n.IsExported() {
					continue
				}
				if hasDoc(s.Doc) || hasDoc(s.Comment) || hasDoc(d.Doc) {
					continue
				}
				kind := "var "
				if d.Tok == token.CONST {
					kind = "const "
				}
				report(n, kind+n.Name)
			}
		}
	}
}

// checkMembers reports the undocumented methods of an interface type and
// the undocumented exported fields of a struct type. A
// member is documented by a comment above it or at the end of its line,
// or by the type's doc comment (typeDoc) or the comment of an earlier
// member of its run of lines (no blank line between) if that names it; the one method
// of a single-method interface by the type's doc comment.
func checkMembers(fset *token.FileSet, s *ast.TypeSpec, typeDoc *ast.CommentGroup, report func(ast.Node, string)) {
	var list *ast.FieldList
	kind := "field "
	switch t := s.Type.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list, kind = t.Methods, "interface method "
		if n := len(list.List); n == 1 && len(list.List[0].Names) == 1 && hasDoc(typeDoc) {
			return
		}
	default:
		return
	}
	text := ""
	if typeDoc != nil {
		text = typeDoc.Text()
	}
	// run is the doc comment of the latest documented member of the
	// current run of members (a blank line ends a run): "A and B are ..."
	// above A documents B on the next line.
	run, prevEnd := "", -1
	for _, f := range list.List {
		line := fset.Position(f.Pos()).Line
		if line > prevEnd+1 {
			run = ""
		}
		if f.Doc != nil {
			line = fset.Position(f.Doc.Pos()).Line
			if line > prevEnd+1 {
				run = ""
			}
		}
		prevEnd = fset.Position(f.End()).Line
		if hasDoc(f.Doc) {
			run = f.Doc.Text()
		}
		if hasDoc(f.Doc) || hasDoc(f.Comment) {
			continue
		}
		for _, n := range f.Names {
			if n.IsExported() && !mentions(text, n.Name) && !mentions(run, n.Name) {
				report(n, kind+s.Name.Name+"."+n.Name)
			}
		}
	}
}

// mentions reports whether text has name as a whole word.
func mentions(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(name)
		if (a == 0 || !isIdent(text[a-1])) && (b == len(text) || !isIdent(text[b])) {
			return true
		}
		i = b
	}
}

func isIdent(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func hasDoc(g *ast.CommentGroup) bool {
	return g != nil && strings.TrimSpace(g.Text()) != ""
}

// relative shortens a file name to the path below root where it can.
func relative(root, name string) string {
	if r, err := filepath.Rel(root, name); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return name
}
