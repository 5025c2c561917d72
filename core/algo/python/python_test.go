package python_test

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/algo/all"
	"spacetime/core/algo/python"
	"spacetime/core/algo/python/ports"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/core/sim"
)

func TestMain(m *testing.M) {
	all.Add(python.Spec)
	os.Exit(m.Run())
}

// example is the program of README's "Write it yourself", as a learner
// writes it (the Write view's starter).
var example = ports.Starter()

// runProgram runs a program on a scenario given as JSON with "code" left
// for the program.
func runProgram(t *testing.T, code, doc string) *engine.Run {
	t.Helper()
	var s scenario.Scenario
	require.NoError(t, json.Unmarshal([]byte(doc), &s))
	s.Algorithm, s.Code = python.ID, code
	p, err := s.Compile()
	require.NoError(t, err)
	r, err := p.Run()
	require.NoError(t, err)
	return r
}

func TestTheExampleRingPassesOneToken(t *testing.T) {
	r := runProgram(t, example, `{"n": 4, "seed": 1, "until": {"steps": 40}}`)
	require.Nil(t, r.Err())
	assert.Equal(t, 40, r.Len())
	msgs := r.Trace().Msgs
	require.NotEmpty(t, msgs)
	for i, m := range msgs {
		assert.Equal(t, "TOKEN", m.Kind)
		assert.Equal(t, int(m.From+1)%4, int(m.To), "message %d goes round the ring", i)
		assert.Equal(t, strconv.Itoa(i+1), m.Label, "its label is its hops")
	}
	for _, f := range r.Failures() {
		assert.Equal(t, -1, f.Step, "%s holds", f.Name)
	}
	names := []string{r.Failures()[0].Name, r.Failures()[1].Name}
	assert.Equal(t, []string{python.NoErrorName, "one token"}, names)
	st := r.At(r.Len()).View()
	holders := 0
	for id := range 4 {
		for _, f := range st.Node(sim.NodeID(id)).Inspect() {
			if f.Name == "has" && f.Value == "True" {
				holders++
			}
		}
	}
	assert.Equal(t, 1, holders)
	assert.Equal(t, `1's timer "pass" fires: 1 passes the token to 2`, r.Trace().Records[4].Caption)
}

// Errors name their line and column, and, in a run, the process, the
// handler and the event; the run stops at that step.
func TestErrorsAtTheirLine(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		line, col  int
		want       string
	}{
		{"syntax", "def init(p)\n    pass\n", 1, 12, "want ':'"},
		{"undefined", "def init(p):\n    p.state['x'] = nothing\n", 2, 20, "undefined: nothing"},
		{"arity", "def on_message(p):\n    pass\n", 1, 5, "on_message takes the process and the message"},
		{"typo", "def on_mesage(p, m):\n    pass\n", 1, 5, "on_mesage is not a handler"},
		{"commands", "COMMANDS = ['go']\n", 1, 1, "no on_command"},
		{"load", "load('x.star', 'y')\n", 1, 1, "cannot load"},
		{"top level", "x = {}['missing']\n", 1, 7, "key \"missing\" not in dict"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := python.Compile(tc.code)
			var pe *python.Error
			require.True(t, errors.As(err, &pe), "%v", err)
			assert.Equal(t, [2]int{tc.line, tc.col}, [2]int{pe.Line, pe.Col}, pe.Error())
			assert.Contains(t, pe.Error(), tc.want)
		})
	}

	code := "def init(p):\n    if p.id == 2:\n        p.send(1, 'PING', n=1)\n\ndef on_message(p, m):\n    p.state['y'] = m.fields['missing']\n"
	r := runProgram(t, code, `{"n": 3, "seed": 1, "until": {"steps": 20}}`)
	require.NotNil(t, r.Err())
	assert.Equal(t, engine.StoppedFailed, r.Stopped())
	assert.Equal(t, r.Err().Step+1, r.Len(), "the run stops at the failing step")
	var pe *python.Error
	require.True(t, errors.As(r.Err(), &pe))
	assert.Equal(t, [2]int{6, 28}, [2]int{pe.Line, pe.Col})
	assert.Equal(t, "in on_message of 1, taking PING from 2", pe.Where)
	assert.Contains(t, r.Trace().Records[r.Len()-1].Caption, `key "missing" not in dict`)
	assert.Equal(t, r.Err().Step, r.Failures()[0].Step, "the run's own invariant fails there")
}

// Every bound ends the call with an error that names it, at the first
// step, whatever the program asks for.
func TestBounds(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"endless loop", "while True:\n        pass", "more than 2,000,000 steps"},
		{"a long text", "p.state['s'] = 'x' * 1000000000", "a text of 1,000,000,000 characters"},
		{"a list that doubles", "l = [1]\n    while True:\n        l = l + l", "a list of 1,048,576 elements"},
		{"a number counted up", "n = 0\n    while True:\n        n += 1", "more than 2,000,000 steps"},
		// each of these copies or reads a whole value in one instruction,
		// which is charged for what it copies (ElementsPerStep)
		{"a text grown by a literal", "s = ''\n    while True:\n        s = s + '0123456789'", "more than 2,000,000 steps"},
		{"a text grown in place", "s = ''\n    while True:\n        s += '0123456789'", "more than 2,000,000 steps"},
		{"a long list made again", "while True:\n        l = list(range(999999))", "more than 2,000,000 steps"},
		{"a long list sorted again", "l = list(range(999999))\n    while True:\n        sorted(l)", "more than 2,000,000 steps"},
		{"a long list sliced again", "l = list(range(999999))\n    while True:\n        l[1:]", "more than 2,000,000 steps"},
		{"a long dict read again", "d = {i: i for i in range(200000)}\n    while True:\n        d.items()", "more than 2,000,000 steps"},
		{"a long text printed again", "l = list(range(100000))\n    while True:\n        str(l)", "more than 2,000,000 steps"},
		{"a self-sharing tuple in a set", "t = (1,)\n    for i in range(60):\n        t = (t, t)\n    s = set([t])", "more than 1,000,000 elements"},
		{"a self-sharing list sorted", "a = [1]\n    for i in range(60):\n        a = [a, a]\n    sorted([a, a])", "more than 1,000,000 elements"},
		{"a self-sharing list indexed", "a = [1]\n    for i in range(60):\n        a = [a, a]\n    [a, a].index(a)", "more than 1,000,000 elements"},
		{"a big product again", "x = pow(3, 20000)\n    while True:\n        y = x * x", "more than 2,000,000 steps"},
		{"a big quotient again", "x = pow(3, 32000)\n    y = pow(3, 20000)\n    while True:\n        x // y", "more than 2,000,000 steps"},
		{"a long number read again", "s = '9' * 19000\n    while True:\n        int(s)", "more than 2,000,000 steps"},
		{"a number of too many digits", "int('9' * 20001)", "at most 20,000 characters"},
		{"a long set made again", "while True:\n        s = set(range(999999))", "more than 2,000,000 steps"},
		{"a text in a dict grown in place", "d = {'s': ''}\n    while True:\n        d['s'] += 'ab'", "more than 2,000,000 steps"},
		{"a long format by a number", "f = 'x' * 999990 + '%d'\n    while True:\n        f % 5", "more than 2,000,000 steps"},
		{"a long number read by name", "int(x='9' * 999999)", "at most 20,000 characters"},
		{"a long list summed again", "l = list(range(999999))\n    while True:\n        sum(l)", "more than 2,000,000 steps"},
		{"a list added to itself", "l = [1]\n    for i in range(100):\n        l += l", "a list of 1,048,576 elements"},
		{"a list extended by itself", "l = [1]\n    for i in range(100):\n        l.extend(l)", "a list of 1,048,576 elements"},
		{"a list repeated", "p.state['l'] = [0] * 2000000", "a list of 2,000,000 elements"},
		{"a join", "s = 'x' * 100000\n    p.state['j'] = ''.join([s for i in range(100)])", "a text of more than 1,000,000 characters"},
		{"text of a shared value", "a = [1]\n    for i in range(60):\n        a = [a, a]\n    p.state['s'] = str(a)", "more than a program may make"},
		{"formatting", "a = 'x' * 900000\n    p.state['s'] = '%s%s' % (a, a)", "more than a program may make"},
		{"a replace", "s = 'x' * 100000\n    p.state['s'] = s.replace('', 'yyyyyyyyyy')", "more than a program may make"},
		{"a range", "p.state['r'] = list(range(1000000000))", "range of 1,000,000,000 numbers"},
		{"a power", "p.state['x'] = pow(10, 1000000)", "bits"},
		{"a square", "x = 3\n    while True:\n        x = x * x", "bits"},
		{"a shift", "p.state['x'] = 1 << 100000", "bits"},
		{"a message", "p.send(2, 'BIG', data=list(range(100000)))", "a message's fields may take at most 65,536 words"},
		{"recursion", "init(p)", "called recursively"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code := "def init(p):\n    " + tc.body + "\n"
			r := runProgram(t, code, `{"n": 2, "seed": 1, "until": {"steps": 5}}`)
			require.NotNil(t, r.Err(), "the bound ends the run")
			assert.Equal(t, 0, r.Err().Step)
			assert.Contains(t, r.Err().Error(), tc.want)
		})
	}
}

// What invariants read at a step is kept for the step's other
// invariants, but never across timelines: a run replayed from a step
// with another fault that changes no state (a crash) reads the new
// world.
func TestInvariantsReadTheTimelineOnScreen(t *testing.T) {
	code := "def init(p):\n    p.after(1, 't')\n\ndef on_timer(p, name):\n    p.state['n'] = p.state.get('n', 0) + 1\n    p.after(1, 't')\n\n" +
		"def invariant_two_is_up(states, world):\n    return world.health[1] == 'up'\n"
	r := runProgram(t, code, `{"n": 3, "seed": 1, "until": {"steps": 129}}`)
	const k = 128
	failure := func() int {
		for _, f := range r.Failures() {
			if f.Name == "two is up" {
				return f.Step
			}
		}
		t.Fatal("no such invariant")
		return 0
	}
	require.NoError(t, r.ReplayFrom(k, []engine.Input{{Step: k, Action: engine.Fault("crash", faults.AtProcess(2))}}))
	assert.Equal(t, -1, failure(), "3 crashed: 2 is up")
	require.NoError(t, r.ReplayFrom(k, []engine.Input{{Step: k, Action: engine.Fault("crash", faults.AtProcess(1))}}))
	assert.Equal(t, k, failure(), "2 crashed, in the timeline replayed")
}

// The lookups of dicts and sets, and a list's pop from its end, take a
// moment and are charged so: a program that makes a thousand of them
// runs (each would have been charged the whole container).
func TestLookupsAreCheap(t *testing.T) {
	for _, body := range []string{
		"d = {i: i for i in range(1000)}\n    n = 0\n    for i in range(1000):\n        n += d.get(i, 0)",
		"s = set()\n    for i in range(1000):\n        s.add(i)",
		"d = {}\n    for i in range(1000):\n        d.setdefault(i, [])",
		"q = [{'k': i} for i in range(1000)]\n    for i in range(1000):\n        q.pop()",
		"l = [[0] * 1000] * 1000\n    l.pop()",
	} {
		r := runProgram(t, "def init(p):\n    "+body+"\n", `{"n": 1, "seed": 1, "until": {"steps": 2}}`)
		assert.Nil(t, r.Err(), body)
	}
}

// A message carries any data a process keeps, and the receiver gets its
// own copy.
func TestMessagesCarryData(t *testing.T) {
	code := `
DATA = {"n": -7, "big": 123456789012345678901234567890, "f": 2.5, "t": "héllo", "b": True, "none": None,
        "list": [1, [2, 3], {"k": (4, 5)}], "set": set([1, 2]), "bytes": b"\x00\x01"}
def init(p):
    if p.id == 1:
        p.send(2, "DATA", **DATA)

def on_message(p, m):
    p.state["same"] = (m.fields == DATA)
    m.fields["list"].append(9)
    p.state["got"] = m.fields

def invariant_same(states):
    return states[1].get("same", True)
`
	r := runProgram(t, code, `{"n": 2, "seed": 1, "until": {"steps": 5}}`)
	require.Nil(t, r.Err())
	for _, f := range r.Failures() {
		assert.Equal(t, -1, f.Step, "%s: %s", f.Name, f.Detail)
	}
}

// The engine's copies of a process (its keyframes, the search) do not
// change with it, and the program's globals are frozen.
func TestStateIsTheProcesssOwn(t *testing.T) {
	code := `
LOG = []
def init(p):
    p.state["log"] = []
    p.after(1, "tick")

def on_timer(p, name):
    p.state["log"].append(p.now)
    if p.now == 50:
        LOG.append(1)
    p.after(1, "tick")
`
	r := runProgram(t, code, `{"n": 1, "seed": 1, "until": {"steps": 80}}`)
	require.NotNil(t, r.Err())
	assert.Contains(t, r.Err().Error(), "cannot append to frozen list")
	early := r.At(10).View().Node(0).Inspect()
	assert.Equal(t, "[1, 2, 3, 4, 5, 6, 7, 8, 9]", early[0].Value, "a keyframe's copy keeps its own log")
}

// A crash loses p.state and keeps p.disk; on_recover runs.
func TestRecoverKeepsTheDisk(t *testing.T) {
	code := `
def init(p):
    p.state["volatile"] = 1
    p.disk["durable"] = 2

def on_recover(p):
    p.state["back"] = p.disk["durable"]
`
	r := runProgram(t, code, `{"n": 2, "seed": 1, "script": [{"at": 2, "node": 1, "fault": "crash"}, {"at": 4, "node": 1, "fault": "recover"}], "until": {"time": 6}}`)
	require.Nil(t, r.Err())
	fields := r.At(r.Len()).View().Node(0).Inspect()
	assert.Equal(t, "back", fields[0].Name)
	assert.Equal(t, "2", fields[0].Value)
	assert.Equal(t, "disk durable", fields[1].Name)
}

// Commands take their target and number; p.random is the run's seeded
// stream, so a run is the same every time.
func TestCommandsAndRandomness(t *testing.T) {
	code := `
COMMANDS = {"give": {"help": "give an amount to another", "target": True, "arg": "amount", "min": 1, "max": 10}}
KINDS = ["GIFT"]
def init(p):
    p.state["rolls"] = [p.randint(1, 6) for i in range(5)]

def on_command(p, name, target, arg):
    p.send(target, "GIFT", amount=arg)

def on_message(p, m):
    p.state["got"] = m.amount
`
	doc := `{"n": 2, "seed": 7, "script": [{"at": 1, "node": 1, "command": "give", "target": 2, "arg": 4}], "until": {"time": 5}}`
	a, b := runProgram(t, code, doc), runProgram(t, code, doc)
	require.Nil(t, a.Err())
	assert.Equal(t, a.At(a.Len()).View().Node(1).Inspect(), b.At(b.Len()).View().Node(1).Inspect())
	fields := a.At(a.Len()).View().Node(1).Inspect()
	assert.Equal(t, "got", fields[1].Name)
	assert.Equal(t, "4", fields[1].Value)

	var s scenario.Scenario
	require.NoError(t, json.Unmarshal([]byte(`{"n": 2, "script": [{"at": 1, "node": 1, "command": "give", "target": 2, "arg": 40}], "until": {"time": 5}}`), &s))
	s.Algorithm, s.Code = python.ID, code
	_, err := s.Compile()
	assert.ErrorContains(t, err, "the amount is from 1 to 10, got 40")
}

// An invariant reads copies it cannot change, and a p kept past its call
// does nothing.
func TestInvariantsReadOnlyAndPKeptPastItsCall(t *testing.T) {
	r := runProgram(t, "def init(p):\n    p.state['x'] = 1\n\ndef invariant_meddles(states):\n    states[0]['x'] = 2\n    return True\n",
		`{"n": 1, "seed": 1, "until": {"steps": 3}}`)
	f := r.Failures()[1]
	assert.Equal(t, 0, f.Step)
	assert.Contains(t, f.Detail, "frozen")

	r = runProgram(t, "KEPT = []\ndef init(p):\n    p.after(1, 't')\n    p.state['me'] = [p]\n\ndef on_timer(p, name):\n    p.state['me'][0].send(1, 'X')\n",
		`{"n": 1, "seed": 1, "until": {"steps": 3}}`)
	require.NotNil(t, r.Err())
	assert.Contains(t, r.Err().Error(), "belongs to a call that has ended")
}

// README's example is the Write view's starter, word for word: the
// contract a learner reads is the program they start from.
func TestREADMEShowsTheStarter(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	require.NoError(t, err)
	assert.Contains(t, string(readme), "```python\n"+example+"```", "README's example")
}
