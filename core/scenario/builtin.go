package scenario

import (
	"bytes"
	"embed"
	"fmt"
	"slices"
	"sort"
	"strings"
)

//go:embed builtin/*.json builtin/compare/*.json
var builtinFiles embed.FS

// builtins are the lessons that ship with Spacetime, parsed once; broken
// lists those that did not parse, by file, so that a test names them (the
// product goes on without them rather than failing to start).
var builtins, broken = loadBuiltins()

func loadBuiltins() (map[string]*Scenario, map[string]error) {
	out, bad := map[string]*Scenario{}, map[string]error{}
	if courseErr != nil {
		bad["course.json"] = courseErr
	}
	entries, err := builtinFiles.ReadDir("builtin")
	if err != nil {
		bad["builtin"] = err
		return out, bad
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := builtinFiles.ReadFile("builtin/" + e.Name())
		if err != nil {
			bad[e.Name()] = err
			continue
		}
		s, err := Parse(data)
		if err != nil {
			bad[e.Name()] = err
			continue
		}
		if want := strings.TrimSuffix(e.Name(), ".json"); s.ID != want {
			bad[e.Name()] = fmt.Errorf("its id is %q, not %q as its file name says", s.ID, want)
			continue
		}
		out[s.ID] = s
	}
	// the comparisons' runs are built-in scenarios too, listed apart
	entries, err = builtinFiles.ReadDir("builtin/compare")
	if err != nil {
		bad["builtin/compare"] = err
		return out, bad
	}
	for _, e := range entries {
		name := "compare/" + e.Name()
		data, err := builtinFiles.ReadFile("builtin/" + name)
		if err != nil {
			bad[name] = err
			continue
		}
		c, err := ParseComparison(data)
		if err != nil {
			bad[name] = err
			continue
		}
		if want := strings.TrimSuffix(e.Name(), ".json"); c.ID != want {
			bad[name] = fmt.Errorf("its id is %q, not %q as its file name says", c.ID, want)
			continue
		}
		members, _ := c.Members()
		for _, m := range members {
			out[m.ID] = m
			memberOf[m.ID] = c.ID
		}
		comparisons[c.ID] = c
	}
	return out, bad
}

// memberOf gives the comparison a built-in scenario belongs to.
var memberOf = map[string]string{}

// Broken lists the built-in lesson files that do not parse, with why.
func Broken() map[string]error { return broken }

// Info names a built-in scenario, for pickers.
type Info struct {
	ID, Title string
	// Topic is the part of the course it teaches (see Topics).
	Topic string
}

// BuiltinList lists the built-in lessons in id order, without copying
// them: the runs of a comparison are listed with it (Comparisons), not
// here.
func BuiltinList() []Info {
	var out []Info
	for _, id := range BuiltinIDs() {
		if memberOf[id] == "" {
			out = append(out, Info{ID: id, Title: builtins[id].Title, Topic: builtins[id].TopicOf()})
		}
	}
	return out
}

// ComparisonOf names the comparison a built-in scenario is a run of, or "".
func ComparisonOf(id string) string { return memberOf[id] }

// IsBuiltin reports whether s is the built-in scenario of its id, unchanged.
func IsBuiltin(s *Scenario) bool {
	b, ok := builtins[s.ID]
	return ok && bytes.Equal(b.JSON(), s.JSON())
}

// Builtin returns a copy of a built-in scenario.
func Builtin(id string) (*Scenario, error) {
	s, ok := builtins[id]
	if !ok {
		if err, bad := broken[id+".json"]; bad {
			return nil, fmt.Errorf("the built-in scenario %q is broken: %v", id, err)
		}
		return nil, fmt.Errorf("no built-in scenario %q%s", clipText(id), suggest(id))
	}
	return s.Clone(), nil
}

// suggest says where an unknown lesson id may have meant to go: a
// comparison of that id, or the lessons whose ids share the most words
// with it, and how to list them all.
func suggest(id string) string {
	for _, c := range Comparisons() {
		if c.ID == id {
			return fmt.Sprintf(": %q is a comparison, which /compare opens (its runs are %s-…)", c.ID, c.ID)
		}
	}
	words := strings.FieldsFunc(strings.ToLower(id), func(r rune) bool { return r == '-' || r == '_' || r == ' ' || r == '.' })
	type near struct {
		id     string
		shared int
	}
	var best []near
	for _, b := range BuiltinIDs() {
		n := 0
		for _, w := range words {
			if len(w) > 2 && strings.Contains(b, w) {
				n++
			}
		}
		if n > 0 {
			best = append(best, near{b, n})
		}
	}
	// most words shared first, then the longest start shared
	prefix := func(b string) int {
		n := 0
		for n < len(b) && n < len(id) && b[n] == id[n] {
			n++
		}
		return n
	}
	slices.SortStableFunc(best, func(a, b near) int {
		if a.shared != b.shared {
			return b.shared - a.shared
		}
		return prefix(b.id) - prefix(a.id)
	})
	const most = 5
	all := fmt.Sprintf("%d lessons, listed by spacetime list", len(builtins))
	if len(best) == 0 {
		return " (there are " + all + ")"
	}
	var names []string
	for _, b := range best[:min(len(best), most)] {
		names = append(names, b.id)
	}
	return fmt.Sprintf(" (did you mean %s? there are %s)", strings.Join(names, ", "), all)
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

// BuiltinTour is the built-in lesson's own guided tour (nil: none, or no
// such lesson), read without copying the lesson; the caller must not
// change it.
func BuiltinTour(id string) []TourStop {
	if s, ok := builtins[id]; ok && s.Lesson != nil {
		return s.Lesson.Tour
	}
	return nil
}
