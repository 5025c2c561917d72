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
)

//go:embed builtin/*.json builtin/compare/*.json
var builtinFiles embed.FS

// The built-in lessons are parsed when first asked for, each on its own:
// a page opens one lesson, and parsing and checking all of them first was
// most of the browser client's start. What lists them (BuiltinList, for
// pickers) reads only their titles and topics; the comparisons are parsed
// together, the first time one of them or one of their runs is needed.

// lessons are the built-in lesson files (builtin/*.json) by id, the name
// of the file: listing them parses none.
var lessons = listLessons()

// lessonFile is one built-in lesson file, parsed once, when first read.
type lessonFile struct {
	name string // its path in builtinFiles
	once sync.Once
	s    *Scenario
	err  error
}

func listLessons() map[string]*lessonFile {
	out := map[string]*lessonFile{}
	entries, _ := builtinFiles.ReadDir("builtin")
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			out[strings.TrimSuffix(e.Name(), ".json")] = &lessonFile{name: "builtin/" + e.Name()}
		}
	}
	return out
}

// parsed is the file's lesson, parsed at the first call.
func (f *lessonFile) parsed(id string) (*Scenario, error) {
	f.once.Do(func() {
		data, err := builtinFiles.ReadFile(f.name)
		if err == nil {
			f.s, err = Parse(data)
		}
		if err == nil && f.s.ID != id {
			err = fmt.Errorf("its id is %q, not %q as its file name says", f.s.ID, id)
		}
		if err != nil {
			f.s, f.err = nil, err
		}
	})
	return f.s, f.err
}

// compared are the built-in comparisons (builtin/compare/*.json) and
// their runs, parsed together when first needed.
var compared = sync.OnceValue(loadComparisons)

// comparedLessons are the built-in comparisons and their runs.
type comparedLessons struct {
	byID map[string]*Comparison
	// runs are the comparisons' runs by id, and memberOf the comparison
	// each belongs to.
	runs     map[string]*Scenario
	memberOf map[string]string
	// broken are the comparison files that did not parse, by file.
	broken map[string]error
}

func loadComparisons() *comparedLessons {
	out := &comparedLessons{byID: map[string]*Comparison{}, runs: map[string]*Scenario{}, memberOf: map[string]string{}, broken: map[string]error{}}
	entries, err := builtinFiles.ReadDir("builtin/compare")
	if err != nil {
		out.broken["builtin/compare"] = err
		return out
	}
	for _, e := range entries {
		name := "compare/" + e.Name()
		data, err := builtinFiles.ReadFile("builtin/" + name)
		if err != nil {
			out.broken[name] = err
			continue
		}
		c, members, err := parseComparison(data)
		if err == nil && c.ID != strings.TrimSuffix(e.Name(), ".json") {
			err = fmt.Errorf("its id is %q, not %q as its file name says", c.ID, strings.TrimSuffix(e.Name(), ".json"))
		}
		for _, m := range members {
			if err == nil && lessons[m.ID] != nil {
				err = fmt.Errorf("its run %q has the id of the lesson %s.json", m.ID, m.ID)
			}
		}
		if err != nil {
			out.broken[name] = err
			continue
		}
		for _, m := range members {
			out.runs[m.ID] = m
			out.memberOf[m.ID] = c.ID
		}
		out.byID[c.ID] = c
	}
	return out
}

// builtin is the built-in scenario id, shared: the caller must not change
// it. A lesson file that does not parse gives why.
func builtin(id string) (*Scenario, error) {
	if f, ok := lessons[id]; ok {
		s, err := f.parsed(id)
		if err != nil {
			return nil, fmt.Errorf("the built-in scenario %q is broken: %v", id, err)
		}
		return s, nil
	}
	if s, ok := compared().runs[id]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("no built-in scenario %q%s", clipText(id), suggest(id))
}

// Broken lists the built-in files that do not parse (lessons, comparisons
// and the course's index), with why, so that a test names them: the
// product goes on without them rather than failing to start. It parses
// every one of them.
func Broken() map[string]error {
	bad := maps.Clone(compared().broken)
	if _, err := course(); err != nil {
		bad["course.json"] = err
	}
	for id, f := range lessons {
		if _, err := f.parsed(id); err != nil {
			bad[id+".json"] = err
		}
	}
	return bad
}

// Info names a built-in scenario, for pickers.
type Info struct {
	ID, Title string
	// Topic is the part of the course it teaches (see Topics).
	Topic string
}

// BuiltinList lists the built-in lessons in id order, reading only their
// titles and topics: the runs of a comparison are listed with it
// (Comparisons), not here.
func BuiltinList() []Info { return slices.Clone(lessonList()) }

// lessonList is BuiltinList, read once.
var lessonList = sync.OnceValue(func() []Info {
	out := make([]Info, 0, len(lessons))
	for _, id := range slices.Sorted(maps.Keys(lessons)) {
		if info, ok := readInfo(lessons[id].name); ok {
			out = append(out, Info{ID: id, Title: info.Title, Topic: info.Lesson.Topic})
		}
	}
	return out
})

// ComparisonList lists the built-in comparisons in id order, as
// BuiltinList does the lessons: their ids and titles, read without
// parsing their runs (Comparisons).
func ComparisonList() []Info { return slices.Clone(comparisonList()) }

// comparisonList is ComparisonList, read once.
var comparisonList = sync.OnceValue(func() []Info {
	var out []Info
	entries, _ := builtinFiles.ReadDir("builtin/compare")
	for _, e := range entries {
		if info, ok := readInfo("builtin/compare/" + e.Name()); ok && !e.IsDir() {
			out = append(out, Info{ID: strings.TrimSuffix(e.Name(), ".json"), Title: info.Title})
		}
	}
	return out
})

// info is what a list of the built-in files reads of each.
type info struct {
	Title  string `json:"title"`
	Lesson struct {
		Topic string `json:"topic"`
	} `json:"lesson"`
}

// readInfo reads a built-in file's title and topic, or says it cannot
// (Broken says why).
func readInfo(name string) (info, bool) {
	var i info
	data, err := builtinFiles.ReadFile(name)
	return i, err == nil && json.Unmarshal(data, &i) == nil
}

// ComparisonOf names the comparison a built-in scenario is a run of, or "".
func ComparisonOf(id string) string {
	if lessons[id] != nil {
		return ""
	}
	return compared().memberOf[id]
}

// IsBuiltin reports whether s is the built-in scenario of its id, unchanged.
func IsBuiltin(s *Scenario) bool {
	b, err := builtin(s.ID)
	return err == nil && bytes.Equal(b.JSON(), s.JSON())
}

// Builtin returns a copy of a built-in scenario.
func Builtin(id string) (*Scenario, error) {
	s, err := builtin(id)
	if err != nil {
		return nil, err
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
	all := fmt.Sprintf("%d lessons, listed by spacetime list", len(lessons)+len(compared().runs))
	if len(best) == 0 {
		return " (there are " + all + ")"
	}
	var names []string
	for _, b := range best[:min(len(best), most)] {
		names = append(names, b.id)
	}
	return fmt.Sprintf(" (did you mean %s? there are %s)", strings.Join(names, ", "), all)
}

// BuiltinIDs lists the built-in scenarios' ids, in order: the lessons'
// and the comparisons' runs.
func BuiltinIDs() []string {
	ids := slices.AppendSeq(slices.Collect(maps.Keys(lessons)), maps.Keys(compared().runs))
	sort.Strings(ids)
	return ids
}

// Default is the scenario the page opens on.
const Default = "snapshot-bank"

// BuiltinTour is the built-in lesson's own guided tour (nil: none, or no
// such lesson), read without copying the lesson; the caller must not
// change it.
func BuiltinTour(id string) []TourStop {
	if s, err := builtin(id); err == nil && s.Lesson != nil {
		return s.Lesson.Tour
	}
	return nil
}
