package lab

// Rewrite runs the session's scenario with another program, as the Write
// view's Run does: the learner's inputs (a crash, a delivery chosen, a
// command) are replayed on the new run, as flipping a switch does, and
// the step on screen stays where the new run reaches. err refuses a
// program that does not compile and leaves the session as it was; kept
// says that some inputs could not happen in the new run (those before
// the first that could not are kept).
func (s *Session) Rewrite(code string) (kept, err error) {
	changed := s.plan.Scenario().WithProgram(s.scn.Algorithm, code)
	if _, err := changed.Compile(); err != nil {
		return nil, err
	}
	return s.switches.rerun(changed, "with the program as edited"), nil
}
