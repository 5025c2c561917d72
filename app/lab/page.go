package lab

import (
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"spacetime/app/diagram"
	"spacetime/core/engine"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// Page is what the page shows: one view, or several one above the other
// (a compare view) on a shared time axis, stepped together or apart.
type Page struct {
	Views []*Session
	// Together steps the views as one run: each step forward shows the
	// next event in time among them (every view whose next event is then),
	// and they share one zoom and window.
	Together bool
	// Window is the shared zoom and window when stepping together.
	Window View
	// Text is the text size the learner chose (S, M, L or XL), or "" for
	// the page's default for the screen (see TextSizes).
	Text string
	// Theme is "dark" or "colour-blind", or "" for the light theme.
	Theme string
	// Embed shows the page in a slide, without its header and panels.
	Embed bool
	// Origin is the only origin ("https://slides.example.org", or "null"
	// for slides opened from disk) whose messages drive the page when it
	// is embedded; "" takes any (see DecodeSlideMessage).
	Origin string
}

// TextSizes are the text sizes a page offers, smallest first.
var TextSizes = []string{"S", "M", "L", "XL"}

// Themes are the colour themes a page offers; "" is the light one.
var Themes = []string{"light", "dark", "colour-blind"}

// Compare is the compare view /compare opens on by default: the bank on
// FIFO channels above the same bank without them.
var Compare = []string{"snapshot-bank", "snapshot-nonfifo"}

// OpenPage makes a page of the given sessions.
func OpenPage(views ...*Session) *Page {
	return &Page{Views: views, Together: len(views) > 1}
}

// Query is the page's link: every row of linkParams that has something
// to say, the first pane's parameters unsuffixed and the i-th's with the
// suffix .i.
func (p *Page) Query() url.Values { return writeLink(p) }

// suffix is the suffix of pane i's parameters: none for the first, .2
// for the second.
func suffix(i int) string {
	if i == 0 {
		return ""
	}
	return "." + strconv.Itoa(i+1)
}

// PageFromQuery opens every view a link encodes. compare says the link is
// /compare's, which opens the default comparison when it names no views.
// Each view gets a budget of Bounds' of its own (none, if it is not set),
// as each view the learner adds does, so that the page reopens the links
// it writes: a view past it is shown as far as it got (see
// Session.Stopped).
func PageFromQuery(q url.Values, compare bool) (*Page, error) {
	return pageFromQuery(q, compare, nil)
}

// namesAView reports whether a link names any view's scenario.
func namesAView(q url.Values) bool {
	for key := range q {
		if base, _, _ := strings.Cut(key, "."); base == "s" || base == "sc" {
			return true
		}
	}
	return false
}

// Lessons lists the built-in lessons a link opens, when it opens nothing
// else: no scenario of its own and no inputs (it may flip a lesson's
// channels, which costs what the lesson does). ok is false for any other
// link. A server uses it to know a link's cost before opening it.
func Lessons(q url.Values, compare bool) (ids []string, ok bool) {
	if compare && !namesAView(q) {
		return Compare, true
	}
	for i := range MaxViews {
		sfx := suffix(i)
		if q.Get("sc"+sfx) != "" || q.Get("in"+sfx) != "" {
			return nil, false
		}
		id := q.Get("s" + sfx)
		if id == "" {
			if i == 0 {
				id = scenario.Default
			} else {
				break
			}
		}
		ids = append(ids, id)
	}
	return ids, true
}

// ErrTooMuchWork says a link asks for more work than the budget it was
// opened within allows.
var ErrTooMuchWork = errors.New("this link asks for more work than a prerender may take")

// PageFromQueryWithin is PageFromQuery within a budget of work shared by
// all its views and inputs (see engine.Budget; nil means none). When the
// budget runs out it returns ErrTooMuchWork.
func PageFromQueryWithin(q url.Values, compare bool, budget *engine.Budget) (*Page, error) {
	p, err := pageFromQuery(q, compare, budget)
	if budget.Exhausted() {
		return nil, ErrTooMuchWork
	}
	return p, err
}

func pageFromQuery(q url.Values, compare bool, budget *engine.Budget) (*Page, error) {
	return readLink(q, compare, budget, false)
}

// Notice says, in plain words, which of the page's runs stop before their
// scenarios say they should (they passed the page's bounds), or "".
func (p *Page) Notice() string {
	var out []string
	for _, s := range p.Views {
		if why := s.Stopped(); why != "" {
			out = append(out, why)
		}
	}
	return strings.Join(out, " ")
}

// Forward shows the next event: of every view stepped together, the
// earliest in time (every view whose next event is at that time), or of
// view i alone. It reports whether anything moved.
func (p *Page) Forward(i int) bool {
	if !p.Together {
		return p.Views[i].Forward()
	}
	next, found := sim.Time(0), false
	for _, s := range p.Views {
		if s.step < s.Len() {
			t := s.run.Trace().Records[s.step].Time
			if !found || t < next {
				next, found = t, true
			}
		}
	}
	if !found {
		return false
	}
	for _, s := range p.Views {
		if s.step < s.Len() && s.run.Trace().Records[s.step].Time == next {
			s.step++
		}
	}
	return true
}

// Back undoes Forward: the latest event shown goes (of every view whose
// last event on screen is then).
func (p *Page) Back(i int) bool {
	if !p.Together {
		return p.Views[i].Back()
	}
	last, found := sim.Time(0), false
	for _, s := range p.Views {
		if s.step > 0 {
			t := s.run.Trace().Records[s.step-1].Time
			if !found || t > last {
				last, found = t, true
			}
		}
	}
	if !found {
		return false
	}
	for _, s := range p.Views {
		if s.step > 0 && s.run.Trace().Records[s.step-1].Time == last {
			s.step--
		}
	}
	return true
}

// Len is how many steps the scrubber covers: view i's, or all the views'
// when they step together.
func (p *Page) Len(i int) int {
	if !p.Together {
		return p.Views[i].Len()
	}
	n := 0
	for _, s := range p.Views {
		n += s.Len()
	}
	return n
}

// Position is where the scrubber stands: view i's step, or the steps shown
// of every view together.
func (p *Page) Position(i int) int {
	if !p.Together {
		return p.Views[i].Step()
	}
	n := 0
	for _, s := range p.Views {
		n += s.step
	}
	return n
}

// Seek shows the first k steps of view i, or, stepping together, the
// first k events of all the views merged in time order (views in page
// order where their events are at the same time).
func (p *Page) Seek(i, k int) {
	if !p.Together {
		p.Views[i].Seek(k)
		return
	}
	k = min(max(k, 0), p.Len(0))
	shown := func(s *Session, t sim.Time) int { // steps of s at or before t
		recs := s.run.Trace().Records
		return sort.Search(len(recs), func(j int) bool { return recs[j].Time > t })
	}
	// the smallest time by which at least k events have happened
	var lo, hi sim.Time = 0, 0
	for _, s := range p.Views {
		if n := s.Len(); n > 0 {
			hi = max(hi, s.run.Trace().Records[n-1].Time)
		}
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		total := 0
		for _, s := range p.Views {
			total += shown(s, mid)
		}
		if total >= k {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	// everything before that time, then its events view by view
	left := k
	for _, s := range p.Views {
		s.step = shown(s, lo-1)
		left -= s.step
	}
	for _, s := range p.Views {
		take := min(shown(s, lo)-s.step, max(left, 0))
		s.step += take
		left -= take
	}
}

// SharedWindow is the window every view is drawn in when they step
// together: one zoom, following the latest present among them unless
// pinned, and the whole of the longest run when it fits.
func (p *Page) SharedWindow() View {
	v := p.Window
	if v.Pinned {
		return v
	}
	span := v.span()
	end, now := 0.0, 0.0
	for _, s := range p.Views {
		ix := s.index()
		end, now = max(end, ix.End()), max(now, ix.Now(s.step))
	}
	// framed as one run's window is (diagram.FrameEnd), on the runs'
	// furthest present and end
	if frame := diagram.FrameEnd(now, end); frame <= span {
		return View{Span: frame, Pinned: true, Start: 0}
	}
	t1 := max(now+span*0.05, span)
	return View{Span: span, Pinned: true, Start: t1 - span}
}

// Window is the window view i is drawn in.
func (p *Page) WindowOf(i int) View {
	if p.Together {
		return p.SharedWindow()
	}
	return p.Views[i].View
}

// Scene lays out view i in its window.
func (p *Page) Scene(i int, width, height float64) *diagram.Scene {
	return p.Views[i].Diagram().SceneIn(width, height, p.WindowOf(i))
}

// SetView sets view i's zoom and window, or the shared one.
func (p *Page) SetView(i int, v View) {
	if p.Together {
		p.Window = v
		return
	}
	p.Views[i].View = v
}

// View is view i's zoom and window as the learner set it.
func (p *Page) ViewOf(i int) View {
	if p.Together {
		return p.Window
	}
	return p.Views[i].View
}

// Add puts another view at the bottom of the page.
func (p *Page) Add(s *Session) error {
	if len(p.Views) >= MaxViews {
		return fmt.Errorf("a page holds at most %d views", MaxViews)
	}
	p.Views = append(p.Views, s)
	return nil
}

// Remove takes view i off the page (the last view stays).
func (p *Page) Remove(i int) {
	if len(p.Views) <= 1 || i < 0 || i >= len(p.Views) {
		return
	}
	p.Views = append(p.Views[:i], p.Views[i+1:]...)
	if len(p.Views) == 1 {
		p.Together = false
	}
}

// DrawCost is how many events and messages drawing every view of the page
// visits, diagrams and process graphs, known before drawing: a server
// that draws a link's pictures bounds its work by it.
func (p *Page) DrawCost() int {
	cost := 0
	for i, s := range p.Views {
		w := p.WindowOf(i)
		cost += s.index().Cost(s.step, diagram.Options{Span: w.span(), Pinned: w.Pinned, Start: w.Start})
		if s.Diagram().Topology() != nil {
			cost += s.index().TopologyCost(s.step)
		}
	}
	return cost
}
