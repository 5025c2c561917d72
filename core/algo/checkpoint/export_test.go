package checkpoint

// CheckLine is the recovery line's check, windowed or over every message.
var CheckLine = checkLine

// Line is process 1's recovery line under way, or nil.
func Line(p *Proc) []int {
	if p.rec == nil {
		return nil
	}
	return p.rec.Line
}
