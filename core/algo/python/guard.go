package python

import (
	"fmt"
	"math/big"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// A program is bounded in memory as it is in time, and deterministically:
// the operators and methods that can build a large value in one step (a
// string repeated a billion times, a list added to itself, a join of many
// copies of a long text, str of a value that shares itself) are rewritten
// into calls of guards that refuse a result over MaxValue before making
// it. Everything else grows by at most a little per interpreter step,
// which the step bounds already cap. The guards' names begin with "$",
// which a program cannot write, so they cannot be shadowed or called.

// MaxValue bounds the elements of a list, tuple or dict, and the
// characters of a text, that one operation may make; a number is bounded
// to MaxIntBits bits.
const (
	MaxValue   = 1_000_000
	MaxIntBits = 65_536
)

// guardedMethods are the methods of lists, dicts, sets and texts whose
// result can be much larger than what they are given (join, replace,
// format, extend), checked before they run, or that read or copy the
// whole of a value: each is called through a guard ($method) that
// charges it (charge).
var guardedMethods = map[string]bool{
	"join": true, "replace": true, "format": true, "extend": true,
	"count": true, "index": true, "insert": true, "remove": true, "pop": true,
	"items": true, "keys": true, "values": true, "update": true, "popitem": true,
	"union": true, "difference": true, "intersection": true, "symmetric_difference": true, "issubset": true, "issuperset": true,
	"split": true, "rsplit": true, "splitlines": true, "partition": true, "rpartition": true,
	"find": true, "rfind": true, "rindex": true, "startswith": true, "endswith": true,
	"lower": true, "upper": true, "title": true, "capitalize": true, "swapcase": true,
	"strip": true, "lstrip": true, "rstrip": true, "removeprefix": true, "removesuffix": true,
	"elems": true, "elem_ords": true, "codepoints": true, "codepoint_ords": true,
	"isalnum": true, "isalpha": true, "isdigit": true, "islower": true, "isspace": true, "istitle": true, "isupper": true,
}

// guardedOps are the binary operators whose result can be much larger
// than their operands.
var guardedOps = map[syntax.Token]string{
	syntax.PLUS:       "$+",
	syntax.STAR:       "$*",
	syntax.PERCENT:    "$%",
	syntax.LTLT:       "$<<",
	syntax.SLASHSLASH: "$//",
}

// augmentedOps map an augmented assignment to its operator.
var augmentedOps = map[syntax.Token]syntax.Token{
	syntax.PLUS_EQ:       syntax.PLUS,
	syntax.STAR_EQ:       syntax.STAR,
	syntax.PERCENT_EQ:    syntax.PERCENT,
	syntax.LTLT_EQ:       syntax.LTLT,
	syntax.SLASHSLASH_EQ: syntax.SLASHSLASH,
}

// guard rewrites a parsed program so that its growing operations call the
// guards.
func guard(f *syntax.File) {
	for i, s := range f.Stmts {
		f.Stmts[i] = guardStmt(s)
	}
}

func guardStmts(ss []syntax.Stmt) {
	for i, s := range ss {
		ss[i] = guardStmt(s)
	}
}

func guardStmt(s syntax.Stmt) syntax.Stmt {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		s.RHS = guardExpr(s.RHS)
		op, augmented := augmentedOps[s.Op]
		if augmented && unguarded(&syntax.BinaryExpr{X: s.LHS, Op: op, Y: s.RHS}) {
			// n += 1 or s += "." grows by the literal at most
			s.LHS = guardTarget(s.LHS)
			return s
		}
		if !augmented {
			s.LHS = guardTarget(s.LHS)
			return s
		}
		switch lhs := s.LHS.(type) {
		case *syntax.Ident:
			// x += y is x = $+=(x, y): a list is extended in place, as +=
			// does, anything else added
			return &syntax.AssignStmt{OpPos: s.OpPos, Op: syntax.EQ, LHS: lhs,
				RHS: callGuard(s.OpPos, "$"+op.String()+"=", &syntax.Ident{NamePos: lhs.NamePos, Name: lhs.Name}, s.RHS)}
		case *syntax.IndexExpr:
			// a[i] += y evaluates a and i once, as Python does
			return &syntax.ExprStmt{X: callGuard(s.OpPos, "$index"+op.String()+"=", guardExpr(lhs.X), guardExpr(lhs.Y), s.RHS)}
		case *syntax.DotExpr:
			return &syntax.ExprStmt{X: callGuard(s.OpPos, "$attr"+op.String()+"=", guardExpr(lhs.X), text(lhs.NamePos, lhs.Name.Name), s.RHS)}
		}
		return s
	case *syntax.DefStmt:
		for i, p := range s.Params {
			if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
				b.Y = guardExpr(b.Y) // a default value
			}
			s.Params[i] = p
		}
		guardStmts(s.Body)
	case *syntax.ExprStmt:
		s.X = guardExpr(s.X)
	case *syntax.ForStmt:
		s.X = guardExpr(s.X)
		guardStmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = guardExpr(s.Cond)
		guardStmts(s.Body)
	case *syntax.IfStmt:
		s.Cond = guardExpr(s.Cond)
		guardStmts(s.True)
		guardStmts(s.False)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = guardExpr(s.Result)
		}
	}
	return s
}

// guardTarget guards the expressions inside an assignment's target (the
// index of a[f(x)] = y), which stays a target.
func guardTarget(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.IndexExpr:
		e.X, e.Y = guardExpr(e.X), guardExpr(e.Y)
	case *syntax.DotExpr:
		e.X = guardExpr(e.X)
	case *syntax.TupleExpr:
		for i, x := range e.List {
			e.List[i] = guardTarget(x)
		}
	case *syntax.ListExpr:
		for i, x := range e.List {
			e.List[i] = guardTarget(x)
		}
	case *syntax.ParenExpr:
		e.X = guardTarget(e.X)
	}
	return e
}

func guardExprs(es []syntax.Expr) {
	for i, e := range es {
		es[i] = guardExpr(e)
	}
}

func guardExpr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.BinaryExpr:
		e.X, e.Y = guardExpr(e.X), guardExpr(e.Y)
		if name, ok := guardedOps[e.Op]; ok && !unguarded(e) {
			return callGuard(e.OpPos, name, e.X, e.Y)
		}

	case *syntax.UnaryExpr:
		if e.X != nil {
			e.X = guardExpr(e.X)
		}
	case *syntax.CallExpr:
		for i, a := range e.Args {
			if b, ok := a.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
				b.Y = guardExpr(b.Y) // a keyword argument
				continue
			}
			e.Args[i] = guardExpr(a)
		}
		if d, ok := e.Fn.(*syntax.DotExpr); ok && guardedMethods[d.Name.Name] {
			// x.join(a) is $call(x, "join", a): the guarded method called
			// at once, with no method value made for the call
			args := append([]syntax.Expr{guardExpr(d.X), text(d.NamePos, d.Name.Name)}, e.Args...)
			return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: d.Dot, Name: "$call"}, Lparen: e.Lparen, Args: args, Rparen: e.Rparen}
		}
		e.Fn = guardExpr(e.Fn)
	case *syntax.DotExpr:
		e.X = guardExpr(e.X)
		if guardedMethods[e.Name.Name] {
			return callGuard(e.Dot, "$method", e.X, text(e.NamePos, e.Name.Name))
		}
	case *syntax.IndexExpr:
		e.X, e.Y = guardExpr(e.X), guardExpr(e.Y)
	case *syntax.SliceExpr:
		e.X = guardExpr(e.X)
		for _, p := range []*syntax.Expr{&e.Lo, &e.Hi, &e.Step} {
			if *p != nil {
				*p = guardExpr(*p)
			}
		}
		// a slice is a copy: charged for what it holds
		return callGuard(e.Lbrack, "$sliced", e)
	case *syntax.ParenExpr:
		e.X = guardExpr(e.X)
	case *syntax.ListExpr:
		guardExprs(e.List)
	case *syntax.TupleExpr:
		guardExprs(e.List)
	case *syntax.DictExpr:
		for _, x := range e.List {
			d := x.(*syntax.DictEntry)
			d.Key, d.Value = guardExpr(d.Key), guardExpr(d.Value)
		}
	case *syntax.CondExpr:
		e.Cond, e.True, e.False = guardExpr(e.Cond), guardExpr(e.True), guardExpr(e.False)
	case *syntax.LambdaExpr:
		e.Body = guardExpr(e.Body)
	case *syntax.Comprehension:
		e.Body = guardExpr(e.Body)
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.X = guardExpr(c.X)
			case *syntax.IfClause:
				c.Cond = guardExpr(c.Cond)
			}
		}
	}
	return e
}

// unguarded says an operation cannot make a large value or take long:
// x + 1 adds a number written in the program (a text or a list cannot
// take it), x // 2 divides by one, and a format written in the
// program with only numbers in it ("to %d") makes a text as long as the
// format and the numbers' digits. A text added to ("to " + x) is
// guarded: a loop of s = s + "..." would grow it by the literal each
// time, past the bound.
func unguarded(e *syntax.BinaryExpr) bool {
	switch e.Op {
	case syntax.PLUS:
		return number(e.X) || number(e.Y)
	case syntax.SLASHSLASH:
		return number(e.Y)
	case syntax.PERCENT:
		// not x % 2: x may be a long format
		return numbersOnly(e.X)
	}
	return false
}

// numbersOnly says e is a format written in the program whose directives
// are all of numbers ("to %d").
func numbersOnly(e syntax.Expr) bool {
	f, ok := e.(*syntax.Literal)
	if !ok || f.Token != syntax.STRING {
		return false
	}
	text, _ := f.Value.(string)
	for i := 0; i < len(text); i++ {
		if text[i] != '%' {
			continue
		}
		if i+1 >= len(text) || !strings.ContainsRune("d%xXo", rune(text[i+1])) {
			return false
		}
		i++
	}
	return true
}

// number says e is a number written in the program.
func number(e syntax.Expr) bool {
	l, ok := e.(*syntax.Literal)
	return ok && (l.Token == syntax.INT || l.Token == syntax.FLOAT)
}

// callGuard is a call of guard name at pos.
func callGuard(pos syntax.Position, name string, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: name}, Lparen: pos, Args: args, Rparen: pos}
}

// text is a string literal at pos.
func text(pos syntax.Position, s string) *syntax.Literal {
	return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: fmt.Sprintf("%q", s), Value: s}
}

// guards are the predeclared names the rewritten program calls, and the
// bounded builtins that replace Starlark's own (range, str, repr, print
// is the process's say).
func guards() starlark.StringDict {
	d := starlark.StringDict{
		"$method": starlark.NewBuiltin("$method", guardMethod),
		"$call":   starlark.NewBuiltin("$call", guardCall),
		"range":   starlark.NewBuiltin("range", boundedRange),
		"str":     starlark.NewBuiltin("str", boundedStr),
		"repr":    starlark.NewBuiltin("repr", boundedRepr),
		"pow":     starlark.NewBuiltin("pow", boundedPow),
		"sum":     starlark.NewBuiltin("sum", sum),
		"int":     starlark.NewBuiltin("int", boundedInt),
		"$sliced": starlark.NewBuiltin("$sliced", func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return args[0], charge(t, size(args[0]))
		}),
	}
	for _, name := range visiting {
		d[name] = charged(starlark.Universe[name].(*starlark.Builtin))
	}
	for op, name := range guardedOps {
		d[name] = starlark.NewBuiltin(name, func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if err := charge(t, binaryWork(op, args[0], args[1])); err != nil {
				return nil, err
			}
			v, err := binary(op, args[0], args[1])
			if err == nil {
				err = charge(t, size(v))
			}
			return v, err
		})
		d["$"+op.String()+"="] = starlark.NewBuiltin(name+"=", func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if err := charge(t, inPlaceSize(args[0], args[1])+binaryWork(op, args[0], args[1])); err != nil {
				return nil, err
			}
			return inPlace(op, args[0], args[1])
		})
		d["$index"+op.String()+"="] = starlark.NewBuiltin(name+"=", func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			if err := chargeReading(t, args[1]); err != nil { // the key, hashed
				return nil, err
			}
			return starlark.None, indexInPlace(t, op, args[0], args[1], args[2])
		})
		d["$attr"+op.String()+"="] = starlark.NewBuiltin(name+"=", func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			return starlark.None, attrInPlace(t, op, args[0], string(args[1].(starlark.String)), args[2])
		})
	}
	return d
}

// tooLarge is the error of a result over the bound: what it would make
// (its size saturates at a trillion, said as "more than"; a size < 0 is
// one measured only as far as the bound).
func tooLarge(what string, size int) error {
	unit := "elements"
	if what == "a text" || what == "a string" || what == "a bytes" {
		what, unit = "a text", "characters"
	}
	count := grouped(size)
	switch {
	case size < 0: // measured only as far as the bound
		count = "more than " + grouped(MaxValue)
	case size >= 1<<40:
		count = "more than " + grouped(1<<40)
	}
	return fmt.Errorf("this would make %s of %s %s, more than a program may make at once (%s)", what, count, unit, grouped(MaxValue))
}

// grouped writes a count with thousands separated: 1,000,000.
func grouped(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// length is how many elements or characters a value holds at its top
// level, or -1 for a value that is not a sequence.
func length(v starlark.Value) int {
	switch v := v.(type) {
	case starlark.String:
		return len(v)
	case starlark.Bytes:
		return len(v)
	case *starlark.List:
		return v.Len()
	case starlark.Tuple:
		return len(v)
	}
	return -1
}

// binary is x op y, refused when the result would pass a bound.
func binary(op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
	if err := checkBinary(op, x, y); err != nil {
		return nil, err
	}
	return starlark.Binary(op, x, y)
}

func checkBinary(op syntax.Token, x, y starlark.Value) error {
	xi, xInt := x.(starlark.Int)
	yi, yInt := y.(starlark.Int)
	if xInt && yInt {
		var bits int
		switch op {
		case syntax.PLUS:
			bits = max(bitLen(xi), bitLen(yi)) + 1
		case syntax.STAR:
			bits = bitLen(xi) + bitLen(yi)
		case syntax.LTLT:
			if s, ok := yi.Int64(); ok && s > 0 && s <= MaxIntBits {
				bits = bitLen(xi) + int(s)
			} else if ok && s > MaxIntBits {
				bits = MaxIntBits + 1
			}
		}
		if bits > MaxIntBits {
			return fmt.Errorf("this would make a number of %s bits, more than a program may make (%s)", grouped(bits), grouped(MaxIntBits))
		}
		return nil
	}
	switch op {
	case syntax.PLUS:
		if lx, ly := length(x), length(y); lx >= 0 && ly >= 0 && lx+ly > MaxValue {
			return tooLarge("a "+x.Type(), lx+ly)
		}
	case syntax.STAR:
		seq, count := x, y
		if xInt {
			seq, count = y, x
		}
		n, isInt := count.(starlark.Int)
		l := length(seq)
		if !isInt || l <= 0 {
			return nil
		}
		times, ok := n.Int64()
		if !ok || (times > 0 && int64(l)*times > MaxValue) {
			size := 1 << 40
			if ok && times < 1<<40/int64(l) {
				size = l * int(times)
			}
			return tooLarge("a "+seq.Type(), size)
		}
	case syntax.PERCENT:
		if f, ok := x.(starlark.String); ok {
			return checkFormat(string(f), y)
		}
	}
	return nil
}

// bitLen is the bits of a number's magnitude.
func bitLen(i starlark.Int) int {
	if v, ok := i.Int64(); ok {
		if v < 0 {
			v = -v
		}
		n := 0
		for ; v != 0; v >>= 1 {
			n++
		}
		return n
	}
	return new(big.Int).Abs(i.BigInt()).BitLen()
}

// checkFormat refuses a formatting whose text would pass the bound: at
// most the format's length and, for each of its directives, the longest
// of the values.
func checkFormat(format string, args starlark.Value) error {
	directives := strings.Count(format, "%") + strings.Count(format, "{")
	if directives == 0 {
		return nil
	}
	widest := printedSize(args, MaxValue)
	if size := len(format) + directives*widest; size > MaxValue {
		return tooLarge("a text", -1)
	}
	return nil
}

// inPlaceSize is what x op= y copies: y's elements onto a list, which
// grows in place, or the whole of a new value (a text made again).
func inPlaceSize(x, y starlark.Value) int {
	if _, ok := x.(*starlark.List); ok {
		return size(y)
	}
	return size(x) + size(y)
}

// inPlace is x op= y: a list is extended in place, as Starlark does.
func inPlace(op syntax.Token, x, y starlark.Value) (starlark.Value, error) {
	if err := checkBinary(op, x, y); err != nil {
		return nil, err
	}
	if l, ok := x.(*starlark.List); ok && op == syntax.PLUS {
		it, ok := y.(starlark.Iterable)
		if !ok {
			return nil, fmt.Errorf("unknown binary op: list += %s", y.Type())
		}
		if err := extend(l, it); err != nil {
			return nil, err
		}
		return l, nil
	}
	return starlark.Binary(op, x, y)
}

// extend appends every element of it to l.
func extend(l *starlark.List, it starlark.Iterable) error {
	var elems []starlark.Value
	iter := it.Iterate()
	var v starlark.Value
	for iter.Next(&v) {
		elems = append(elems, v)
	}
	iter.Done() // before appending: l may be it
	for _, v := range elems {
		if err := l.Append(v); err != nil {
			return err
		}
	}
	return nil
}

// indexInPlace is x[i] op= y.
func indexInPlace(t *starlark.Thread, op syntax.Token, x, i, y starlark.Value) error {
	var old starlark.Value
	switch c := x.(type) {
	case starlark.HasSetKey:
		v, found, err := c.Get(i)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("key %s not in %s", show(i, 40), x.Type())
		}
		old = v
	case starlark.HasSetIndex:
		k, err := index(i, c.Len())
		if err != nil {
			return err
		}
		old = c.Index(k)
	default:
		return fmt.Errorf("%s value does not support item assignment", x.Type())
	}
	if err := charge(t, inPlaceSize(old, y)+binaryWork(op, old, y)); err != nil {
		return err
	}
	v, err := inPlace(op, old, y)
	if err != nil {
		return err
	}
	if c, ok := x.(starlark.HasSetKey); ok {
		return c.SetKey(i, v)
	}
	k, _ := index(i, x.(starlark.HasSetIndex).Len())
	return x.(starlark.HasSetIndex).SetIndex(k, v)
}

// index reads a list index, counting from the end when negative.
func index(i starlark.Value, n int) (int, error) {
	k, err := starlark.AsInt32(i)
	if err != nil {
		return 0, fmt.Errorf("want a list index, got %s", i.Type())
	}
	if k < 0 {
		k += n
	}
	if k < 0 || k >= n {
		return 0, fmt.Errorf("index %d out of range [0:%d]", k, n)
	}
	return k, nil
}

// attrInPlace is x.name op= y.
func attrInPlace(t *starlark.Thread, op syntax.Token, x starlark.Value, name string, y starlark.Value) error {
	s, ok := x.(starlark.HasSetField)
	if !ok {
		return fmt.Errorf("can't assign to .%s field of %s", name, x.Type())
	}
	old, err := s.Attr(name)
	if err != nil {
		return err
	}
	if old == nil {
		return fmt.Errorf("%s has no .%s field", x.Type(), name)
	}
	if err := charge(t, inPlaceSize(old, y)+binaryWork(op, old, y)); err != nil {
		return err
	}
	v, err := inPlace(op, old, y)
	if err != nil {
		return err
	}
	return s.SetField(name, v)
}

// guardMethod is x.name, not called at once, for the guarded methods: the
// method itself, behind its guard (callMethod).
func guardMethod(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	x, name, v, m, err := methodOf(args)
	if err != nil || m == nil {
		return v, err // a program's own attribute, or none
	}
	return starlark.NewBuiltin(name, func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		return callMethod(t, x, name, m, args, kwargs)
	}), nil
}

// guardCall is x.name(args...) for the guarded methods, rewritten as
// $call(x, "name", args...).
func guardCall(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, name, v, m, err := methodOf(args)
	switch {
	case err != nil:
		return nil, err
	case m == nil:
		return starlark.Call(t, v, args[2:], kwargs) // a program's own attribute
	}
	return callMethod(t, x, name, m, args[2:], kwargs)
}

// methodOf reads a guard's first arguments, x and "name", and finds
// x.name: m is the builtin method, nil when x.name is v, a program's own.
func methodOf(args starlark.Tuple) (x starlark.Value, name string, v starlark.Value, m *starlark.Builtin, err error) {
	x, name = args[0], string(args[1].(starlark.String))
	if v, err = getAttr(x, name); err != nil {
		return x, name, nil, nil, err
	}
	m, _ = v.(*starlark.Builtin)
	return x, name, v, m, nil
}

// callMethod calls x's method m: refused if it would make too much,
// charged for what it reads and makes.
func callMethod(t *starlark.Thread, x starlark.Value, name string, m *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if err := checkMethod(x, name, args, kwargs); err != nil {
		return nil, err
	}
	reads, n := methodCost(x, name, args)
	if err := chargeReading(t, reads...); err != nil {
		return nil, err
	}
	if err := charge(t, n); err != nil {
		return nil, err
	}
	v, err := m.CallInternal(t, args, kwargs)
	if err == nil {
		err = charge(t, size(v))
	}
	return v, err
}

// methodCost is what x.name(args...) compares or hashes all the way down
// (reads, for chargeReading), and how many elements it copies or visits
// besides (n): a list's index, count and remove compare each element; a
// dict's pop and a set's remove hash their key alone; a list's pop takes a
// moment from its end and moves every element from elsewhere; the rest
// read the whole of x and of what they are given.
func methodCost(x starlark.Value, name string, args starlark.Tuple) (reads []starlark.Value, n int) {
	given := 0
	for _, a := range args {
		given += size(a)
	}
	switch x := x.(type) {
	case *starlark.List:
		switch name {
		case "index", "count", "remove":
			return append([]starlark.Value{x}, args...), 0
		case "pop":
			if len(args) == 0 {
				return nil, 0
			}
			if i, err := starlark.AsInt32(args[0]); err == nil && (i == -1 || i == x.Len()-1) {
				return nil, 0
			}
			return nil, x.Len()
		case "insert":
			return nil, x.Len()
		}
		return nil, given
	case *starlark.Dict, *starlark.Set:
		switch name {
		case "pop", "remove":
			if len(args) > 0 {
				return args[:1], 0 // the key, hashed
			}
			return nil, 0
		case "popitem", "clear":
			return nil, 0
		case "items", "keys", "values":
			return nil, x.(starlark.Sequence).Len()
		case "update":
			return args, given
		}
		return args, size(x) + given // union, difference and the like
	case starlark.Tuple:
		if name == "index" || name == "count" {
			return append([]starlark.Value{x}, args...), 0
		}
	}
	return nil, size(x) + given // a text's methods read the whole of it
}

// getAttr is x.name, with Starlark's words when there is none.
func getAttr(x starlark.Value, name string) (starlark.Value, error) {
	h, ok := x.(starlark.HasAttrs)
	if !ok {
		return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
	}
	v, err := h.Attr(name)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
	}
	return v, nil
}

// checkMethod refuses a call of a growing method whose result would pass
// the bound.
func checkMethod(x starlark.Value, name string, args starlark.Tuple, kwargs []starlark.Tuple) error {
	switch s := x.(type) {
	case starlark.String:
		switch name {
		case "join":
			if len(args) != 1 {
				return nil
			}
			size, count := 0, 0
			if it, ok := args[0].(starlark.Iterable); ok {
				iter := it.Iterate()
				var v starlark.Value
				for iter.Next(&v) && size <= MaxValue {
					size += printedSize(v, MaxValue)
					count++
				}
				iter.Done()
			}
			if size += len(s) * max(count-1, 0); size > MaxValue {
				return tooLarge("a text", -1)
			}
		case "replace":
			if len(args) < 2 {
				return nil
			}
			old, ok1 := args[0].(starlark.String)
			repl, ok2 := args[1].(starlark.String)
			if !ok1 || !ok2 {
				return nil
			}
			times := len(s) + 1
			if old != "" {
				times = strings.Count(string(s), string(old))
			}
			if size := len(s) + times*len(repl); size > MaxValue {
				return tooLarge("a text", size)
			}
		case "format":
			all := append(starlark.Tuple{}, args...)
			for _, kw := range kwargs {
				all = append(all, kw[1])
			}
			return checkFormat(string(s), all)
		}
	case *starlark.List:
		if name == "extend" && len(args) == 1 {
			if n := length(args[0]); n >= 0 && s.Len()+n > MaxValue {
				return tooLarge("a list", s.Len()+n)
			}
		}
	}
	return nil
}

// boundedRange is range, refused beyond MaxValue numbers.
func boundedRange(t *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	r, err := starlark.Call(t, starlark.Universe["range"], args, kwargs)
	if err != nil {
		return nil, err
	}
	if n := r.(starlark.Sequence).Len(); n > MaxValue {
		return nil, fmt.Errorf("range of %s numbers: a program may count at most %s", grouped(n), grouped(MaxValue))
	}
	return r, nil
}

// boundedStr is str, refused for a value whose text would pass the bound.
func boundedStr(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 1 {
		n, work := measurePrint(args[0], MaxValue)
		if n > MaxValue {
			return nil, tooLarge("a text", -1)
		}
		if err := charge(t, n+work); err != nil {
			return nil, err
		}
	}
	return starlark.Call(t, starlark.Universe["str"], args, kwargs)
}

// boundedRepr is repr, bounded as str is.
func boundedRepr(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 1 {
		n, work := measurePrint(args[0], MaxValue)
		if n > MaxValue {
			return nil, tooLarge("a text", -1)
		}
		if err := charge(t, n+work); err != nil {
			return nil, err
		}
	}
	return starlark.Call(t, starlark.Universe["repr"], args, kwargs)
}

// printedSize is about the length of a value's text, or more than limit
// once it passes limit: the walk stops there, so that a value that shares
// itself a billion times over costs no more than limit to measure.
func printedSize(v starlark.Value, limit int) int {
	size, _ := measurePrint(v, limit)
	return size
}

// printWork is what writing a value's text costs, in elements as charge
// counts them: its length, and the work of writing its long numbers in
// digits (intWork), or more than limit once the length passes it.
func printWork(v starlark.Value, limit int) int {
	size, work := measurePrint(v, limit)
	return size + work
}

// measurePrint is a value's printedSize, and the work of writing its numbers
// in digits.
func measurePrint(v starlark.Value, limit int) (size, work int) {
	m := printMeasure{limit: limit}
	m.walk(v)
	return m.size, m.work
}

// printMeasure is measurePrint's walk: a method rather than a closure,
// which would be made on the heap at every print and every message sent.
type printMeasure struct{ size, work, limit int }

func (m *printMeasure) walk(v starlark.Value) {
	if m.size > m.limit {
		return
	}
	switch v := v.(type) {
	case starlark.String:
		m.size += len(v) + 2
	case starlark.Bytes:
		m.size += len(v) + 3
	case starlark.Int:
		m.size += bitLen(v)/3 + 1 // its digits
		m.work += intWork(bitLen(v), bitLen(v))
	case *starlark.List:
		m.size += 2
		for i := range v.Len() {
			m.walk(v.Index(i))
			m.size += 2
		}
	case starlark.Tuple:
		m.size += 2
		for _, e := range v {
			m.walk(e)
			m.size += 2
		}
	case *starlark.Dict:
		m.size += 2
		for key, val := range v.Entries() {
			m.walk(key)
			m.walk(val)
			m.size += 4
		}
	case *starlark.Set:
		m.size += 5
		iter := v.Iterate()
		var e starlark.Value
		for iter.Next(&e) && m.size <= m.limit {
			m.walk(e)
			m.size += 2
		}
		iter.Done()
	default:
		m.size += 24
	}
}

// boundedPow is pow(x, y): x to the power y, for whole numbers (Starlark
// has no ** operator), refused beyond MaxIntBits bits.
func boundedPow(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, y starlark.Int
	if err := starlark.UnpackPositionalArgs("pow", args, kwargs, 2, &x, &y); err != nil {
		return nil, err
	}
	e, ok := y.Int64()
	if !ok || e < 0 {
		return nil, fmt.Errorf("pow: want a power from 0 up, got %s", y.String())
	}
	bits := int64(bitLen(x)) * e
	if bits > MaxIntBits && bitLen(x) > 1 {
		return nil, fmt.Errorf("this would make a number of about %s bits, more than a program may make (%s)", grouped(int(min(bits, 1<<40))), grouped(MaxIntBits))
	}
	if err := charge(t, intWork(int(bits), int(bits))); err != nil {
		return nil, err
	}
	return starlark.MakeBigInt(new(big.Int).Exp(x.BigInt(), big.NewInt(e), nil)), nil
}

// sum is Python's sum(iterable, start=0), which Starlark lacks: each
// addition is a guarded one.
func sum(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) == 1 {
		if err := charge(t, ElementsPerStep*size(args[0])); err != nil { // an addition each
			return nil, err
		}
	}
	if len(args) == 1 && len(kwargs) == 0 {
		if l, ok := args[0].(*starlark.List); ok {
			return sumList(l)
		}
	}
	var it starlark.Iterable
	var total starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackArgs("sum", args, kwargs, "iterable", &it, "start?", &total); err != nil {
		return nil, err
	}
	iter := it.Iterate()
	defer iter.Done()
	var v starlark.Value
	for iter.Next(&v) {
		var err error
		if total, err = binary(syntax.PLUS, total, v); err != nil {
			return nil, err
		}
	}
	return total, nil
}

// sumList is sum of a list, as a program mostly calls it (sum([...])),
// without an iterator to make.
func sumList(l *starlark.List) (starlark.Value, error) {
	var total starlark.Value = starlark.MakeInt(0)
	for i := range l.Len() {
		var err error
		if total, err = binary(syntax.PLUS, total, l.Index(i)); err != nil {
			return nil, err
		}
	}
	return total, nil
}
