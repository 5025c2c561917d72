package lab

import (
	"math/rand/v2"
	"testing"

	"spacetime/core/scenario"
	"spacetime/core/sim"
)

// BenchmarkSeekFrame measures what the page computes to show a random step
// of the 100,000-step lesson: the state, panels, report and diagram.
func BenchmarkSeekFrame(b *testing.B) {
	sess := openLong(b)
	rng := rand.New(rand.NewPCG(1, 2))
	parts := map[string]func(){
		"state":     func() { sess.State() },
		"panels":    func() { sess.Panels() },
		"report":    func() { sess.derived.report = nil; sess.Report() },
		"processes": func() { sess.Processes() },
		"scene":     func() { sess.Diagram().Scene(1200, 350) },
	}
	for name, f := range parts {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				sess.Seek(rng.IntN(sess.Len() + 1))
				f()
			}
		})
	}
}

// BenchmarkCutFrame measures what one frame of the page asks of a complete
// cut on the 100,000-step lesson, at its last step: the highlighted
// messages, the verdict's text and the state at the cut.
func BenchmarkCutFrame(b *testing.B) {
	sess := openLong(b)
	sess.Seek(sess.Len())
	sess.Cut().Toggle()
	end := sess.Now()
	for id := range sess.Cut().Points() {
		sess.Cut().Place(sim.NodeID(id), float64(end)*float64(id+1)/float64(len(sess.Cut().Points())+1))
	}
	for b.Loop() {
		sess.Diagram().highlightAll()
		sess.Cut().Text()
		sess.Cut().Panel()
	}
}

// openLong opens the 100,000-step lesson the page's budgets are set on.
func openLong(b *testing.B) *Session {
	s, err := scenario.Builtin("snapshot-long")
	if err != nil {
		b.Fatal(err)
	}
	sess, err := Open(s)
	if err != nil {
		b.Fatal(err)
	}
	return sess
}
