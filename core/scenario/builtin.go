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
)

//go:embed builtin/*.json builtin/compare/*.json
var builtinFiles embed.FS

// The built-in lessons are parsed when asked for, each on its own: a page
// opens one lesson, and parsing and checking all of them at the start
// was most of the browser client's start. What lists them is read at the
// start without parsing them (index): titles, topics and tours, and the
// comparisons' ids, titles and runs. Nothing is kept from one call to
// the next, so that the core holds no state its callers' goroutines (the
// server's) would share: a caller that asks for a lesson at every frame
// keeps what it needs (lab.Session, app/lab's Switches).

// index is what the built-in files say of themselves, read at the start.
var index = readIndex()

// builtinIndex lists the built-in files without parsing them.
type builtinIndex struct {
	// lessons are the lesson files (builtin/*.json) by id, the name of
	// the file, with what pickers and tours read of each (nil where the
	// file is not even JSON: Broken says why).
	lessons map[string]*lessonHead
	// list is BuiltinList.
	list []Info
	// comparisons are the comparison files (builtin/compare/*.json) in
	// id order, and memberOf the comparison each run belongs to.
	comparisons []comparisonHead
	memberOf    map[string]string
}

// lessonHead is what the index reads of a lesson file.
type lessonHead struct {
	Title  string `json:"title"`
	Lesson struct {
		Topic string     `json:"topic"`
		Tour  []TourStop `json:"tour"`
	} `json:"lesson"`
}

// comparisonHead is what the index reads of a comparison file.
type comparisonHead struct {
	ID         string   `json:"-"`
	Title      string   `json:"title"`
	Algorithms []string `json:"algorithms"`
}

func readIndex() builtinIndex {
	ix := builtinIndex{lessons: map[string]*lessonHead{}, memberOf: map[string]string{}}
	entries, _ := builtinFiles.ReadDir("builtin")
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if e.IsDir() || !ok {
			continue
		}
		var head lessonHead
		if readHead(lessonFile(id), &head) {
			ix.lessons[id] = &head
			ix.list = append(ix.list, Info{ID: id, Title: head.Title, Topic: head.Lesson.Topic})
		} else {
			ix.lessons[id] = nil
		}
	}
	entries, _ = builtinFiles.ReadDir("builtin/compare")
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		head := comparisonHead{ID: id}
		if e.IsDir() || !ok || !readHead(comparisonFile(id), &head) {
			continue
		}
		ix.comparisons = append(ix.comparisons, head)
		for _, run := range (&Comparison{ID: id, Algorithms: head.Algorithms}).MemberIDs() {
			ix.memberOf[run] = id
		}
	}
	return ix
}

// readHead reads what the index needs of a built-in file into head, or
// says it cannot.
func readHead(name string, head any) bool {
	data, err := builtinFiles.ReadFile(name)
	return err == nil && json.Unmarshal(data, head) == nil
}

func lessonFile(id string) string     { return "builtin/" + id + ".json" }
func comparisonFile(id string) string { return "builtin/compare/" + id + ".json" }

// parseLesson parses the lesson file of id.
func parseLesson(id string) (*Scenario, error) {
	data, err := builtinFiles.ReadFile(lessonFile(id))
	if err != nil {
		return nil, err
	}
	s, err := Parse(data)
	if err == nil && s.ID != id {
		err = fmt.Errorf("its id is %q, not %q as its file name says", s.ID, id)
	}
	return s, err
}

// parseComparisonFile parses the comparison file of id, with its runs.
func parseComparisonFile(id string) (*Comparison, []*Scenario, error) {
	data, err := builtinFiles.ReadFile(comparisonFile(id))
	if err != nil {
		return nil, nil, err
	}
	c, runs, err := parseComparison(data)
	if err == nil && c.ID != id {
		err = fmt.Errorf("its id is %q, not %q as its file name says", c.ID, id)
	}
	for _, run := range runs {
		if _, lesson := index.lessons[run.ID]; err == nil && lesson {
			err = fmt.Errorf("its run %q has the id of the lesson %s.json", run.ID, run.ID)
		}
	}
	return c, runs, err
}

// Builtin parses the built-in scenario id: a lesson, or a comparison's
// run. A file that does not parse gives why.
func Builtin(id string) (*Scenario, error) {
	if _, ok := index.lessons[id]; ok {
		s, err := parseLesson(id)
		if err != nil {
			return nil, fmt.Errorf("the built-in scenario %q is broken: %v", id, err)
		}
		return s, nil
	}
	if c := index.memberOf[id]; c != "" {
		_, runs, err := parseComparisonFile(c)
		if err != nil {
			return nil, fmt.Errorf("the built-in scenario %q is broken: its comparison %s: %v", id, c, err)
		}
		for _, run := range runs {
			if run.ID == id {
				return run, nil
			}
		}
	}
	return nil, fmt.Errorf("no built-in scenario %q%s", clipText(id), suggest(id))
}

// Broken lists the built-in files that do not parse (lessons, comparisons
// and the course's index), with why, so that a test names them: the
// product goes on without them rather than failing to start. It parses
// every one of them.
func Broken() map[string]error {
	bad := map[string]error{}
	if courseErr != nil {
		bad["course.json"] = courseErr
	}
	for id := range index.lessons {
		if _, err := parseLesson(id); err != nil {
			bad[id+".json"] = err
		}
	}
	entries, _ := builtinFiles.ReadDir("builtin/compare")
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".json")
		if _, _, err := parseComparisonFile(id); err != nil {
			bad["compare/"+e.Name()] = err
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

// BuiltinList lists the built-in lessons in id order, without parsing
// them: the runs of a comparison are listed with it (Comparisons), not
// here.
func BuiltinList() []Info { return slices.Clone(index.list) }

// ComparisonList lists the built-in comparisons in id order, as
// BuiltinList does the lessons: their ids and titles, without parsing
// their runs (Comparisons).
func ComparisonList() []Info {
	out := make([]Info, len(index.comparisons))
	for i, c := range index.comparisons {
		out[i] = Info{ID: c.ID, Title: c.Title}
	}
	return out
}

// ComparisonOf names the comparison a built-in scenario is a run of, or "".
func ComparisonOf(id string) string { return index.memberOf[id] }

// IsBuiltin reports whether s is the built-in scenario of its id, unchanged.
func IsBuiltin(s *Scenario) bool {
	b, err := Builtin(s.ID)
	return err == nil && bytes.Equal(b.JSON(), s.JSON())
}

// suggest says where an unknown lesson id may have meant to go: a
// comparison of that id, or the lessons whose ids share the most words
// with it, and how to list them all.
func suggest(id string) string {
	for _, c := range ComparisonList() {
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
	all := fmt.Sprintf("%d lessons, listed by spacetime list", len(index.lessons)+len(index.memberOf))
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
	ids := slices.AppendSeq(slices.Collect(maps.Keys(index.lessons)), maps.Keys(index.memberOf))
	sort.Strings(ids)
	return ids
}

// Default is the scenario the page opens on.
const Default = "snapshot-bank"

// BuiltinTour is the built-in lesson's own guided tour (nil: none, or no
// such lesson), read without parsing the lesson; the caller must not
// change it.
func BuiltinTour(id string) []TourStop {
	if head := index.lessons[id]; head != nil {
		return head.Lesson.Tour
	}
	return nil
}
