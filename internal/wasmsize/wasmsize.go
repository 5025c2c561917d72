// Package wasmsize says what a WebAssembly client's code costs, package
// by package: it reads a binary's code section and the function names of
// its "name" section (a binary built without -s), and adds up each
// function body's bytes under the Go package that owns it. make bench
// prints the largest, so that a package that grows the lesson page's
// download is seen when it grows.
package wasmsize

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Package is one package's share of a binary's code.
type Package struct {
	Path  string
	Bytes int
	Funcs int
}

// Sizes are a binary's code bytes by package, largest first, and its
// sections' sizes by name ("code", "data", …).
type Sizes struct {
	Packages []Package
	Sections map[string]int
	// Code is the code section's function bodies, all packages together.
	Code int
}

// The section ids a size report reads.
const (
	sectionCustom   = 0
	sectionImport   = 2
	sectionCode     = 10
	sectionData     = 11
	importFunction  = 0
	nameSubFunction = 1
)

var sectionNames = map[byte]string{0: "custom", 1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global", 7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "data count"}

// Read reads a WebAssembly binary whose packages are paths. Functions the
// name section does not name are counted under "(unnamed)": a stripped
// binary is all unnamed.
func Read(wasm []byte, paths Paths) (*Sizes, error) {
	r := &reader{b: wasm}
	if !bytes.HasPrefix(wasm, []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, errors.New("not a WebAssembly binary (version 1)")
	}
	r.at = 8
	s := &Sizes{Sections: map[string]int{}}
	imported := 0
	var bodies []int
	names := map[int]string{}
	for r.at < len(r.b) && r.err == nil {
		id := r.byte()
		size := int(r.uint())
		if r.err != nil || size < 0 || r.at+size > len(r.b) {
			return nil, fmt.Errorf("section %d at byte %d runs past the end", id, r.at)
		}
		body := &reader{b: r.b[r.at : r.at+size]}
		r.at += size
		name := sectionNames[id]
		if name == "" {
			name = fmt.Sprintf("section %d", id)
		}
		switch id {
		case sectionImport:
			imported = body.functionImports()
		case sectionCode:
			bodies = body.bodies()
		case sectionCustom:
			custom := body.name()
			name = "custom " + custom
			if custom == "name" {
				body.functionNames(names)
			}
		}
		if body.err != nil {
			return nil, fmt.Errorf("%s section: %v", name, body.err)
		}
		s.Sections[name] += size
	}
	if r.err != nil {
		return nil, r.err
	}
	byPackage := map[string]*Package{}
	for i, n := range bodies {
		path := "(unnamed)"
		if name, ok := names[imported+i]; ok {
			path = paths.Of(name)
		}
		p := byPackage[path]
		if p == nil {
			p = &Package{Path: path}
			byPackage[path] = p
		}
		p.Bytes += n
		p.Funcs++
		s.Code += n
	}
	for _, p := range byPackage {
		s.Packages = append(s.Packages, *p)
	}
	sort.Slice(s.Packages, func(i, j int) bool {
		a, b := s.Packages[i], s.Packages[j]
		return a.Bytes > b.Bytes || a.Bytes == b.Bytes && a.Path < b.Path
	})
	return s, nil
}

// Paths name the packages of a binary as Go writes them. Go's wasm
// linker writes a function's name with every character but letters,
// digits, "." and "_" made "_" ("spacetime_core_engine.__Run_.advance"
// for "spacetime/core/engine.(*Run).advance"), which loses where a
// package whose path has dots ("go.starlark.net/starlark") ends: the
// binary's import paths, written the same way, tell.
type Paths map[string]string

// PathsOf are the paths of the packages built into a binary (go list
// -deps).
func PathsOf(importPaths []string) Paths {
	p := Paths{}
	for _, path := range importPaths {
		p[Mangle(path)] = path
	}
	return p
}

// Mangle writes an import path as Go's wasm linker writes it in a name.
func Mangle(path string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, path)
}

// Of is the package a function's name belongs to: the longest of the
// paths the name begins with, then a "."; "type:" and "go:" for the
// linker's own ("type:.eq.…"); else the name up to its first ".".
// A generic function counts under its own package whatever its type
// arguments ("slices.Sort[…]").
func (p Paths) Of(name string) string {
	for _, linker := range []string{"type:", "go:", "type_", "go_"} {
		if strings.HasPrefix(name, linker) {
			return linker[:len(linker)-1] + ":"
		}
	}
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	best := ""
	for i := 0; i < len(name); i++ {
		if name[i] != '.' {
			continue
		}
		if path, ok := p[name[:i]]; ok {
			best = path
		} else if path, ok := p[Mangle(name[:i])]; ok && strings.Contains(name[:i], "/") {
			best = path // a name as Go writes it
		}
	}
	if best != "" {
		return best
	}
	if dot := strings.IndexByte(name, '.'); dot >= 0 {
		return name[:dot]
	}
	return name
}

// reader reads a section's bytes, keeping the first error.
type reader struct {
	b   []byte
	at  int
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%s at byte %d runs past the end", what, r.at)
	}
}

func (r *reader) byte() byte {
	if r.err != nil || r.at >= len(r.b) {
		r.fail("a byte")
		return 0
	}
	r.at++
	return r.b[r.at-1]
}

// uint reads an unsigned LEB128 number.
func (r *reader) uint() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
	r.err = fmt.Errorf("a number at byte %d is too long", r.at)
	return 0
}

// count reads a vector's length, refusing one longer than the bytes left.
func (r *reader) count() int {
	n := r.uint()
	if n > uint64(len(r.b)-r.at) {
		r.fail("a vector")
		return 0
	}
	return int(n)
}

func (r *reader) name() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.b[r.at : r.at+n])
	r.at += n
	return s
}

func (r *reader) skip(n int) {
	if n < 0 || r.at+n > len(r.b) {
		r.fail("a field")
		return
	}
	r.at += n
}

// functionImports counts the imported functions, which come first in the
// function index space.
func (r *reader) functionImports() int {
	funcs := 0
	for range r.count() {
		r.name()
		r.name()
		switch kind := r.byte(); kind {
		case importFunction:
			r.uint()
			funcs++
		case 1: // table: element type, limits
			r.byte()
			r.limits()
		case 2: // memory: limits
			r.limits()
		case 3: // global: value type, mutability
			r.byte()
			r.byte()
		default:
			r.err = fmt.Errorf("an import of unknown kind %d", kind)
		}
		if r.err != nil {
			return 0
		}
	}
	return funcs
}

func (r *reader) limits() {
	if r.byte()&1 == 1 {
		r.uint()
	}
	r.uint()
}

// bodies are the code section's function bodies' sizes, in order.
func (r *reader) bodies() []int {
	n := r.count()
	out := make([]int, 0, n)
	for range n {
		size := r.count()
		r.skip(size)
		if r.err != nil {
			return nil
		}
		out = append(out, size)
	}
	return out
}

// functionNames reads the name section's function names into names, by
// function index.
func (r *reader) functionNames(names map[int]string) {
	for r.at < len(r.b) && r.err == nil {
		id := r.byte()
		size := r.count()
		if id != nameSubFunction {
			r.skip(size)
			continue
		}
		sub := &reader{b: r.b[r.at : r.at+size]}
		r.at += size
		for range sub.count() {
			index := int(sub.uint())
			names[index] = sub.name()
			if sub.err != nil {
				r.err = sub.err
				return
			}
		}
	}
}
