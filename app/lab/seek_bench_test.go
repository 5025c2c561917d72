package lab

import (
	"math/rand/v2"
	"testing"

	"spacetime/core/scenario"
)

// BenchmarkSeekFrame measures what the page computes to show a random step
// of the 100,000-step lesson: the state, panels, report and diagram.
func BenchmarkSeekFrame(b *testing.B) {
	s, err := scenario.Builtin("snapshot-long")
	if err != nil {
		b.Fatal(err)
	}
	sess, err := Open(s)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	parts := map[string]func(){
		"state":     func() { sess.State() },
		"panels":    func() { sess.Panels() },
		"report":    func() { sess.derived.report = nil; sess.Report() },
		"processes": func() { sess.Processes() },
		"scene":     func() { sess.Scene(1200, 350) },
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
