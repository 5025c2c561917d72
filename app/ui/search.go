package ui

import (
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/core/explore"
)

// Search is a pane's search for a schedule that breaks an invariant: its
// button and its progress.
type Search struct {
	app.Compo
	*state
	// Pane is the index of the pane the part belongs to.
	Pane int
	// Rev is the Lab's render count (parts.go).
	Rev int
}

// searching is a pane's search for a schedule that breaks an invariant,
// while it runs: it is worked in slices between the browser's frames, so
// that the page keeps answering, and a newer search or a stop ends it.
type searching struct {
	x    *explore.Search
	from int
	// own says the run's own course breaks what the search looks for, at
	// which step: the search looks for a schedule that differs from it
	own string
	// version is the run's version when the search started: a run the
	// learner changed meanwhile is not the one searched.
	version int
	gen     int
	started time.Time
}

// searchSlice is how long one slice of a search may take before the page
// gets the thread back, and searchPause how long it then waits: a fifth
// of the time goes to the page, so that it keeps painting and answering.
const (
	searchSlice = 40 * time.Millisecond
	searchPause = 10 * time.Millisecond
)

// searchable says whether the pane's run can be searched: it checks an
// invariant and is not the replay of a log.
func (c *Search) searchable() bool {
	i := c.Pane
	spec := c.sess(i).Spec()
	return !spec.Learner.Record && len(spec.Checks.Invariants) > 0
}

// toggleSearch starts the pane's search from where its lesson says (or the
// step on screen), or stops the one under way.
func (c *Search) toggleSearch(ctx app.Context) {
	i := c.Pane
	p := c.panes[i]
	if p.search != nil {
		c.stopSearch("Search stopped: " + p.search.x.Describe() + ".")
		return
	}
	if !c.searchable() {
		return
	}
	c.stopPlaying(i)
	s := c.sess(i)
	from, opts := s.Search().Plan()
	// a run whose own course already breaks what the search looks for (a
	// lesson about a broken rule) would be found again: the search looks
	// for the shortest schedule that differs from it
	own, ownStep, differ := s.Search().OwnBreak(from, opts.Invariant)
	opts.Differ = differ
	x, err := s.Search().Start(from, opts)
	if err != nil {
		p.notice = "Cannot search: " + err.Error()
		return
	}
	p.searchGen++
	p.search = &searching{x: x, from: from, version: s.Run().Version(), gen: p.searchGen, started: time.Now()}
	if differ {
		p.search.own = fmt.Sprintf("This run's own schedule already breaks %q at step %d. ", own, ownStep)
	}
	p.notice = ""
	gen := p.searchGen
	c.ctx.After(searchPause, func(ctx app.Context) { c.searchSlice(ctx, gen) })
}

// stopSearch ends the pane's search, saying why.
func (c *Search) stopSearch(why string) {
	i := c.Pane
	p := c.panes[i]
	p.search = nil
	p.searchGen++
	p.notice = why
}

// searchSlice works the pane's search for one slice, then hands the thread
// back to the page until the next.
func (c *Search) searchSlice(ctx app.Context, gen int) {
	i := c.Pane
	if i >= len(c.panes) {
		return
	}
	p := c.panes[i]
	st := p.search
	if st == nil || st.gen != gen {
		return
	}
	deadline := time.Now().Add(searchSlice)
	more := true
	for more && time.Now().Before(deadline) {
		more = st.x.Work(64)
	}
	if more {
		// only the progress changes: its words are set in place, without
		// rendering the page again for them
		ctx.PreventUpdate()
		if el := app.Window().GetElementByID(p.id("search-status")); el.Truthy() {
			el.Set("textContent", c.searchProgress())
		}
		c.ctx.After(searchPause, func(ctx app.Context) { c.searchSlice(ctx, gen) })
		return
	}
	c.finishSearch(st)
	c.changed(ctx)
}

// finishSearch opens the schedule found as the run's future, at the step
// that breaks the invariant, or says that none was found.
func (c *Search) finishSearch(st *searching) {
	i := c.Pane
	s := c.sess(i)
	took := time.Since(st.started).Seconds()
	p := st.x.Progress()
	v := st.x.Violation()
	if v == nil {
		c.stopSearch(fmt.Sprintf("%s%s (%.1f s, %.0f states a second).", st.own, capitalise(st.x.Describe()), took, float64(p.States)/took))
		return
	}
	if s.Run().Version() != st.version {
		c.stopSearch("The run changed while the search ran: search again.")
		return
	}
	if err := s.Search().Adopt(st.from, v); err != nil {
		c.stopSearch(err.Error())
		return
	}
	chosen := 0
	for _, step := range v.Schedule {
		if step.Chosen {
			chosen++
		}
	}
	found := "Found"
	if st.own != "" {
		found = st.own + "The shortest schedule that differs from it"
	}
	c.stopSearch(fmt.Sprintf("%s: %q fails at step %d, %d steps after step %d; %d of them are the search's choices, the rest the run's own course (%d states in %.1f s). Step back through it.",
		found, v.Invariant, v.Step, len(v.Schedule), st.from, chosen, p.States, took))
}

// searchButton starts and stops the pane's search.
func (c *Search) searchButton() app.UI {
	i := c.Pane
	p := c.panes[i]
	if p.search != nil {
		return app.Button().ID(p.id("search")).Class("searching").Title("Stop the search (B)").Text("Stop search").
			OnClick(func(ctx app.Context, e app.Event) { c.toggleSearch(ctx); c.changed(ctx) }, app.EventScope(p.n, i))
	}
	return app.Button().ID(p.id("search")).Title("Search every schedule from here for one that breaks an invariant, and open it (B)").Text("Find the bug").
		OnClick(func(ctx app.Context, e app.Event) { c.toggleSearch(ctx); c.changed(ctx) }, app.EventScope(p.n, i))
}

// Render draws the pane's search's progress, while it runs.
func (c *Search) Render() app.UI {
	i := c.Pane
	p := c.panes[i]
	// a p, not a div as the notices are: the slices set its words in
	// place, so the element must be replaced, not reused, once it goes
	return app.P().ID(p.id("search-status")).Class("notice search").Attr("role", "status").Text(c.searchProgress())
}

// searchProgress says how far the pane's search has gone.
func (c *Search) searchProgress() string {
	i := c.Pane
	st := c.panes[i].search
	pr := st.x.Progress()
	differs := ""
	if st.own != "" {
		differs = " for a schedule that differs from it"
	}
	return fmt.Sprintf("%sSearching from step %d%s: %d states, every schedule of up to %d steps tried…", st.own, st.from, differs, pr.States, pr.Depth)
}

// capitalise writes a sentence's first letter as a capital.
func capitalise(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
