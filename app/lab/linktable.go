package lab

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"spacetime/app/diagram"
	"spacetime/core/engine"
	"spacetime/core/scenario"
)

// linkParam is one row of the link format: a parameter, where it belongs,
// how the page reads it (with its bounds and its words when it refuses
// one) and how the page writes it. The state a link can see is the Page:
// its own fields and each pane's Session; every row reads into it and
// writes from it, so that the reader (PageFromQuery), the writer
// (Page.Query) and the checks of ParseLinkQuery and checkParams are the
// same list, linkParams.
type linkParam struct {
	// name is how the link spells it; a pane's parameter takes the
	// suffix .2 to .6 for the second to the sixth pane (k.2=).
	name string
	// pane says the parameter is each pane's (k, k.2) rather than the
	// page's, given once (embed).
	pane bool
	// says is what it holds, in README's list of the link's parameters.
	says string
	// read sets what the parameter says on the page or pane being read;
	// raw is "" when the link does not give it (the default). Its error
	// says what is wrong with the value, and the reader puts the
	// parameter's name before it, unless it is a runError.
	read func(r *linkReading, raw string) error
	// write is the parameter's text for pane s of page p (s is nil for a
	// page's parameter), or "" to leave it out.
	write func(p *Page, s *Session) string
}

// linkParams is the link format, in the order a link is read: the
// page's parameters before the panes', which follow one another, are read
// before the panes; the panes' in order (a pane's scenario, then its
// inputs, which run it, then what it shows); then the page's parameters
// that depend on how many panes it has. Adding a parameter is adding a
// row here, and the field it fills.
var linkParams = []linkParam{
	{name: "v", says: "the link format's version, `2`; a link of version `1`, or without `v`, counts processes from 0", read: readVersion,
		write: func(*Page, *Session) string { return URLVersion }},
	{name: "embed", says: "`1`: the page in a slide, without its header and panels (and a pane that names no step opens where its lesson is under way); `0` or none: the whole page", read: readEmbed,
		write: func(p *Page, _ *Session) string { return pick(p.Embed, "1", "") }},

	{name: "s", pane: true, says: "a built-in lesson (the default lesson when the pane names none)", read: readLesson,
		write: func(_ *Page, s *Session) string { return pick(s.link != linkPacked, s.scn.ID, "") }},
	{name: "sc", pane: true, says: "any other scenario: its JSON deflated, in base64url (at most 1 MiB inflated)", read: readPacked,
		write: func(_ *Page, s *Session) string {
			if s.link != linkPacked {
				return "" // and nothing packed: the link is written at every step
			}
			return s.ScenarioFile().packed()
		}},
	{name: "code", pane: true, says: "a program run instead of the lesson's algorithm (Python, see Write it yourself): its text deflated, in base64url (at most 64 KiB inflated)", read: readCode,
		write: func(_ *Page, s *Session) string {
			if s.link != linkCoded {
				return ""
			}
			return s.ScenarioFile().packedCode()
		}},
	{name: "fifo", pane: true, says: "`0` or `1`: the lesson with its channels switched (the FIFO toggle)", read: readFIFO,
		write: func(_ *Page, s *Session) string { return pick(s.link == linkFlipped, pick(s.scn.FIFO(), "1", "0"), "") }},
	{name: "in", pane: true, says: "the learner's inputs, such as `12d5,30c2` (at most 5,000; see `EncodeInputs`)", read: readInputs,
		write: func(_ *Page, s *Session) string { return EncodeInputs(s.run.Inputs()) }},
	{name: "axis", pane: true, says: "`lamport`: the diagram's axis is Lamport time (`time` by default)", read: readAxis,
		write: func(_ *Page, s *Session) string { return pick(s.Axis == diagram.AxisLamport, string(s.Axis), "") }},
	{name: "span", pane: true, says: "the zoom: how much of the axis is visible, from 4 to 1,000,000", read: readSpan(func(r *linkReading) *View { return &r.sess.View }),
		write: func(_ *Page, s *Session) string { return writeSpan(s.View) }},
	{name: "at", pane: true, says: "the window pinned at this point of the axis, within ±1e9 (else it follows the present)", read: readAt(func(r *linkReading) *View { return &r.sess.View }),
		write: func(_ *Page, s *Session) string { return writeAt(s.View) }},
	{name: "k", pane: true, says: "the step on screen; past the run's end, its last", read: readStep,
		write: func(_ *Page, s *Session) string { return strconv.Itoa(s.step) }},
	// a selection past the step is kept for when the run comes back to
	// it, but not shown: the link, which reads only events on screen,
	// holds what is
	{name: "sel", pane: true, says: "the event (step) whose causal past and future show, one on screen", read: readSelected,
		write: func(_ *Page, s *Session) string {
			return pick(s.causality.selected >= 0 && s.causality.selected < s.step, strconv.Itoa(s.causality.selected), "")
		}},
	{name: "sel2", pane: true, says: "an event on screen compared with the selected one", read: readOther,
		write: func(_ *Page, s *Session) string {
			return pick(s.causality.selected >= 0 && s.causality.selected < s.step && s.causality.other >= 0 && s.causality.other < s.step, strconv.Itoa(s.causality.other), "")
		}},
	{name: "stamps", pane: true, says: "`lamport` or `vector`: every event's timestamp or vector clock shown", read: readStamps,
		write: func(_ *Page, s *Session) string { return string(s.Stamps) }},
	{name: "cut", pane: true, says: "the cut tool's points, one a process (`_`: not placed), such as `12.5,_,30`", read: readCut,
		write: func(_ *Page, s *Session) string { return pick(s.cut.on, encodeCut(s.cut.points), "") }},
	{name: "hide", pane: true, says: "processes left out of the diagram, by number from 1, such as `3,5` (at least one stays)", read: readFilter,
		write: func(_ *Page, s *Session) string { return s.filter.encode() }},
	{name: "tour", pane: true, says: "the stop of the lesson's guided tour, from 1", read: readTour,
		write: func(_ *Page, s *Session) string { return pick(s.tour.stop > 0, strconv.Itoa(s.tour.stop), "") }},
	{name: "quiz", pane: true, says: "`1`: a quiz on steps drawn from the run; or the steps it asks about, such as `9,43`", read: readQuiz,
		write: func(_ *Page, s *Session) string { return pick(s.quiz.On(), s.quiz.encode(), "") }},

	{name: "steps", says: "`apart`: the panes step one by one (`together` by default)", read: readSteps,
		write: func(p *Page, _ *Session) string { return pick(len(p.Views) > 1 && !p.Together, "apart", "") }},
	{name: "span.shared", says: "the zoom of panes stepped together", read: readSharedWindow("span", readSpan(func(r *linkReading) *View { return &r.page.Window })),
		write: func(p *Page, _ *Session) string { return pick(len(p.Views) > 1 && p.Together, writeSpan(p.Window), "") }},
	{name: "at.shared", says: "where the window of panes stepped together is pinned", read: readSharedWindow("at", readAt(func(r *linkReading) *View { return &r.page.Window })),
		write: func(p *Page, _ *Session) string { return pick(len(p.Views) > 1 && p.Together, writeAt(p.Window), "") }},
	{name: "text", says: "the text size: `S`, `M`, `L` or `XL` (else the screen's)", read: readText,
		write: func(p *Page, _ *Session) string { return p.Text }},
	{name: "theme", says: "`dark` or `colour-blind` (`light` by default)", read: readTheme,
		write: func(p *Page, _ *Session) string { return p.Theme }},
	{name: "origin", says: "the only site whose messages drive an embedded page, such as `https://slides.example.org` (`null`: slides opened from disk)", read: readOrigin,
		write: func(p *Page, _ *Session) string { return p.Origin }},
}

// linkReading is a link being read: the page so far, and the pane being
// read with what its rows have found.
type linkReading struct {
	q       url.Values
	version int
	budget  *engine.Budget
	page    *Page
	// suffix is the pane's (".2"), and scn and inputs what its first rows
	// read; sess is its session once its inputs have run it, and stopped
	// says the run passed its budget.
	suffix  string
	scn     *scenario.Scenario
	inputs  []engine.Input
	sess    *Session
	stopped bool
}

// runError is a pane's run failing: its words are the run's, not a
// parameter's.
type runError struct{ error }

func (e runError) Unwrap() error { return e.error }

// get is what the link gives for the pane's parameter name.
func (r *linkReading) get(name string) string { return r.q.Get(name + r.suffix) }

// param names the pane's parameter as an error quotes it.
func (r *linkReading) param(name string) string {
	return fmt.Sprintf("link parameter %q", name+r.suffix)
}

// readRow reads one row for the page, or the pane of r.suffix.
func (r *linkReading) readRow(row linkParam) error {
	key := row.name
	if row.pane {
		key += r.suffix
	}
	err := row.read(r, r.q.Get(key))
	if err == nil {
		return nil
	}
	var bare runError
	if errors.As(err, &bare) {
		return bare.error
	}
	return fmt.Errorf("link parameter %q: %w", key, err)
}

// readPane reads every pane row for the pane of suffix.
func (r *linkReading) readPane(suffix string) (*Session, error) {
	r.suffix, r.scn, r.inputs, r.sess, r.stopped = suffix, nil, nil, nil, false
	for _, row := range linkParams {
		if row.pane {
			if err := r.readRow(row); err != nil {
				return nil, err
			}
		}
	}
	return r.sess, nil
}

// readLink reads a link's page: its parameters and each pane's, in the
// table's order. compare says the link is /compare's; firstOnly reads the
// page's parameters before the panes and the first pane alone (FromQuery).
func readLink(q url.Values, compare bool, budget *engine.Budget, firstOnly bool) (*Page, error) {
	if err := checkParams(q, compare); err != nil {
		return nil, err
	}
	r := &linkReading{q: q, budget: budget, page: &Page{}}
	panesRead := false
	for _, row := range linkParams {
		if !row.pane {
			if err := r.readRow(row); err != nil {
				return nil, err
			}
			continue
		}
		if panesRead {
			continue
		}
		panesRead = true
		if err := r.readPanes(compare, firstOnly); err != nil {
			return nil, err
		}
		if firstOnly {
			return r.page, nil
		}
	}
	return r.page, nil
}

// readPanes opens every pane the link names (/compare's default
// comparison when it names none).
func (r *linkReading) readPanes(compare, firstOnly bool) error {
	p := r.page
	if compare && !namesAView(r.q) {
		for _, id := range Compare {
			s, err := scenario.Builtin(id)
			if err != nil {
				return err
			}
			v, err := OpenWithin(s, r.budget)
			if err != nil {
				return err
			}
			p.Views = append(p.Views, v)
		}
		return nil
	}
	for i := 0; ; i++ {
		sfx := suffix(i)
		if i > 0 && r.q.Get("s"+sfx) == "" && r.q.Get("sc"+sfx) == "" {
			return nil
		}
		if i >= MaxViews {
			return fmt.Errorf("link parameter %q: a page holds at most %d views", "s"+sfx, MaxViews)
		}
		s, err := r.readPane(sfx)
		if err != nil {
			return err
		}
		p.Views = append(p.Views, s)
		if firstOnly {
			return nil
		}
	}
}

// writeLink is the link of page p: every row's text that is not "",
// a pane's with its suffix.
func writeLink(p *Page) url.Values {
	q := url.Values{}
	for _, row := range linkParams {
		if !row.pane {
			if text := row.write(p, nil); text != "" {
				q.Set(row.name, text)
			}
			continue
		}
		for i, s := range p.Views {
			if text := row.write(p, s); text != "" {
				q.Set(row.name+suffix(i), text)
			}
		}
	}
	return q
}

// isLinkParam reports whether key is one of the link's parameters (a
// pane's, with or without a suffix, or the page's) rather than another's.
func isLinkParam(key string) bool {
	_, ok := linkParamOf(key)
	return ok
}

// linkParamOf is the row of a link parameter's key (k.2's is k's),
// whatever its suffix says, or false when key is not the link's.
func linkParamOf(key string) (linkParam, bool) {
	for _, row := range linkParams {
		if !row.pane && row.name == key {
			return row, true
		}
	}
	base, _, _ := strings.Cut(key, ".")
	for _, row := range linkParams {
		if row.pane && row.name == base {
			return row, true
		}
	}
	return linkParam{}, false
}

// checkParams refuses what a link says that would otherwise be silently
// dropped: a parameter given twice (which value was meant?), a pane's
// parameter for a pane the link does not name (the first pane may be the
// default lesson; the others must be named in order), a pane's parameter
// on /compare's default comparison, which names no pane, and a parameter
// in capitals.
func checkParams(q url.Values, compare bool) error {
	named := namesAView(q)
	for _, key := range slices.Sorted(maps.Keys(q)) {
		row, ok := linkParamOf(key)
		switch {
		case !ok:
			if own := strings.ToLower(key); own != key && isLinkParam(own) {
				// a tracker's are not spelt so; a slide author's "Embed=1"
				// would be dropped
				return fmt.Errorf("link parameter %q: the link's parameters are in lower case: want %q", clip(key), own)
			}
			continue // not the link's
		case len(q[key]) > 1:
			return fmt.Errorf("link parameter %q is given %d times: give it once", clip(key), len(q[key]))
		case !row.pane:
			continue
		case compare && !named:
			return fmt.Errorf("link parameter %q: /compare without \"s\" opens its default comparison, which takes no view's parameters: name the views (s=…&s.2=…) to set them", clip(key))
		}
		if err := checkPane(q, key); err != nil {
			return err
		}
	}
	return nil
}

// checkPane refuses a pane's parameter key whose suffix names no pane, or
// a pane the link does not name (nor every pane before it).
func checkPane(q url.Values, key string) error {
	_, sfx, _ := strings.Cut(key, ".")
	pane := 1
	if sfx != "" {
		n, err := strconv.Atoi(sfx)
		if err != nil || n < 2 || n > MaxViews || strconv.Itoa(n) != sfx {
			return fmt.Errorf("link parameter %q: a view's parameter ends in .2 to .%d (its view), got %q", clip(key), MaxViews, "."+clip(sfx))
		}
		pane = n
	}
	for v := 2; v <= pane; v++ {
		if sv := suffix(v - 1); q.Get("s"+sv) == "" && q.Get("sc"+sv) == "" {
			return fmt.Errorf("link parameter %q: the link names no view %d (no %q or %q)", clip(key), v, "s"+sv, "sc"+sv)
		}
	}
	return nil
}

// maxOwnParams is how many parameters a link of this Spacetime may hold:
// the page's, and every pane's.
func maxOwnParams() int {
	n := 0
	for _, row := range linkParams {
		n += pick(row.pane, MaxViews, 1)
	}
	return n
}

// pick is yes when cond holds, else no. Both are computed first: a row
// whose value costs (a packed document) tests its condition itself.
func pick[T any](cond bool, yes, no T) T {
	if cond {
		return yes
	}
	return no
}

// The rows' readers, in the table's order.

func readVersion(r *linkReading, raw string) error {
	switch raw {
	case URLVersion:
		r.version = 2
	case "", "1":
		// the first version's links all said v=1; a link without it was
		// written by hand for that version
		r.version = 1
	default:
		return fmt.Errorf("this link uses format %q; this Spacetime reads formats 1 and %s", clip(raw), URLVersion)
	}
	return nil
}

func readEmbed(r *linkReading, raw string) error {
	switch raw {
	case "", "0", "1":
		r.page.Embed = raw == "1"
	default:
		// embed=true would show the whole page in a slide, without a word
		return fmt.Errorf("want 1 (the page without its header and panels, for a slide) or 0, got %q", clip(raw))
	}
	return nil
}

func readLesson(r *linkReading, raw string) error {
	var err error
	switch {
	case raw != "" && r.get("sc") != "":
		// which was meant? the page writes one or the other
		return fmt.Errorf("a view names its scenario once, by %q (a lesson) or by %q (a packed scenario), and this link gives both", "s"+r.suffix, "sc"+r.suffix)
	case raw != "":
		r.scn, err = scenario.Builtin(raw)
	case r.get("sc") == "":
		r.scn, err = scenario.Builtin(scenario.Default)
	}
	return err
}

func readPacked(r *linkReading, raw string) error {
	if raw == "" {
		return nil
	}
	var err error
	r.scn, err = unpackScenario(raw, r.version)
	return err
}

// CodeQuery is the link of a built-in lesson run by a program, as the
// code row writes it: the lesson's id and the program packed (deflated,
// base64url). "Open as code" gives a lesson's port so, to the Write view.
func CodeQuery(lesson, code string) url.Values {
	return url.Values{"v": {URLVersion}, "s": {lesson}, "code": {pack([]byte(code))}}
}

// readCode runs the pane's lesson by a program.
func readCode(r *linkReading, raw string) error {
	if raw == "" {
		return nil
	}
	if r.get("sc") != "" {
		return fmt.Errorf("a packed scenario (%q) holds its own program: give the program with a lesson (%q), or alone", "sc"+r.suffix, "s"+r.suffix)
	}
	code, err := unpackCode(raw)
	if err != nil {
		return err
	}
	r.scn = r.scn.WithProgram(scenario.ProgramAlgorithm, code)
	return nil
}

func readFIFO(r *linkReading, raw string) error {
	switch raw {
	case "":
	case "0", "1":
		r.scn = r.scn.WithFIFO(raw == "1")
	default:
		return fmt.Errorf("want 0 or 1 (FIFO channels off or on), got %q", clip(raw))
	}
	return nil
}

// readInputs reads the pane's inputs and runs its scenario with them.
func readInputs(r *linkReading, raw string) error {
	// compiled first: the inputs are read against the plan's algorithm (a
	// learner's program's own commands), and a program is compiled once
	plan, err := r.scn.Compile()
	if err != nil {
		return runError{err}
	}
	if raw != "" {
		inputs, err := decodeInputs(raw, plan.Spec(), len(r.scn.Names), r.version)
		if err != nil {
			return err
		}
		r.inputs = inputs
	}
	sess, inErr, err := openWith(plan, r.budget, r.inputs)
	if err != nil {
		return runError{err}
	}
	r.sess = sess
	// inputs past where a bounded run stopped cannot be shown; the session
	// says where it stopped
	r.stopped = sess.run.Stopped() == engine.StoppedBudget
	if inErr != nil && !(r.stopped && errors.Is(inErr, engine.ErrPastTheEnd)) {
		return inErr
	}
	return nil
}

func readAxis(r *linkReading, raw string) error {
	switch raw {
	case "", string(diagram.AxisTime):
	case string(diagram.AxisLamport):
		r.sess.Axis = diagram.AxisLamport
	default:
		return fmt.Errorf("want time or lamport, got %q", clip(raw))
	}
	return nil
}

// readSpan reads a window's zoom into the window of r that window gives.
func readSpan(window func(r *linkReading) *View) func(r *linkReading, raw string) error {
	return func(r *linkReading, raw string) error {
		if raw == "" {
			return nil
		}
		span, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(span) || span < MinSpan || span > MaxSpan {
			return fmt.Errorf("want a zoom from %d to %d, got %q", MinSpan, MaxSpan, clip(raw))
		}
		window(r).Span = span
		return nil
	}
}

// readAt reads where a window is pinned into the window of r that window
// gives.
func readAt(window func(r *linkReading) *View) func(r *linkReading, raw string) error {
	return func(r *linkReading, raw string) error {
		if raw == "" {
			return nil
		}
		at, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(at) || math.Abs(at) > MaxAt {
			return fmt.Errorf("want a point of the axis from %g to %g, got %q", -MaxAt, MaxAt, clip(raw))
		}
		w := window(r)
		w.Pinned, w.Start = true, at
		return nil
	}
}

func writeSpan(v View) string {
	return pick(v.Span > 0, strconv.FormatFloat(v.Span, 'g', 6, 64), "")
}

func writeAt(v View) string {
	return pick(v.Pinned, strconv.FormatFloat(v.Start, 'g', 8, 64), "")
}

func readStep(r *linkReading, raw string) error {
	s := r.sess
	if raw == "" {
		if r.page.Embed {
			// a slide that names no step shows the lesson under way
			s.step = s.OpeningStep()
		}
		return nil
	}
	k, err := strconv.Atoi(raw)
	if err != nil || k < 0 {
		return fmt.Errorf("want a step number, got %q", clip(raw))
	}
	if k > s.Len() && !r.stopped {
		// the lesson is what the link is about: open it, at its end
		s.LinkNote = fmt.Sprintf("The link asks for step %d, past the end of this run (%d steps): it is shown at its last step.", k, s.Len())
	}
	s.step = min(k, s.Len())
	return nil
}

// event reads an event on screen; one past where a bounded run stopped is
// none (-1).
func (r *linkReading) event(raw string) (int, error) {
	s := r.sess
	k, err := strconv.Atoi(raw)
	switch {
	case err == nil && r.stopped && k >= s.step:
		return -1, nil
	case err != nil || k < 0 || k >= s.step:
		return 0, fmt.Errorf("want an event on screen, a step from 0 to %d, got %q", s.step-1, clip(raw))
	case s.run.Trace().Records[k].Node < 0:
		return 0, fmt.Errorf("step %d is a change of the whole network, not an event of a process", k)
	}
	return k, nil
}

func readSelected(r *linkReading, raw string) error {
	if raw == "" {
		return nil
	}
	sel, err := r.event(raw)
	if err != nil {
		return err
	}
	r.sess.causality.selected = sel
	return nil
}

func readOther(r *linkReading, raw string) error {
	s := r.sess
	if raw == "" || r.stopped && s.causality.selected < 0 {
		return nil
	}
	if s.causality.selected < 0 {
		return fmt.Errorf("an event compared with the selected one needs %s too", r.param("sel"))
	}
	other, err := r.event(raw)
	if err != nil {
		return err
	}
	if other == s.causality.selected && other >= 0 {
		return fmt.Errorf("want another event than the selected one (%s), got the same step %d", r.param("sel"), other)
	}
	s.causality.other = other
	return nil
}

func readStamps(r *linkReading, raw string) error {
	switch st := diagram.Stamps(raw); st {
	case diagram.StampsNone, diagram.StampsLamport, diagram.StampsVector:
		r.sess.Stamps = st
	default:
		return fmt.Errorf("want lamport or vector, got %q", clip(raw))
	}
	return nil
}

func readCut(r *linkReading, raw string) error {
	if raw == "" {
		return nil
	}
	points, err := decodeCut(raw, len(r.sess.scn.Names))
	if err != nil {
		return err
	}
	r.sess.cut.on, r.sess.cut.points = true, points
	return nil
}

func readTour(r *linkReading, raw string) error {
	if raw == "" {
		return nil
	}
	s := r.sess
	n, err := strconv.Atoi(raw)
	stops := len(s.Tour().Stops())
	switch {
	case stops == 0:
		return fmt.Errorf("this lesson has no tour")
	case err != nil || n < 1 || n > stops:
		return fmt.Errorf("want a stop of the lesson's tour, from 1 to %d, got %q", stops, clip(raw))
	}
	// the stop's step, unless the link names its own (and its selection
	// and the event compared with it, which the stop's would replace)
	step, sel, other := s.step, s.causality.selected, s.causality.other
	s.Tour().GoTo(n)
	if r.get("k") != "" {
		s.step, s.causality.selected, s.causality.other = step, sel, other
	}
	return nil
}

func readQuiz(r *linkReading, raw string) error {
	if raw == "" {
		return nil
	}
	steps, err := decodeQuiz(raw)
	if err != nil {
		return err
	}
	// a quiz's link opens before its first question: what comes after is
	// the learner's to predict
	return r.sess.Quiz().Start(steps)
}

func readSteps(r *linkReading, raw string) error {
	p := r.page
	switch raw {
	case "", "together":
		p.Together = len(p.Views) > 1
	case "apart":
	default:
		return fmt.Errorf("want together or apart, got %q", clip(raw))
	}
	return nil
}

// readSharedWindow reads the parameter of the panes' shared window that
// read reads (own names the panes' own), which is drawn, and written
// back, only when several panes step together.
func readSharedWindow(own string, read func(r *linkReading, raw string) error) func(r *linkReading, raw string) error {
	return func(r *linkReading, raw string) error {
		if err := read(r, raw); err != nil || raw == "" {
			return err
		}
		switch p := r.page; {
		case p.Together:
			return nil
		case len(p.Views) == 1:
			return fmt.Errorf("the views' shared window is for a page of several views stepped together, and this page has one (its own is %q)", own)
		default:
			return fmt.Errorf("the views' shared window is for views stepped together, and this link steps them apart (steps=apart): give each view's own (%q, %q…)", own, own+".2")
		}
	}
}

func readText(r *linkReading, raw string) error {
	if raw != "" && !slices.Contains(TextSizes, raw) {
		return fmt.Errorf("want one of %s, got %q", strings.Join(TextSizes, ", "), clip(raw))
	}
	r.page.Text = raw
	return nil
}

func readTheme(r *linkReading, raw string) error {
	switch raw {
	case "", "light":
	case "dark", "colour-blind":
		r.page.Theme = raw
	default:
		return fmt.Errorf("want one of %s, got %q", strings.Join(Themes, ", "), clip(raw))
	}
	return nil
}

func readOrigin(r *linkReading, raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if raw != "null" && (err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "") {
		return fmt.Errorf("want the slides' origin, such as https://slides.example.org (or null for slides opened from disk), got %q", clip(raw))
	}
	r.page.Origin = strings.TrimSuffix(raw, "/")
	return nil
}
