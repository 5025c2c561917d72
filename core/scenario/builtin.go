package scenario

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"spacetime/core/sim"
)

//go:embed builtin/*.json builtin/compare/*.json
var builtinFiles embed.FS

// catalog is every built-in lesson, read when first asked for: each file
// is only skimmed for what a picker shows (its id, title and topic), and
// parsed when the lesson is first opened, so that a page starts without
// decoding fifty lessons it does not show. The comparisons, a few files
// whose runs are lessons too, are parsed together when one is needed.
var catalog = sync.OnceValue(readCatalog)

// builtinLesson is one file of the catalog.
type builtinLesson struct {
	info Info
	// parse parses the file, once.
	parse func() (*Scenario, error)
}

// lessonCatalog is the catalog: the lessons by id, and the files that
// could not even be skimmed, with why.
type lessonCatalog struct {
	lessons map[string]*builtinLesson
	bad     map[string]error
}

func readCatalog() lessonCatalog {
	c := lessonCatalog{lessons: map[string]*builtinLesson{}, bad: map[string]error{}}
	entries, err := builtinFiles.ReadDir("builtin")
	if err != nil {
		c.bad["builtin"] = err
		return c
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := builtinFiles.ReadFile("builtin/" + e.Name())
		if err != nil {
			c.bad[e.Name()] = err
			continue
		}
		info, err := skimInfo(data)
		if err != nil {
			c.bad[e.Name()] = err
			continue
		}
		if want := strings.TrimSuffix(e.Name(), ".json"); info.ID != want {
			c.bad[e.Name()] = fmt.Errorf("its id is %q, not %q as its file name says", info.ID, want)
			continue
		}
		c.lessons[info.ID] = &builtinLesson{info: info, parse: sync.OnceValues(func() (*Scenario, error) { return Parse(data) })}
	}
	return c
}

// skimInfo reads a lesson file's id, title and topic without parsing the
// rest of it.
func skimInfo(data []byte) (Info, error) {
	var info Info
	text := func(value []byte, into *string) error { return json.Unmarshal(value, into) }
	err := sim.Members(data, func(key string, value []byte) error {
		switch key {
		case "id":
			return text(value, &info.ID)
		case "title":
			return text(value, &info.Title)
		case "lesson":
			return sim.Members(value, func(key string, value []byte) error {
				if key == "topic" {
					return text(value, &info.Topic)
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return Info{}, fmt.Errorf("scenario: %w", err)
	}
	return info, nil
}

// compared is the built-in comparisons, their runs and the files that did
// not parse, read when first asked for.
var compared = sync.OnceValue(readComparisons)

type comparisonCatalog struct {
	byID map[string]*Comparison
	// runs are the comparisons' runs by id, and memberOf the comparison
	// each belongs to.
	runs     map[string]*Scenario
	memberOf map[string]string
	bad      map[string]error
}

func readComparisons() comparisonCatalog {
	c := comparisonCatalog{byID: map[string]*Comparison{}, runs: map[string]*Scenario{}, memberOf: map[string]string{}, bad: map[string]error{}}
	entries, err := builtinFiles.ReadDir("builtin/compare")
	if err != nil {
		c.bad["builtin/compare"] = err
		return c
	}
	for _, e := range entries {
		name := "compare/" + e.Name()
		data, err := builtinFiles.ReadFile("builtin/" + name)
		if err != nil {
			c.bad[name] = err
			continue
		}
		cmp, err := ParseComparison(data)
		if err != nil {
			c.bad[name] = err
			continue
		}
		if want := strings.TrimSuffix(e.Name(), ".json"); cmp.ID != want {
			c.bad[name] = fmt.Errorf("its id is %q, not %q as its file name says", cmp.ID, want)
			continue
		}
		members, _ := cmp.Members()
		for _, m := range members {
			c.runs[m.ID] = m
			c.memberOf[m.ID] = cmp.ID
		}
		c.byID[cmp.ID] = cmp
	}
	return c
}

// builtin is the built-in scenario of an id, shared (not a copy): a
// lesson, parsed now if it has not been, or a comparison's run. err says
// why a lesson of that id does not parse; ok is false if there is none.
func builtin(id string) (s *Scenario, ok bool, err error) {
	if l, found := catalog().lessons[id]; found {
		s, err := l.parse()
		return s, err == nil, err
	}
	if _, found := catalog().bad[id+".json"]; found {
		return nil, false, catalog().bad[id+".json"]
	}
	s, ok = compared().runs[id]
	return s, ok, nil
}

// Broken lists the built-in lesson files that do not parse, with why,
// parsing every one (the product goes on without them rather than failing
// to start; a test names them).
func Broken() map[string]error {
	out := map[string]error{}
	maps.Copy(out, catalog().bad)
	maps.Copy(out, compared().bad)
	for id, l := range catalog().lessons {
		if _, err := l.parse(); err != nil {
			out[id+".json"] = err
		}
	}
	return out
}

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
	lessons := catalog().lessons
	out := make([]Info, 0, len(lessons))
	for _, l := range lessons {
		out = append(out, l.info)
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// ComparisonOf names the comparison a built-in scenario is a run of, or "".
func ComparisonOf(id string) string { return compared().memberOf[id] }

// IsBuiltin reports whether s is the built-in scenario of its id, unchanged.
func IsBuiltin(s *Scenario) bool {
	b, ok, _ := builtin(s.ID)
	return ok && bytes.Equal(b.JSON(), s.JSON())
}

// Builtin returns a copy of a built-in scenario.
func Builtin(id string) (*Scenario, error) {
	s, ok, err := builtin(id)
	if err != nil {
		return nil, fmt.Errorf("the built-in scenario %q is broken: %v", id, err)
	}
	if !ok {
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
	all := fmt.Sprintf("%d lessons, listed by spacetime list", len(BuiltinIDs()))
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
	ids := slices.AppendSeq(slices.Collect(maps.Keys(catalog().lessons)), maps.Keys(compared().runs))
	sort.Strings(ids)
	return slices.Compact(ids)
}

// Default is the scenario the page opens on.
const Default = "snapshot-bank"
