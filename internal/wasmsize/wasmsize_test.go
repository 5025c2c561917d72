package wasmsize_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/internal/wasmsize"
)

// section is a section of id with its size before its bytes.
func section(id byte, body ...byte) []byte { return append([]byte{id, byte(len(body))}, body...) }

// text is a name: its length, then its bytes.
func text(s string) []byte { return append([]byte{byte(len(s))}, s...) }

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// A binary of one imported function and two bodies, named in its name
// section: each body counts under its package, the import under none.
func TestCodeByPackage(t *testing.T) {
	names := concat([]byte{3},
		[]byte{0}, text("runtime.wasmExit"),
		[]byte{1}, text("spacetime/core/engine.(*Run).advance"),
		[]byte{2}, text("slices.Sort[[]spacetime/core/sim.NodeID]"))
	wasm := concat([]byte("\x00asm\x01\x00\x00\x00"),
		section(2, concat([]byte{1}, text("go"), text("f"), []byte{0, 0})...),
		section(10, 2, 3, 0, 1, 0x0b, 5, 0, 0, 0, 0, 0x0b),
		section(0, concat(text("name"), []byte{1, byte(len(names))}, names)...))
	s, err := wasmsize.Read(wasm, wasmsize.PathsOf([]string{"slices", "spacetime/core/engine", "runtime"}))
	require.NoError(t, err)
	assert.Equal(t, []wasmsize.Package{{Path: "slices", Bytes: 5, Funcs: 1}, {Path: "spacetime/core/engine", Bytes: 3, Funcs: 1}}, s.Packages)
	assert.Equal(t, 8, s.Code)
	assert.Equal(t, 11, s.Sections["code"], "the section: its count, and each body with its size")
	assert.Contains(t, s.Sections, "custom name")
}

// Without a name section every body is unnamed.
func TestAStrippedBinaryIsUnnamed(t *testing.T) {
	s, err := wasmsize.Read(concat([]byte("\x00asm\x01\x00\x00\x00"), section(10, 1, 2, 0, 0x0b)), nil)
	require.NoError(t, err)
	assert.Equal(t, []wasmsize.Package{{Path: "(unnamed)", Bytes: 2, Funcs: 1}}, s.Packages)
}

// What is not a binary, or runs past its end, is refused.
func TestBadBinaries(t *testing.T) {
	for name, data := range map[string][]byte{
		"text":            []byte("hello"),
		"section too big": concat([]byte("\x00asm\x01\x00\x00\x00"), []byte{10, 50, 1}),
		"body too big":    concat([]byte("\x00asm\x01\x00\x00\x00"), section(10, 1, 9, 0)),
		"endless number":  concat([]byte("\x00asm\x01\x00\x00\x00"), []byte{10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}),
	} {
		_, err := wasmsize.Read(data, nil)
		assert.Error(t, err, name)
	}
}

// A name, as Go writes it or as the linker does, counts under the
// longest package path it begins with.
func TestPackageOf(t *testing.T) {
	paths := wasmsize.PathsOf([]string{"runtime", "slices", "encoding/json", "main", "spacetime/core/engine", "spacetime/core/engine/sub",
		"go.starlark.net/starlark", "github.com/maxence-charriere/go-app/v10/pkg/app"})
	for name, want := range map[string]string{
		"spacetime/core/engine.(*Run).advance":                          "spacetime/core/engine",
		"spacetime_core_engine.__Run_.apply":                            "spacetime/core/engine",
		"spacetime_core_engine_sub.F":                                   "spacetime/core/engine/sub",
		"go.starlark.net_starlark.__Function_.CallInternal":             "go.starlark.net/starlark",
		"github.com_maxence_charriere_go_app_v10_pkg_app.__Body_.Mount": "github.com/maxence-charriere/go-app/v10/pkg/app",
		"encoding_json.Marshal":                                         "encoding/json",
		"runtime.mallocgc":                                              "runtime",
		"runtime.wasm_export_run":                                       "runtime",
		"slices.Sort[[]spacetime/core/sim.NodeID]":                      "slices",
		"type_.eq.spacetime_core_sim.Message":                           "type:",
		"type:.eq.spacetime/core/sim.Message":                           "type:",
		"main.main":                                                     "main",
		"unknown_pkg.F":                                                 "unknown_pkg",
	} {
		assert.Equal(t, want, paths.Of(name), name)
	}
}
