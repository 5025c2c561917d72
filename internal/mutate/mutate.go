// Package mutate makes source mutants of an algorithm's Go code: one small
// change each, of the kinds bugs take in these algorithms (a comparison
// flipped or made non-strict, a condition negated, && and || swapped, a
// call such as a send or a timer dropped, a state update dropped, a
// constant off by one, a message's field not filled in). cmd/mutants builds
// each into a checker and sees whether the algorithm's invariants notice.
//
// Only the algorithm's behaviour is mutated: what only observes it (a
// function that reads a sim.View, such as an invariant, a panel or a
// figure; a tally; the files report.go and check.go, which hold them), what
// only describes it (captions, labels, String, Inspect), what only copies
// or hashes it (Clone, Fingerprint) and what reads a scenario's params (a
// function that returns an error) are left alone: a mutant there changes
// what is said or checked, not what the algorithm does.
package mutate

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"
)

// Mutant is one change to one file.
type Mutant struct {
	// ID names the mutant by its file, function, kind and ordinal within
	// the function: stable while the function keeps its shape, so that a
	// mutant shown equivalent stays so named when other code moves.
	ID string `json:"id"`
	// File is the file's path as given to File; Func the function
	// ("(*Proc).receive", "send"); Line and Col where the change is.
	File string `json:"file"`
	Func string `json:"func"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	// BodyFrom and BodyTo are the lines of the function's body, for what
	// needs the code around the change: a switch's case condition lies in
	// no block a coverage profile counts, though its function does.
	BodyFrom int `json:"body_from"`
	BodyTo   int `json:"body_to"`
	// Kind is the kind of change (one of the Kind constants); What says it in a few words
	// ("< to <=", "drops env.Send(...)").
	Kind string `json:"kind"`
	What string `json:"what"`
	// start and end are the bytes of the file replaced by repl.
	start, end int
	repl       string
}

// The kinds of mutant.
const (
	KindCompare   = "compare"     // a comparison made (non-)strict or negated
	KindNegate    = "negate"      // a condition negated
	KindAndOr     = "and-or"      // && and || swapped
	KindDropCall  = "drop-call"   // a call (a send, a timer, a helper) dropped
	KindDropWrite = "drop-update" // a state update dropped
	KindOffByOne  = "off-by-one"  // a whole-number constant one more or less
	KindDropField = "drop-field"  // a message's field not filled in
	KindReturn    = "return"      // a yes answered no, or a no yes
)

// Apply returns src with the mutant's change.
func (m Mutant) Apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(m.repl))
	out = append(out, src[:m.start]...)
	out = append(out, m.repl...)
	return append(out, src[m.end:]...)
}

// skippedFiles hold what observes an algorithm rather than what it does.
var skippedFiles = map[string]bool{"report.go": true, "check.go": true}

// skippedFuncs describe, copy, hash or tally a process.
var skippedFuncs = map[string]bool{
	"String": true, "Describe": true, "Inspect": true, "Fingerprint": true, "Clone": true, "clone": true, "CloneReplica": true,
	"AppendFormat": true, "MarshalJSON": true, "UnmarshalJSON": true,
	"Note": true, "Joined": true, "Left": true, "Stepped": true,
}

// quietCalls say or format something: dropping one, or changing what is
// inside it, changes a caption, not the algorithm.
var quietCalls = map[string]bool{
	"Explain": true, "ExplainMore": true, "ExplainWith": true, "Numbered": true, "Text": true, "Quiet": true,
	"Sprintf": true, "Sprint": true, "Errorf": true, "Appendf": true, "Fprintf": true,
	"AppendInt": true, "Itoa": true, "FormatInt": true, "panic": true, "Name": true, "NameList": true,
}

// File lists the mutants of one file of a package. name is the file's
// path as the mutants name it; its base name decides whether it is
// skipped.
func File(name string, src []byte) ([]Mutant, error) {
	if skippedFiles[path.Base(name)] || strings.HasSuffix(name, "_test.go") {
		return nil, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []Mutant
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || skippedFuncs[fd.Name.Name] || observes(fd) || returnsError(fd) {
			continue
		}
		w := &walker{fset: fset, src: src, file: name, fn: funcName(fd), counts: map[string]int{},
			bodyFrom: fset.Position(fd.Body.Lbrace).Line, bodyTo: fset.Position(fd.Body.Rbrace).Line}
		ast.Inspect(fd.Body, w.visit)
		out = append(out, w.out...)
	}
	return out, nil
}

// observes says the function reads a sim.View: an invariant, a panel, a
// figure or a Done, which look at a run rather than make it.
func observes(fd *ast.FuncDecl) bool {
	for _, p := range fd.Type.Params.List {
		if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "View" {
			return true
		}
	}
	return false
}

// returnsError says the function can fail: it reads params or a scenario,
// which the campaign only gives well formed.
func returnsError(fd *ast.FuncDecl) bool {
	if fd.Type.Results == nil {
		return false
	}
	for _, r := range fd.Type.Results.List {
		if id, ok := r.Type.(*ast.Ident); ok && id.Name == "error" {
			return true
		}
	}
	return false
}

// funcName is "(*T).m", "(T).m" or "f".
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok { // a generic receiver
		t = ix.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	return fmt.Sprintf("(%s%s).%s", star, name, fd.Name.Name)
}

// walker collects one function's mutants.
type walker struct {
	fset   *token.FileSet
	src    []byte
	file   string
	fn     string
	counts map[string]int
	out    []Mutant
	// bodyFrom and bodyTo are the lines of the function's body.
	bodyFrom, bodyTo int
}

// add records a mutant replacing the bytes from start to end.
func (w *walker) add(kind string, at token.Pos, start, end int, repl, what string) {
	w.counts[kind]++
	pos := w.fset.Position(at)
	w.out = append(w.out, Mutant{
		ID:   fmt.Sprintf("%s %s %s#%d", w.file, w.fn, kind, w.counts[kind]),
		File: w.file, Func: w.fn, Line: pos.Line, Col: pos.Column, BodyFrom: w.bodyFrom, BodyTo: w.bodyTo,
		Kind: kind, What: what, start: start, end: end, repl: repl,
	})
}

func (w *walker) off(p token.Pos) int { return w.fset.Position(p).Offset }

// text is the source of a node, on one line, shortened.
func (w *walker) text(n ast.Node) string {
	s := string(w.src[w.off(n.Pos()):w.off(n.End())])
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 48 {
		s = s[:45] + "..."
	}
	return s
}

// strictness and negation of the comparisons.
var (
	boundary = map[token.Token]token.Token{token.LSS: token.LEQ, token.LEQ: token.LSS, token.GTR: token.GEQ, token.GEQ: token.GTR}
	negation = map[token.Token]token.Token{token.LSS: token.GEQ, token.LEQ: token.GTR, token.GTR: token.LEQ, token.GEQ: token.LSS, token.EQL: token.NEQ, token.NEQ: token.EQL}
)

// visit looks at one node for mutants, and says whether to look inside.
func (w *walker) visit(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.CallExpr:
		if quietCalls[calleeName(x)] {
			return false // a caption and what it formats
		}
	case *ast.FuncLit:
		return true
	case *ast.BinaryExpr:
		w.binary(x)
	case *ast.IfStmt:
		if !isComparison(x.Cond) {
			s, e := w.off(x.Cond.Pos()), w.off(x.Cond.End())
			w.add(KindNegate, x.Cond.Pos(), s, e, "!("+string(w.src[s:e])+")", "if "+w.text(x.Cond)+" negated")
		}
	case *ast.ExprStmt:
		if call, ok := x.X.(*ast.CallExpr); ok && !quietCalls[calleeName(call)] {
			w.add(KindDropCall, x.Pos(), w.off(x.Pos()), w.off(x.End()), "", "drops "+w.text(call))
		}
	case *ast.AssignStmt:
		if x.Tok != token.DEFINE && allState(x.Lhs) {
			w.add(KindDropWrite, x.Pos(), w.off(x.Pos()), w.off(x.End()), "", "drops "+w.text(x))
		}
	case *ast.IncDecStmt:
		if allState([]ast.Expr{x.X}) {
			w.add(KindDropWrite, x.Pos(), w.off(x.Pos()), w.off(x.End()), "", "drops "+w.text(x))
		}
	case *ast.ReturnStmt:
		if len(x.Results) == 1 {
			if id, ok := x.Results[0].(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") {
				flip := map[string]string{"true": "false", "false": "true"}[id.Name]
				w.add(KindReturn, id.Pos(), w.off(id.Pos()), w.off(id.End()), flip, "return "+id.Name+" to return "+flip)
			}
		}
	case *ast.CompositeLit:
		if isMessage(x.Type) {
			for i, e := range x.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, _ := kv.Key.(*ast.Ident)
				if key == nil || key.Name == "Kind" || key.Name == "Label" {
					continue // a message has a kind; a label is what the diagram says
				}
				start, end := w.off(kv.Pos()), w.off(kv.End())
				if i+1 < len(x.Elts) {
					end = w.off(x.Elts[i+1].Pos())
				}
				w.add(KindDropField, kv.Pos(), start, end, "", "sends without "+key.Name)
			}
		}
	}
	return true
}

// binary mutates an operator: comparisons, && and ||, and a whole-number
// constant on either side of an arithmetic or comparison.
func (w *walker) binary(x *ast.BinaryExpr) {
	at := w.off(x.OpPos)
	end := at + len(x.Op.String())
	if b, ok := boundary[x.Op]; ok {
		w.add(KindCompare, x.OpPos, at, end, b.String(), fmt.Sprintf("%s to %s in %s", x.Op, b, w.text(x)))
	}
	if ng, ok := negation[x.Op]; ok {
		w.add(KindCompare, x.OpPos, at, end, ng.String(), fmt.Sprintf("%s to %s in %s", x.Op, ng, w.text(x)))
	}
	switch x.Op {
	case token.LAND:
		w.add(KindAndOr, x.OpPos, at, end, "||", "&& to || in "+w.text(x))
	case token.LOR:
		w.add(KindAndOr, x.OpPos, at, end, "&&", "|| to && in "+w.text(x))
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
		for _, side := range []ast.Expr{x.X, x.Y} {
			lit, ok := side.(*ast.BasicLit)
			if !ok || lit.Kind != token.INT {
				continue
			}
			v, err := strconv.ParseInt(lit.Value, 0, 64)
			if err != nil {
				continue
			}
			s, e := w.off(lit.Pos()), w.off(lit.End())
			w.add(KindOffByOne, lit.Pos(), s, e, strconv.FormatInt(v+1, 10), fmt.Sprintf("%d to %d in %s", v, v+1, w.text(x)))
			if v > 0 {
				w.add(KindOffByOne, lit.Pos(), s, e, strconv.FormatInt(v-1, 10), fmt.Sprintf("%d to %d in %s", v, v-1, w.text(x)))
			}
		}
	}
}

// isComparison says the condition is one comparison, which KindCompare
// negates already.
func isComparison(e ast.Expr) bool {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	b, ok := e.(*ast.BinaryExpr)
	return ok && negation[b.Op] != 0
}

// allState says every target of an assignment is state that outlives the
// statement (a field, an element, a pointer's target), not a local.
func allState(lhs []ast.Expr) bool {
	for _, e := range lhs {
		switch e.(type) {
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
		default:
			return false
		}
	}
	return len(lhs) > 0
}

// isMessage says a composite literal makes a sim.Message.
func isMessage(t ast.Expr) bool {
	switch x := t.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name == "Message"
	case *ast.Ident:
		return x.Name == "Message"
	}
	return false
}

// calleeName is the name of what a call calls: "Send" of env.Send, "f"
// of f(x); "" for anything else.
func calleeName(c *ast.CallExpr) string {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.IndexExpr: // a generic function
		if id, ok := f.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
}
