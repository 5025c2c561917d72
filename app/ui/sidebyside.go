package ui

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// Comparison is a compare view's table of every run's figures.
type Comparison struct {
	app.Compo
	*state
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// comparisonPrefix marks a picker's option that opens a comparison.
const comparisonPrefix = "compare:"

// pick is one entry of a lesson picker: the value it opens (a lesson's id,
// or comparisonPrefix and a comparison's id), its title and its group.
type pick struct {
	value, title, group string
}

// picks are a lesson picker's entries: the built-in lessons grouped by
// topic in the course's order, each group by title, and the comparisons in
// a group of their own when withComparisons. The lessons are built in, so
// the lists are made once (every render of the header reads them).
func picks(withComparisons bool) []pick {
	if withComparisons {
		return pickLists[1]()
	}
	return pickLists[0]()
}

var pickLists = [2]func() []pick{
	sync.OnceValue(func() []pick { return makePicks(false) }),
	sync.OnceValue(func() []pick { return makePicks(true) }),
}

// makePicks lists a picker's entries (picks).
func makePicks(withComparisons bool) []pick {
	byTopic := map[string][]scenario.Info{}
	for _, b := range scenario.BuiltinList() {
		byTopic[b.Topic] = append(byTopic[b.Topic], b)
	}
	var out []pick
	for _, topic := range append(slices.Clone(scenario.Topics()), "") {
		list := byTopic[topic]
		sort.Slice(list, func(i, j int) bool { return list[i].Title < list[j].Title })
		for _, b := range list {
			out = append(out, pick{value: b.ID, title: b.Title, group: topicLabel(topic)})
		}
	}
	if withComparisons {
		for _, cmp := range scenario.ComparisonList() {
			out = append(out, pick{value: comparisonPrefix + cmp.ID, title: "Compare: " + cmp.Title, group: "Comparisons, side by side"})
		}
	}
	return out
}

// lessonOptions are a lesson picker's options, in groups: the entries of
// picks that match query (all of them for ""), and the lesson shown, whose
// id is selected, whether it matches or not.
func lessonOptions(selected string, withComparisons bool, query string) []app.UI {
	var out []app.UI
	var group string
	var options []app.UI
	flush := func() {
		if len(options) > 0 {
			out = append(out, app.OptGroup().Label("%s", attrText(group)).Body(options...))
		}
		options = nil
	}
	for _, p := range picks(withComparisons) {
		if p.group != group {
			flush()
			group = p.group
		}
		if p.value == selected || p.matches(query) {
			options = append(options, option(p.value, p.title, p.value == selected))
		}
	}
	flush()
	return out
}

// matches says whether every word of query is in the entry's title, id or
// group, whatever the case: "ring crash", "fencing", "Mutual".
func (p pick) matches(query string) bool {
	hay := strings.ToLower(p.title + " " + p.value + " " + p.group)
	for _, word := range strings.Fields(strings.ToLower(query)) {
		if !strings.Contains(hay, word) {
			return false
		}
	}
	return true
}

// topicLabel is a topic as a picker's group heading: "Mutual exclusion".
func topicLabel(topic string) string {
	if topic == "" {
		return "Other lessons"
	}
	return scenario.TopicHeading(topic)
}

// openComparison replaces the page with a comparison's runs, stepped
// together; it reports whether value named one.
func (c *Header) openComparison(ctx app.Context, value string) bool {
	id, ok := strings.CutPrefix(value, comparisonPrefix)
	if !ok {
		return false
	}
	page, err := lab.OpenComparison(id)
	if err != nil {
		c.problem = err.Error()
		return true
	}
	for _, p := range c.panes {
		p.playing = false
	}
	c.setPage(page)
	c.focus = 0
	c.problem = ""
	c.changed(ctx)
	return true
}

// Render draws a compare view's table of every run's figures. In the
// grid, a run that fails has its verdict whole under its row: a grid
// cell is too narrow to hold it beside the diagram, the table's width
// holds it in a line or two (the cell leads its caption with a ✗).
func (c *Comparison) Render() app.UI {
	panel := lab.SideBySide(c.page)
	var verdicts func(int) app.UI
	if c.gridded() {
		verdicts = func(i int) app.UI {
			j := c.page.Views[i].Verdicts().Now()
			if j.Good() {
				return nil
			}
			return app.Tr().Class("run-verdict").Body(app.Td().ColSpan(len(panel.Columns)).Body(
				app.Div().ID(c.panes[i].id("run-verdict")).Class("verdict bad").Body(
					append([]app.UI{app.Strong().Textf("Run %d ", i+1)}, verdictParts(j)...)...)))
		}
	}
	return app.Div().ID("side-by-side").Class("panels side-by-side").Title(attrText(panel.Note)).Body(panelTableWith(panel, verdicts))
}
