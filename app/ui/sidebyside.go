package ui

import (
	"slices"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// comparisonPrefix marks a picker's option that opens a comparison.
const comparisonPrefix = "compare:"

// lessonOptions are a lesson picker's entries: the built-in lessons
// grouped by topic in the course's order, each group by title, and the
// comparisons in a group of their own when withComparisons. selected is
// the id of the lesson shown.
func lessonOptions(selected string, withComparisons bool) []app.UI {
	byTopic := map[string][]scenario.Info{}
	for _, b := range scenario.BuiltinList() {
		byTopic[b.Topic] = append(byTopic[b.Topic], b)
	}
	var out []app.UI
	for _, topic := range append(slices.Clone(scenario.Topics), "") {
		list := byTopic[topic]
		if len(list) == 0 {
			continue
		}
		sort.Slice(list, func(i, j int) bool { return list[i].Title < list[j].Title })
		options := make([]app.UI, len(list))
		for j, b := range list {
			options[j] = option(b.ID, b.Title, b.ID == selected)
		}
		label := topicLabel(topic)
		out = append(out, app.OptGroup().Label("%s", label).Body(options...))
	}
	if withComparisons {
		var options []app.UI
		for _, cmp := range scenario.Comparisons() {
			options = append(options, option(comparisonPrefix+cmp.ID, "Compare: "+cmp.Title, false))
		}
		out = append(out, app.OptGroup().Label("Comparisons, side by side").Body(options...))
	}
	return out
}

// topicLabel is a topic as a picker's group heading: "Mutual exclusion".
func topicLabel(topic string) string {
	if topic == "" {
		return "Other lessons"
	}
	return strings.ToUpper(topic[:1]) + topic[1:]
}

// openComparison replaces the page with a comparison's runs, stepped
// together; it reports whether value named one.
func (c *Lab) openComparison(ctx app.Context, value string) bool {
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

// sideBySide is a compare view's table of every run's figures.
func (c *Lab) sideBySide() app.UI {
	return app.Div().ID("side-by-side").Class("panels side-by-side").Body(panelTable(lab.SideBySide(c.page)))
}
