package lab

import (
	"fmt"
	"strings"

	"spacetime/core/algo/all"
	"spacetime/core/report"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// OpenComparison opens a built-in comparison: a page of its runs, one view
// each, stepped together.
func OpenComparison(id string) (*Page, error) {
	c, ok := scenario.LookupComparison(id)
	if !ok {
		return nil, fmt.Errorf("no built-in comparison %q", id)
	}
	runs, err := c.Members()
	if err != nil {
		return nil, err
	}
	views := make([]*Session, 0, len(runs))
	for _, s := range runs {
		sess, err := Open(s)
		if err != nil {
			return nil, err
		}
		views = append(views, sess)
	}
	return OpenPage(views...), nil
}

// SideBySide is the page's table of its runs' figures at the steps on
// screen: a row per view, with its message count and every metric that
// all the views' algorithms report (for mutual exclusion: entries,
// messages per entry, waiting time, synchronisation delay, deadlock).
func SideBySide(p *Page) sim.Panel {
	reports := make([]*report.Report, len(p.Views))
	for i, v := range p.Views {
		reports[i] = v.Report()
	}
	var names []string
	if len(reports) > 0 {
	metric:
		for _, m := range reports[0].MetricList() {
			for _, r := range reports[1:] {
				if _, ok := r.Metrics[m.Name]; !ok {
					continue metric
				}
			}
			names = append(names, m.Name)
		}
	}
	panel := sim.Panel{Title: "Side by side", Note: "each run's figures at the step it shows", Columns: []string{"run", "time", "messages"}}
	for _, n := range names {
		panel.Columns = append(panel.Columns, strings.ReplaceAll(n, "_", " "))
	}
	// runs of different algorithms go by the algorithm's name, runs of one
	// algorithm (with and without fencing) by their lessons', and a lesson
	// switched on the page (epochs on) says so
	seen, same := map[string]bool{}, false
	for _, r := range reports {
		same = same || seen[r.Algorithm]
		seen[r.Algorithm] = true
	}
	for i, r := range reports {
		title := r.Algorithm
		if spec, ok := all.Lookup(r.Algorithm); ok && !same {
			title = spec.Title
		}
		if same {
			title = p.Views[i].Scenario().Title
			if brief := p.Views[i].Switches().InBrief(); len(brief) > 0 {
				title += " (" + strings.Join(brief, ", ") + ")"
			}
		}
		row := sim.Row{Cells: []string{title, fmt.Sprint(p.Views[i].Now()), fmt.Sprint(r.Messages.Total)}}
		for _, n := range names {
			row.Cells = append(row.Cells, report.FormatValue(r.Metrics[n]))
		}
		panel.Rows = append(panel.Rows, row)
	}
	return panel
}

// Caption is view i's caption. At the start, a run whose description the
// first view already shows (the runs of one comparison share it) says
// what its algorithm does instead, so that the page does not repeat one
// text in every pane.
func (p *Page) Caption(i int) string {
	v := p.Views[i]
	if i > 0 && v.Step() == 0 && v.Scenario().Description != "" && v.Scenario().Description == p.Views[0].Scenario().Description {
		return v.Spec().Title + ": " + v.Spec().Summary
	}
	return v.Caption()
}
