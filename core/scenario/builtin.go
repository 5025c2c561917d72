package scenario

import (
	"bytes"
	"embed"
	"fmt"
	"sort"
	"strings"
)

//go:embed builtin/*.json
var builtinFiles embed.FS

// builtins are the lessons that ship with Spacetime, parsed once.
var builtins = loadBuiltins()

func loadBuiltins() map[string]*Scenario {
	entries, err := builtinFiles.ReadDir("builtin")
	if err != nil {
		panic(err)
	}
	out := map[string]*Scenario{}
	for _, e := range entries {
		data, err := builtinFiles.ReadFile("builtin/" + e.Name())
		if err != nil {
			panic(err)
		}
		s, err := Parse(data)
		if err != nil {
			panic(fmt.Sprintf("built-in scenario %s: %v", e.Name(), err))
		}
		if want := strings.TrimSuffix(e.Name(), ".json"); s.ID != want {
			panic(fmt.Sprintf("built-in scenario %s has id %q", e.Name(), s.ID))
		}
		out[s.ID] = s
	}
	return out
}

// Info names a built-in scenario, for pickers.
type Info struct {
	ID, Title string
}

// BuiltinList lists the built-in scenarios in id order, without copying them.
func BuiltinList() []Info {
	ids := BuiltinIDs()
	out := make([]Info, len(ids))
	for i, id := range ids {
		out[i] = Info{ID: id, Title: builtins[id].Title}
	}
	return out
}

// IsBuiltin reports whether s is the built-in scenario of its id, unchanged.
func IsBuiltin(s *Scenario) bool {
	b, ok := builtins[s.ID]
	return ok && bytes.Equal(b.JSON(), s.JSON())
}

// Builtin returns a copy of a built-in scenario.
func Builtin(id string) (*Scenario, error) {
	s, ok := builtins[id]
	if !ok {
		return nil, fmt.Errorf("no built-in scenario %q (known: %s)", id, strings.Join(BuiltinIDs(), ", "))
	}
	return s.Clone(), nil
}

// BuiltinIDs lists the built-in scenarios' ids, in order.
func BuiltinIDs() []string {
	ids := make([]string, 0, len(builtins))
	for id := range builtins {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Default is the scenario the page opens on.
const Default = "snapshot-bank"
