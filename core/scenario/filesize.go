package scenario

// An entry of a file's script is at least "    {\n      \"at\": 0\n    },\n",
// and each field more at least ",\n      \"xy\": 0".
const leastEntry, leastField = 26, 14

// LeastFileSize is at most the size of the scenario's file (its indented
// JSON), found without writing it: its script's entries, each at its
// least, and its params without their white space. It stops counting once past stop. A scenario whose least
// size is over a link's bound is too large to link without encoding it:
// encoding a large log's scenario to find that out took a second, and
// writing its file at all a tenth of one.
func (s *Scenario) LeastFileSize(stop int) int {
	least := leastEntry * len(s.Script)
	if least > stop {
		return least // a large log's script alone
	}
	for i := range s.Script {
		e := &s.Script[i]
		least += leastField * (count(len(e.Node) > 0, e.Command != "", len(e.Target) > 0, e.Arg != 0, e.Fault != "", e.Msg != nil) + len(e.Args))
	}
	for _, b := range s.Params {
		if b != ' ' && b != '\n' && b != '\t' && b != '\r' {
			least++
		}
	}
	return least
}

// count counts the true ones.
func count(given ...bool) int {
	n := 0
	for _, g := range given {
		if g {
			n++
		}
	}
	return n
}
