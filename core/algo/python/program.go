package python

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"spacetime/core/algo/mutex"
	"spacetime/core/sim"
)

// Bounds of a program and of its calls.
const (
	// MaxCode bounds a program's text, in bytes.
	MaxCode = 64 << 10
	// MaxCallSteps bounds the interpreter's steps in one call of a
	// handler, an invariant or the program's top level: a tenth of a
	// second or so natively, under a second in a browser.
	MaxCallSteps = 2_000_000
	// MaxFields bounds the entries of p.state and of p.disk that the
	// Processes panel lists.
	MaxFields = 40
)

// filename names the program in its errors and positions.
const filename = "program.py"

// Error is a program's error at its line: a syntax error, a name it does
// not define, a handler of the wrong shape, or an error raised while it
// ran. Where says, for an error in a run, which process, handler and
// event (the step is the engine's, see engine.StepError).
type Error struct {
	// Line and Col are counted from 1; 0 when the error has no place.
	Line, Col int
	Msg       string
	Where     string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Col)
	}
	b.WriteString(e.Msg)
	if e.Where != "" {
		b.WriteString(" (" + e.Where + ")")
	}
	return b.String()
}

// Place is where the error is in the program, line and column counted
// from 1 (0, 0: nowhere in particular). A page that must not link the
// interpreter reads it through an interface of this one method.
func (e *Error) Place() (line, col int) { return e.Line, e.Col }

// errorAt is a program's error at pos.
func errorAt(pos syntax.Position, format string, args ...any) *Error {
	return &Error{Line: int(pos.Line), Col: int(pos.Col), Msg: fmt.Sprintf(format, args...)}
}

// evalError places an error the interpreter raised at the program's
// innermost line that was running.
func evalError(err error) *Error {
	var ee *starlark.EvalError
	if !errors.As(err, &ee) {
		return &Error{Msg: err.Error()}
	}
	msg := ee.Msg
	if strings.Contains(msg, "too many steps") {
		msg = fmt.Sprintf("the call took more than %s steps: a loop that never ends? (a call may take at most %s; a step is an instruction, or %d elements that an operation copies or reads)", grouped(MaxCallSteps), grouped(MaxCallSteps), ElementsPerStep)
	}
	for i := len(ee.CallStack) - 1; i >= 0; i-- {
		if pos := ee.CallStack[i].Pos; pos.Filename() == filename && pos.Line > 0 {
			return &Error{Line: int(pos.Line), Col: int(pos.Col), Msg: msg}
		}
	}
	return &Error{Msg: msg}
}

// Program is a learner's program compiled and run to its end once: its
// handlers, invariants, message kinds and commands. It does not change
// once made, and its globals are frozen, so the processes of every run
// share it.
type Program struct {
	globals starlark.StringDict
	// the handlers, nil when the program does not define them
	init, onMessage, onTimer, onCommand, onRecover, onWorkload, done *starlark.Function
	// commandArgs is how many of name, target and arg on_command takes.
	commandArgs int
	invariants  []invariant
	kinds       []sim.KindSpec
	commands    []sim.CommandSpec
	// roles are the roles of what the program draws (the critical
	// section, marks, cuts), for the legend; a program that records cuts
	// has their consistency checked.
	roles []sim.RoleSpec
	// measure is what MEASURE declares the processes and their messages
	// hold (the bank's money), which the cut tool adds up; nil for none.
	measure *sim.Measure
}

// invariant is one of the program's invariant_ functions.
type invariant struct {
	name string
	fn   *starlark.Function
}

// handlers are the functions a program may define, with the number of
// parameters each takes.
var handlers = map[string][]int{
	"init":        {1},
	"on_message":  {2},
	"on_timer":    {2},
	"on_command":  {2, 3, 4},
	"on_recover":  {1},
	"on_workload": {1},
	"done":        {1, 2},
}

// Compile parses and checks a program, and runs its top level.
func Compile(code string) (*Program, error) {
	if len(code) > MaxCode {
		return nil, &Error{Msg: fmt.Sprintf("the program is %s bytes long; a program may be at most %s", grouped(len(code)), grouped(MaxCode))}
	}
	if strings.TrimSpace(code) == "" {
		return nil, &Error{Msg: "the program is empty: write at least init(p), on_message(p, m) or on_timer(p, name)"}
	}
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}
	f, err := opts.Parse(filename, code, 0)
	if err != nil {
		var se syntax.Error
		if errors.As(err, &se) {
			return nil, syntaxError(code, se)
		}
		return nil, &Error{Msg: err.Error()}
	}
	if len(f.Stmts) > 0 {
		if l, ok := f.Stmts[0].(*syntax.LoadStmt); ok {
			return nil, errorAt(l.Load, "a program cannot load other files")
		}
	}
	sent := sentKinds(f)
	roles := drawn(f)
	guard(f)
	predeclared := guards()
	prog, err := starlark.FileProgram(f, predeclared.Has)
	if err != nil {
		var list resolve.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			return nil, errorAt(list[0].Pos, "%s", clipBytes(list[0].Msg, maxNamedError))
		}
		return nil, &Error{Msg: err.Error()}
	}
	if prog.NumLoads() > 0 {
		_, pos := prog.Load(0)
		return nil, errorAt(pos, "a program cannot load other files")
	}
	thread := newThread()
	globals, err := prog.Init(thread, predeclared)
	if err != nil {
		e := evalError(err)
		e.Where = "while the program's top level ran"
		return nil, e
	}
	globals.Freeze()
	p := &Program{globals: globals, roles: roles}
	if err := p.readHandlers(f); err != nil {
		return nil, err
	}
	if p.kinds, err = readKinds(globals, sent, f); err != nil {
		return nil, err
	}
	if p.commands, err = readCommands(globals, p.onCommand != nil, f); err != nil {
		return nil, err
	}
	if p.measure, err = p.readMeasure(f); err != nil {
		return nil, err
	}
	return p, nil
}

// calls says the program calls a method of this name (p.record).
func calls(f *syntax.File, method string) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			if d, ok := c.Fn.(*syntax.DotExpr); ok && d.Name.Name == method {
				found = true
			}
		}
		return !found
	})
	return found
}

// drawn are the roles of what a program draws, by the methods it calls:
// the critical section (p.want, p.enter, p.leave), marks (p.mark), cuts
// (p.record) and channels' states (p.record_channel). The legend then
// lists only what the program can draw.
func drawn(f *syntax.File) []sim.RoleSpec {
	var roles []sim.RoleSpec
	if calls(f, "want") || calls(f, "enter") || calls(f, "leave") {
		roles = append(roles, mutex.Roles...)
	}
	for _, r := range roleSpecs[len(mutex.Roles):] {
		method := map[string]string{RoleMark: "mark", RoleRecorded: "record", RoleChannel: "record_channel"}[r.Name]
		if calls(f, method) {
			roles = append(roles, r)
		}
	}
	return roles
}

// draws says the program draws role (it calls the method that draws it
// by name), or else the error a call that reached it another way gets.
func (p *Program) draws(role, method string) error {
	if p.drawsRole(role) {
		return nil
	}
	return fmt.Errorf("p.%s is called here in a way that does not name it (getattr): call it as p.%s(…), so that the page knows what the program draws", method, method)
}

// drawsRole says the program draws role.
func (p *Program) drawsRole(role string) bool {
	return slices.ContainsFunc(p.roles, func(r sim.RoleSpec) bool { return r.Name == role })
}

// readMeasure reads MEASURE, the quantity the processes and their
// messages hold, which a consistent cut conserves: MEASURE = "money", or
// {"name": "money", "format": "$%d"}, with measure(state) and
// measure_message(m) saying how much a process and a message hold.
func (p *Program) readMeasure(f *syntax.File) (*sim.Measure, error) {
	v, ok := p.globals["MEASURE"]
	if !ok {
		return nil, nil
	}
	pos := defined(f, "MEASURE")
	m := &sim.Measure{}
	format := "%d"
	switch x := v.(type) {
	case starlark.String:
		m.Name = string(x)
	case *starlark.Dict:
		for _, kv := range x.Items() {
			key, _ := kv[0].(starlark.String)
			text, isText := kv[1].(starlark.String)
			switch {
			case key == "name" && isText:
				m.Name = string(text)
			case key == "format" && isText && strings.Count(string(text), "%d") == 1 && strings.Count(string(text), "%") == 1:
				format = string(text)
			default:
				return nil, errorAt(pos, "MEASURE gives its name and its format, such as {\"name\": \"money\", \"format\": \"$%%d\"}; it holds %s: %s", kv[0].String(), kv[1].String())
			}
		}
	default:
		return nil, errorAt(pos, "MEASURE names what the processes hold (\"money\"), or is a dict of its name and format; it is a %s", v.Type())
	}
	if m.Name == "" {
		return nil, errorAt(pos, "MEASURE needs a name (\"money\")")
	}
	node, ok1 := p.globals["measure"].(*starlark.Function)
	msg, ok2 := p.globals["measure_message"].(*starlark.Function)
	if !ok1 || !ok2 || node.NumParams() != 1 || msg.NumParams() != 1 {
		return nil, errorAt(pos, "MEASURE needs def measure(state) and def measure_message(m), which say how much a process and a message hold")
	}
	m.Format = func(x int64) string { return fmt.Sprintf(format, x) }
	amount := func(fn *starlark.Function, arg starlark.Value) int64 {
		v, err := callBounded(nil, fn, starlark.Tuple{arg}, nil)
		if err != nil {
			return 0
		}
		var x int64
		if starlark.AsInt(v, &x) != nil {
			return 0
		}
		return x
	}
	m.OfNode = func(n sim.Node) int64 {
		if pr, ok := n.(*Process); ok {
			return amount(node, pr.frozenState())
		}
		return 0
	}
	m.OfMessage = func(sm sim.Message) int64 {
		mm := &message{kind: sm.Kind, words: sm.Data}
		mm.Freeze()
		return amount(msg, mm)
	}
	return m, nil
}

// maxNamedError bounds, in bytes, a syntax or name error's message, which
// names what the program wrote ("undefined: x"): a name as long as the
// program is not said back in full.
const maxNamedError = 150

// clipBytes cuts s to at most limit bytes, at a character's boundary,
// marking the cut with "…".
func clipBytes(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// syntaxError places a syntax error where a reader looks for it: an
// error found at the start of a line ("got newline, want ':'") belongs to
// the end of the line before, as Python says it.
func syntaxError(code string, se syntax.Error) *Error {
	e := errorAt(se.Pos, "%s", clipBytes(se.Msg, maxNamedError))
	if strings.HasPrefix(se.Msg, "got newline") && e.Line > 1 && e.Col <= 1 {
		lines := strings.Split(code, "\n")
		if e.Line-2 < len(lines) {
			prev := strings.TrimRight(lines[e.Line-2], " \t\r")
			e.Line, e.Col = e.Line-1, utf8.RuneCountInString(prev)+1
		}
	}
	return e
}

// newThread is an interpreter thread bounded to MaxCallSteps steps.
func newThread() *starlark.Thread {
	t := &starlark.Thread{Name: "program", Print: printed}
	t.SetMaxExecutionSteps(MaxCallSteps)
	return t
}

// printing is the thread-local key of the call that takes what the
// program prints: the handler's, which says it; none for an invariant.
const printing = "call"

// printed is print(...): said by the handler's process.
func printed(t *starlark.Thread, msg string) {
	if c, ok := t.Local(printing).(*call); ok && c != nil {
		c.say(msg)
	}
}

// callBounded calls fn on thread t (nil: a new one), bounded to
// MaxCallSteps; c, if not nil, is the handler's call, which takes what
// it prints. A run calls the program a few times a step, each time on a
// thread its processes keep (threadOf), which a call would otherwise
// allocate.
func callBounded(t *starlark.Thread, fn starlark.Callable, args starlark.Tuple, c *call) (starlark.Value, error) {
	if t == nil {
		t = newThread()
	}
	t.Steps = 0
	t.Uncancel()
	t.SetLocal(printing, c)
	v, err := starlark.Call(t, fn, args, nil)
	t.SetLocal(printing, (*call)(nil))
	return v, err
}

// defined finds where the program defines a top-level name.
func defined(f *syntax.File, name string) syntax.Position {
	for _, s := range f.Stmts {
		switch s := s.(type) {
		case *syntax.DefStmt:
			if s.Name.Name == name {
				return s.Name.NamePos
			}
		case *syntax.AssignStmt:
			if id, ok := s.LHS.(*syntax.Ident); ok && id.Name == name {
				return id.NamePos
			}
		}
	}
	return syntax.Position{}
}

// readHandlers finds the handlers and invariants, refusing a handler of
// the wrong shape or a name that looks like a handler and is none.
func (p *Program) readHandlers(f *syntax.File) error {
	slots := map[string]**starlark.Function{
		"init": &p.init, "on_message": &p.onMessage, "on_timer": &p.onTimer, "on_command": &p.onCommand,
		"on_recover": &p.onRecover, "on_workload": &p.onWorkload, "done": &p.done,
	}
	for _, name := range p.globals.Keys() {
		v := p.globals[name]
		fn, isFn := v.(*starlark.Function)
		if arity, ok := handlers[name]; ok {
			if !isFn {
				return errorAt(defined(f, name), "%s must be a function (def %s(...)), not a %s", name, name, v.Type())
			}
			if fn.HasVarargs() || fn.HasKwargs() || !slices.Contains(arity, fn.NumParams()) {
				return errorAt(defined(f, name), "%s takes %s", name, handlerParams[name])
			}
			*slots[name] = fn
			if name == "on_command" {
				p.commandArgs = fn.NumParams() - 1
			}
			continue
		}
		if strings.HasPrefix(name, "invariant_") && isFn {
			if fn.NumParams() != 1 && fn.NumParams() != 2 {
				return errorAt(defined(f, name), "%s takes the processes' states, and the world if it needs it: def %s(states) or def %s(states, world)", name, name, name)
			}
			p.invariants = append(p.invariants, invariant{name: invariantName(name), fn: fn})
			continue
		}
		if strings.HasPrefix(name, "on_") && isFn {
			return errorAt(defined(f, name), "%s is not a handler Spacetime calls (they are %s)", name, strings.Join(handlerNames(), ", "))
		}
	}
	slices.SortFunc(p.invariants, func(a, b invariant) int { return int(a.fn.Position().Line - b.fn.Position().Line) })
	return nil
}

// handlerParams says what each handler takes.
var handlerParams = map[string]string{
	"init":        "one parameter, the process: def init(p)",
	"on_message":  "the process and the message: def on_message(p, m)",
	"on_timer":    "the process and the timer's name: def on_timer(p, name)",
	"on_command":  "the process, the command's name, and its target and number if it has them: def on_command(p, name) or def on_command(p, name, target, arg)",
	"on_recover":  "one parameter, the process: def on_recover(p)",
	"on_workload": "one parameter, the process: def on_workload(p)",
	"done":        "the processes' states, and the world if it needs it: def done(states) or def done(states, world)",
}

func handlerNames() []string {
	var names []string
	for n := range handlers {
		if strings.HasPrefix(n, "on_") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// invariantName is how an invariant_ function is named in reports:
// invariant_one_token is "one token".
func invariantName(fn string) string {
	return strings.ReplaceAll(strings.TrimPrefix(fn, "invariant_"), "_", " ")
}

// sentKinds finds the kinds a program sends by name: the text literals
// it gives p.send as its second argument and p.broadcast as its first.
func sentKinds(f *syntax.File) []string {
	var kinds []string
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		d, ok := c.Fn.(*syntax.DotExpr)
		if !ok {
			return true
		}
		at := map[string]int{"send": 1, "broadcast": 0}
		if i, ok := at[d.Name.Name]; ok && i < len(c.Args) {
			if lit, ok := c.Args[i].(*syntax.Literal); ok && lit.Token == syntax.STRING {
				if k, _ := lit.Value.(string); k != "" && !slices.Contains(kinds, k) {
					kinds = append(kinds, k)
				}
			}
		}
		return true
	})
	return kinds
}

// roles are the message roles a program's KINDS may name, and
// application the application's messages (drawn as messages).
var roles = []sim.Role{sim.RoleMessage, sim.RoleControl, sim.RoleToken, sim.RoleMarker}

const application = "application"

// kindLooks are the tones and glyphs given to kinds in order, so that
// kinds of one role can be told apart in colour and without.
var (
	kindTones  = []sim.Tone{sim.Blue, sim.Green, sim.Purple, sim.Orange, sim.Teal, sim.Grey, sim.Cyan, sim.Red}
	kindGlyphs = []sim.Glyph{sim.GlyphTriangle, sim.GlyphRing, sim.GlyphSquare, sim.GlyphDiamond, sim.GlyphCross, sim.GlyphPlus, sim.GlyphOpenTriangle, sim.GlyphOpenSquare}
)

// MaxKinds bounds the message kinds of a program.
const MaxKinds = 32

// readKinds makes the message kinds: those KINDS declares, as a list of
// names or a dict of name to role (or "application": the application's
// own traffic, which reports count apart), then those the program sends
// by name.
// A kind's role is guessed from its name when not given (a TOKEN is a
// token, a MARKER a marker).
func readKinds(globals starlark.StringDict, sent []string, f *syntax.File) ([]sim.KindSpec, error) {
	declared := map[string]sim.Role{}
	var names []string
	if v, ok := globals["KINDS"]; ok {
		pos := defined(f, "KINDS")
		switch x := v.(type) {
		case *starlark.List, starlark.Tuple:
			it := starlark.Iterate(x)
			var e starlark.Value
			for it.Next(&e) {
				s, ok := e.(starlark.String)
				if !ok || s == "" {
					it.Done()
					return nil, errorAt(pos, "KINDS lists message kinds by name; it holds a %s", e.Type())
				}
				names = append(names, string(s))
			}
			it.Done()
		case *starlark.Dict:
			for _, kv := range x.Items() {
				name, ok1 := kv[0].(starlark.String)
				role, ok2 := kv[1].(starlark.String)
				if !ok1 || !ok2 || name == "" || !(slices.Contains(roles, sim.Role(role)) || role == application) {
					return nil, errorAt(pos, "KINDS maps each kind to its role, one of %q, %q, %q, %q and %q; it holds %s: %s", roles[0], roles[1], roles[2], roles[3], application, kv[0].String(), kv[1].String())
				}
				names = append(names, string(name))
				declared[string(name)] = sim.Role(role)
			}
		default:
			return nil, errorAt(pos, "KINDS is a list of message kinds, or a dict of kind to role; it is a %s", v.Type())
		}
	}
	for _, k := range sent {
		if !slices.Contains(names, k) {
			names = append(names, k)
		}
	}
	if len(names) > MaxKinds {
		return nil, &Error{Msg: fmt.Sprintf("the program sends %d kinds of message; a program may have at most %d", len(names), MaxKinds)}
	}
	kinds := make([]sim.KindSpec, len(names))
	for i, name := range names {
		role, ok := declared[name]
		if !ok {
			role = guessRole(name)
		}
		k := sim.KindSpec{Name: name, Role: role, Tone: kindTones[i%len(kindTones)], Glyph: kindGlyphs[i%len(kindGlyphs)]}
		if role == application {
			k.Role, k.Application = sim.RoleMessage, true
		}
		if role == sim.RoleToken {
			k.Tone, k.Glyph = sim.Gold, sim.GlyphToken
		}
		kinds[i] = k
	}
	return kinds, nil
}

// guessRole is a kind's role read from its name.
func guessRole(name string) sim.Role {
	up := strings.ToUpper(name)
	switch {
	case strings.Contains(up, "TOKEN"):
		return sim.RoleToken
	case strings.Contains(up, "MARKER"), strings.Contains(up, "BARRIER"):
		return sim.RoleMarker
	}
	return sim.RoleMessage
}

// MaxCommands bounds the commands of a program.
const MaxCommands = 16

// readCommands makes the commands COMMANDS declares: a list of names, or
// a dict of name to its help, or to a dict that says more ({"help": ...,
// "target": True, "arg": "amount", "min": 1, "max": 100}).
func readCommands(globals starlark.StringDict, handled bool, f *syntax.File) ([]sim.CommandSpec, error) {
	v, ok := globals["COMMANDS"]
	pos := defined(f, "COMMANDS")
	if !ok {
		if handled {
			return nil, errorAt(defined(f, "on_command"), "on_command needs the commands it takes: COMMANDS = [\"request\"] (or a dict of name to help)")
		}
		return nil, nil
	}
	if !handled {
		return nil, errorAt(pos, "COMMANDS names commands, but there is no on_command(p, name) to take them")
	}
	var cmds []sim.CommandSpec
	add := func(name starlark.Value, about starlark.Value) error {
		s, ok := name.(starlark.String)
		if !ok || s == "" || strings.ContainsAny(string(s), " \t\n") {
			return errorAt(pos, "a command's name is one word of text, got %s", name.String())
		}
		c := sim.CommandSpec{Name: string(s), Help: "run on_command(p, \"" + string(s) + "\")"}
		switch a := about.(type) {
		case nil, starlark.NoneType:
		case starlark.String:
			c.Help = string(a)
		case *starlark.Dict:
			for _, kv := range a.Items() {
				key, _ := kv[0].(starlark.String)
				switch key {
				case "help":
					h, ok := kv[1].(starlark.String)
					if !ok {
						return errorAt(pos, "command %s: help is text", s)
					}
					c.Help = string(h)
				case "target":
					c.Target = bool(kv[1].Truth())
				case "arg":
					h, ok := kv[1].(starlark.String)
					if !ok || h == "" {
						return errorAt(pos, "command %s: arg names its number (\"amount\")", s)
					}
					c.Arg = string(h)
				case "min", "max":
					var i int64
					if starlark.AsInt(kv[1], &i) != nil {
						return errorAt(pos, "command %s: %s is a whole number of at most 64 bits", s, key)
					}
					if key == "min" {
						c.ArgMin = i
					} else {
						c.ArgMax = i
					}
				default:
					return errorAt(pos, "command %s: unknown field %s (known: help, target, arg, min, max)", s, kv[0].String())
				}
			}
			if c.Arg != "" && c.ArgMax == 0 && c.ArgMin == 0 {
				c.ArgMin, c.ArgMax = 1, 1_000_000
			}
		default:
			return errorAt(pos, "command %s: give its help as text, or a dict", s)
		}
		cmds = append(cmds, c)
		return nil
	}
	switch x := v.(type) {
	case *starlark.List, starlark.Tuple:
		it := starlark.Iterate(x)
		var e starlark.Value
		for it.Next(&e) {
			if err := add(e, nil); err != nil {
				it.Done()
				return nil, err
			}
		}
		it.Done()
	case *starlark.Dict:
		for _, kv := range x.Items() {
			if err := add(kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
	default:
		return nil, errorAt(pos, "COMMANDS is a list of command names, or a dict of name to help; it is a %s", v.Type())
	}
	if len(cmds) > MaxCommands {
		return nil, errorAt(pos, "a program may have at most %d commands, got %d", MaxCommands, len(cmds))
	}
	return cmds, nil
}
