package lab

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"spacetime/core/sim"
	"spacetime/core/trace"
)

// A quiz turns a lesson into questions: at some steps the page stops
// before the step, asks what it will do, and shows it only once the
// question is answered. The answer is worked out from the run, never
// written into the page before it is given: a Question carries the words
// and the choices, and the session keeps which one is right.

// MaxQuizSteps bounds the steps a quiz link may name.
const MaxQuizSteps = 20

// quizDrawn is how many steps a quiz that names none asks about.
const quizDrawn = 5

// Question is what the page asks before step Step (counted as the page
// counts): the event about to happen, the question and its choices, in
// the order the page shows them.
type Question struct {
	Step    int
	Event   string
	Ask     string
	Choices []string
}

// Quiz is a session's quiz: the steps it asks about, the questions made
// so far (with their answers), and the score. It is off until Start.
type Quiz struct {
	s        *Session
	steps    []int // none: no quiz
	chosen   bool  // the link named the steps
	asked    map[int]*question
	answered map[int]bool
	right    int
}

// Quiz is the session's quiz.
func (s *Session) Quiz() *Quiz { return &s.quiz }

// question is a Question and what the session keeps of it: the right
// choice and why it is right.
type question struct {
	Question
	answer int
	why    string
}

// On reports whether the session is a quiz.
func (q *Quiz) On() bool { return len(q.steps) > 0 }

// Start makes the session a quiz on the given steps (counted as the
// page counts), or, with none, on steps drawn from the run: those where
// an invariant first fails, then others where the acting process's state
// changes, drawn with the scenario's seed. It goes back to the first
// question's step.
func (q *Quiz) Start(steps []int) error {
	s := q.s
	for _, k := range steps {
		if k < 1 || k > s.Len() {
			return fmt.Errorf("a quiz step is from 1 to %d, the run's steps, got %d", s.Len(), k)
		}
	}
	chosen := len(steps) > 0
	if chosen {
		steps = slices.Compact(slices.Sorted(slices.Values(steps)))
	} else {
		steps = q.drawSteps()
	}
	if len(steps) == 0 {
		return fmt.Errorf("this run has no step to ask about")
	}
	q.End()
	s.Seek(min(s.step, steps[0]-1))
	*q = Quiz{s: s, steps: steps, chosen: chosen, asked: map[int]*question{}, answered: map[int]bool{}}
	return nil
}

// End ends the quiz; the run can be stepped freely again.
func (q *Quiz) End() { *q = Quiz{s: q.s} }

// Steps are the steps the quiz asks about (nil: no quiz).
func (q *Quiz) Steps() []int { return q.steps }

// Score is how many questions were answered, and how many rightly.
func (q *Quiz) Score() (answered, right int) { return len(q.answered), q.right }

// gate is the furthest step the session may show: the step before the
// quiz's first unanswered question.
func (q *Quiz) gate() int {
	for _, k := range q.steps {
		if !q.answered[k] {
			return k - 1
		}
	}
	return q.s.run.Len()
}

// Asking is the question the page must ask before it can go on: the
// quiz's next unanswered one, when the page stands just before its step.
func (q *Quiz) Asking() (Question, bool) {
	g := q.gate()
	if !q.On() || q.s.step != g || g >= q.s.run.Len() {
		return Question{}, false
	}
	return q.questionAt(g + 1).Question, true
}

// Answer answers the question asked with the choice at index i (of the
// choices as shown): it says whether it was right, and why, and shows the
// step.
func (q *Quiz) Answer(i int) (right bool, why string, err error) {
	asked, ok := q.Asking()
	if !ok {
		return false, "", fmt.Errorf("no question is asked here")
	}
	at := q.questionAt(asked.Step)
	if i < 0 || i >= len(at.Choices) {
		return false, "", fmt.Errorf("choose from 1 to %d", len(at.Choices))
	}
	right = i == at.answer
	q.answered[at.Step] = true
	if right {
		q.right++
	}
	q.s.step = at.Step
	return right, at.why, nil
}

// RightChoice is the right choice of the question at step k, once it has
// been answered ("" before).
func (q *Quiz) RightChoice(k int) string {
	if !q.answered[k] {
		return ""
	}
	at := q.asked[k]
	return at.Choices[at.answer]
}

// questionAt makes (once) the question about step k.
func (q *Quiz) questionAt(k int) *question {
	if at, ok := q.asked[k]; ok {
		return at
	}
	at := q.makeQuestion(k)
	q.asked[k] = at
	return at
}

// makeQuestion asks about step k: whether an invariant that holds before
// it fails with it; otherwise what the acting process's changed field
// reads after it; otherwise whether every invariant still holds.
func (q *Quiz) makeQuestion(k int) *question {
	s := q.s
	rec := &s.run.Trace().Records[k-1]
	at := &question{Question: Question{Step: k, Event: q.eventBefore(rec)}, why: rec.Caption}
	before, after := s.run.FailuresAt(k-1), s.run.FailuresAt(k)
	for i, f := range after {
		if f.Step == k-1 && before[i].Step < 0 {
			at.Ask = fmt.Sprintf("After it, does “%s” still hold?", f.Name)
			at.Choices = []string{"Yes, it still holds", "No, it fails"}
			at.answer = 1
			at.why = rec.Caption + ". " + f.Detail
			return at
		}
	}
	if name, now, others, ok := q.changedField(rec); ok {
		at.Ask = fmt.Sprintf("After it, what does %s's %s read?", s.scn.Names[rec.Node], name)
		choices := append([]string{now}, others...)
		at.Choices, at.answer = q.shuffle(k, choices)
		return at
	}
	at.Ask = "After it, does an invariant fail that held before?"
	at.Choices = []string{"No, they all still hold", "Yes, one fails"}
	return at
}

// eventBefore says what is about to happen at record rec without what it
// will do: which message arrives where, whose timer fires.
func (q *Quiz) eventBefore(rec *trace.Record) string {
	s := q.s
	names := s.scn.Names
	who := "the network"
	if rec.Node >= 0 {
		who = names[rec.Node]
	}
	switch rec.Kind {
	case trace.Deliver:
		m := &s.run.Trace().Msgs[rec.Msg]
		what := m.Message.Describe()
		if strings.HasPrefix(m.Label, m.Kind) {
			what = m.Label // "ELECTION(6)", not "ELECTION ELECTION(6)"
		}
		return fmt.Sprintf("%s from %s arrives at %s.", what, names[m.From], names[m.To])
	case trace.Timer:
		return fmt.Sprintf("%s's timer %q fires.", who, rec.Tag())
	case trace.Command:
		return fmt.Sprintf("%s is told to %s.", who, rec.Tag())
	case trace.Workload:
		return fmt.Sprintf("%s does a unit of its work.", who)
	case trace.Init:
		return fmt.Sprintf("%s starts.", who)
	}
	return fmt.Sprintf("%s: %s.", who, rec.What())
}

// changedField finds the first field of the acting process that step rec
// changes: its name, what it reads after, and up to three other readings
// (what it read before, and what that field read elsewhere in the run).
func (q *Quiz) changedField(rec *trace.Record) (name, now string, others []string, ok bool) {
	s := q.s
	if rec.Node < 0 || rec.Kind == trace.Fault {
		return "", "", nil, false
	}
	k := rec.Step + 1
	before := s.run.At(k - 1).Fields(rec.Node)
	after := s.run.At(k).Fields(rec.Node)
	for _, f := range after {
		was, found := fieldValue(before, f.Name)
		if found && was == f.Value || f.Value == "" {
			continue
		}
		name, now = f.Name, f.Value
		seen := map[string]bool{now: true}
		add := func(v string) {
			if v != "" && !seen[v] && len(others) < 3 {
				seen[v] = true
				others = append(others, v)
			}
		}
		add(was)
		// what the field read for the other processes, then later on
		st := s.run.At(k)
		for id := range s.scn.Names {
			if v, ok := fieldValue(st.Fields(sim.NodeID(id)), name); ok {
				add(v)
			}
		}
		for j := k + 1; j <= s.run.Len() && len(others) < 3; j += max(1, s.run.Len()/20) {
			if v, ok := fieldValue(s.run.At(j).Fields(rec.Node), name); ok {
				add(v)
			}
		}
		if len(others) == 0 {
			continue // nothing to choose between
		}
		return name, now, others, true
	}
	return "", "", nil, false
}

func fieldValue(fields []sim.Field, name string) (string, bool) {
	for _, f := range fields {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

// shuffle orders the choices (the right one first) as the page shows
// them, the same for every learner of the link, and says where the right
// one went.
func (q *Quiz) shuffle(k int, choices []string) ([]string, int) {
	rng := rand.New(rand.NewPCG(q.s.scn.Seed, uint64(k)))
	order := rng.Perm(len(choices))
	out := make([]string, len(choices))
	answer := 0
	for i, j := range order {
		out[j] = choices[i]
		if i == 0 {
			answer = j
		}
	}
	return out, answer
}

// drawSteps draws the steps a quiz asks about: every step at which an
// invariant first fails, then steps where the acting process's state
// changes, up to quizDrawn, drawn with the scenario's seed, in order (of
// the first 2,000 steps: a quiz is a lesson's, not a long run's).
func (q *Quiz) drawSteps() []int {
	s := q.s
	var steps []int
	for _, f := range s.run.Failures() {
		if f.Step >= 0 && !slices.Contains(steps, f.Step+1) {
			steps = append(steps, f.Step+1)
		}
	}
	// the algorithm's own moments first (a step that annotates: a state
	// recorded, a grant, a vote), then its other steps; never the
	// workload's, whose amounts are drawn at random
	var marked, plain []int
	recs := s.run.Trace().Records
	for k := 1; k <= len(recs) && k <= 2000; k++ {
		rec := &recs[k-1]
		switch {
		case rec.Node < 0 || rec.Kind == trace.Fault || rec.Kind == trace.Init || rec.Kind == trace.Workload || slices.Contains(steps, k):
		case len(rec.Annotations()) > 0:
			marked = append(marked, k)
		default:
			plain = append(plain, k)
		}
	}
	rng := rand.New(rand.NewPCG(s.scn.Seed, 0x9012))
	for _, tier := range [][]int{marked, plain} {
		rng.Shuffle(len(tier), func(i, j int) { tier[i], tier[j] = tier[j], tier[i] })
		for _, k := range tier {
			if len(steps) >= quizDrawn {
				break
			}
			if _, _, _, ok := q.changedField(&recs[k-1]); ok {
				steps = append(steps, k)
			}
		}
	}
	slices.Sort(steps)
	return steps
}

// encode writes the quiz in a link: its chosen steps, or 1.
func (q *Quiz) encode() string {
	if !q.chosen {
		return "1"
	}
	parts := make([]string, len(q.steps))
	for i, k := range q.steps {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, ",")
}

// decodeQuiz reads a link's quiz: 1 for drawn steps, or the steps.
func decodeQuiz(raw string) ([]int, error) {
	if raw == "1" {
		return nil, nil
	}
	parts := strings.Split(raw, ",")
	if len(parts) > MaxQuizSteps {
		return nil, fmt.Errorf("at most %d steps, got %d", MaxQuizSteps, len(parts))
	}
	var steps []int
	for _, p := range parts {
		k, err := strconv.Atoi(p)
		if err != nil || k < 1 {
			return nil, fmt.Errorf("want 1, or steps from 1 separated by commas, got %q", clip(raw))
		}
		steps = append(steps, k)
	}
	return steps, nil
}
