package lab_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
	"spacetime/core/algo/all"
	"spacetime/core/algo/python"
	"spacetime/core/faults"
	"spacetime/core/sim"
	"spacetime/internal/conformance"
)

// The session's generic tests run on the conformance suite's relay, a
// fixture whose story never changes, where the lesson is incidental.
func TestMain(m *testing.M) {
	all.AddFixture(conformance.Relay)
	all.Add(python.Spec) // the Write view's client links it

	os.Exit(m.Run())
}

// relayJSON is a ring of four that passes a token while each process
// pings random others, on FIFO channels with random delays, cut off while
// pings are still in flight.
const relayJSON = `{
  "id": "relay-pings",
  "algorithm": "relay",
  "names": ["A", "B", "C", "D"],
  "seed": 3,
  "scheduler": "earliest",
  "network": {"fifo": true, "delay": [1, 6]},
  "workload": {"every": [1, 3], "until": 40},
  "until": {"time": 40}
}`

// openRelay opens relayJSON.
func openRelay(t *testing.T) *lab.Session { t.Helper(); return openJSON(t, relayJSON) }

// queued seeks to the first step at which a channel holds two messages or
// more, and returns them in the order they must be delivered, and the
// channel's ends.
func queued(t *testing.T, sess *lab.Session) (ids []int, from, to sim.NodeID) {
	t.Helper()
	for k := 0; k <= sess.Len(); k++ {
		sess.Seek(k)
		v := sess.State().View()
		for from := range sim.NodeID(v.N()) {
			for to := range sim.NodeID(v.N()) {
				if ids := v.InFlight(from, to); len(ids) > 1 {
					return ids, from, to
				}
			}
		}
	}
	require.Fail(t, "no channel ever holds two messages")
	return nil, sim.None, sim.None
}

func TestForwardBackSeek(t *testing.T) {
	sess := openRelay(t)
	n := sess.Len()
	tests := []struct {
		seek, want int
	}{
		{0, 0}, {1, 1}, {10, 10}, {n - 1, n - 1}, {n, n},
		{-1, 0}, {-1000, 0}, {n + 1, n}, {1 << 40, n},
	}
	for _, tc := range tests {
		sess.Seek(tc.seek)
		assert.Equal(t, tc.want, sess.Step(), "Seek(%d)", tc.seek)
		assert.Equal(t, tc.want, sess.State().Step(), "the state follows the step")
	}

	sess.Seek(0)
	assert.False(t, sess.Back(), "nothing before step 0")
	assert.Equal(t, 0, sess.Step())
	for k := 1; k <= n; k++ {
		require.True(t, sess.Forward())
		require.Equal(t, k, sess.Step())
	}
	assert.False(t, sess.Forward(), "nothing after the end")
	assert.Equal(t, n, sess.Step())
	for k := n - 1; k >= 0; k-- {
		require.True(t, sess.Back())
		require.Equal(t, k, sess.Step())
	}
	assert.False(t, sess.Back())
	assert.Equal(t, n, sess.Len(), "stepping does not change the run")
}

// TestActRefused checks that an action that cannot happen is refused with
// a plain reason and leaves the session exactly as it was, at the end of
// the run and in its middle.
func TestActRefused(t *testing.T) {
	delivered := func(s *lab.Session) int {
		for _, m := range s.Run().Trace().MsgsBefore(s.Step()) {
			if m.ReceivedAt(s.Step()) {
				return m.ID
			}
		}
		return -1
	}
	crashed := func(node sim.NodeID) func(t *testing.T, s *lab.Session) {
		return func(t *testing.T, s *lab.Session) { require.NoError(t, s.Fault("crash", faults.AtProcess(node))) }
	}
	tests := []struct {
		name string
		prep func(t *testing.T, s *lab.Session)
		act  func(s *lab.Session) error
		want string
	}{
		{"deliver a delivered message", nil,
			func(s *lab.Session) error { return s.Deliver(delivered(s)) }, "not in flight"},
		{"deliver a message never sent", nil,
			func(s *lab.Session) error { return s.Deliver(999) }, "no message #999"},
		{"drop a delivered message", nil,
			func(s *lab.Session) error { return s.Act(dropAction(delivered(s))) }, "not in flight"},
		{"recover a process that is up", nil,
			func(s *lab.Session) error { return s.Fault("recover", faults.AtProcess(0)) }, "A has not crashed"},
		{"crash a process that does not exist", nil,
			func(s *lab.Session) error { return s.Fault("crash", faults.AtProcess(7)) }, "no process 8"},
		{"pause for no time", nil,
			func(s *lab.Session) error {
				return s.Fault("pause", faults.AtProcess(1).With("for", faults.ParamTicks.Num(0)))
			}, "at least one tick"},
		{"unknown command", nil,
			func(s *lab.Session) error { return s.Command(0, "fly", 0, 0) }, `no command "fly"`},
		{"ping oneself", nil,
			func(s *lab.Session) error { return s.Command(0, "ping", 0, 0) }, "another process"},
		{"a command the process does not take", nil,
			func(s *lab.Session) error { return s.Command(1, "poke", sim.None, 0) }, "odd-numbered"},
		{"crash twice", crashed(1),
			func(s *lab.Session) error { return s.Fault("crash", faults.AtProcess(1)) }, "B has already crashed"},
		{"command at a crashed process", crashed(2),
			func(s *lab.Session) error { return s.Command(2, "poke", sim.None, 0) }, "C is crashed"},
		{"pause a paused process",
			func(t *testing.T, s *lab.Session) {
				require.NoError(t, s.Fault("pause", faults.AtProcess(0).With("for", faults.ParamTicks.Num(10))))
			},
			func(s *lab.Session) error {
				return s.Fault("pause", faults.AtProcess(0).With("for", faults.ParamTicks.Num(3)))
			}, "paused"},
	}
	for _, tc := range tests {
		for _, at := range []string{"end", "middle"} {
			t.Run(tc.name+" at the "+at, func(t *testing.T) {
				sess := openRelay(t)
				sess.Seek(sess.Len())
				if at == "middle" {
					sess.Seek(sess.Len() / 2)
				}
				actRefused(t, sess, tc.prep, tc.act, tc.want)
			})
		}
	}

	// Messages queued on one channel: only the head may be delivered, and
	// not to a crashed process.
	t.Run("deliver behind the head of a FIFO channel", func(t *testing.T) {
		sess := openRelay(t)
		ids, _, _ := queued(t, sess)
		actRefused(t, sess, nil, func(s *lab.Session) error { return s.Deliver(ids[1]) }, "FIFO")
	})
	t.Run("deliver to a crashed process", func(t *testing.T) {
		sess := openRelay(t)
		ids, _, to := queued(t, sess)
		actRefused(t, sess, crashed(to), func(s *lab.Session) error { return s.Deliver(ids[0]) }, sess.Scenario().Names[to]+" is crashed")
	})
}

func TestFIFOErrorNamesTheHead(t *testing.T) {
	sess := openRelay(t)
	ids, from, to := queued(t, sess)
	head := sess.Diagram().Describe(ids[0])
	err := sess.Deliver(ids[1])
	require.Error(t, err)
	v := sess.State().View()
	assert.Equal(t, fmt.Sprintf("the channel %s→%s is FIFO: only its head, %s (#%d), can be delivered next", v.Name(from), v.Name(to), head, ids[0]), err.Error())
	assert.Equal(t, fmt.Sprintf("ping %s→%s", v.Name(from), v.Name(to)), head)
	step := sess.Step()
	require.NoError(t, sess.Deliver(ids[0]), "the head can be delivered")
	assert.Equal(t, step+1, sess.Step())
	assert.Equal(t, "learner", sess.CaptionSource())
	assert.Equal(t, fmt.Sprintf("%s is pinged by %s", v.Name(to), v.Name(from)), sess.Caption())
}

func TestCrashLink(t *testing.T) {
	sess := openRelay(t)
	sess.Seek(10)
	require.NoError(t, sess.Fault("crash", faults.AtProcess(1)))
	assert.Equal(t, 11, sess.Step(), "the action is shown")
	q := sess.Query()
	assert.Equal(t, "10c2", q.Get("in"), "process B is process 2")
	assert.Equal(t, "11", q.Get("k"))
	assert.Equal(t, lab.URLVersion, q.Get("v"))
	assert.Empty(t, q.Get("s"), "a scenario that is not built in is packed, not named")
	assert.NotEmpty(t, q.Get("sc"))
	assert.Empty(t, q.Get("axis"), "the default axis is left out")

	procs := sess.Processes()
	require.Len(t, procs, 4)
	assert.Equal(t, "B", procs[1].Name)
	assert.Equal(t, "crashed", procs[1].Health)
	assert.Equal(t, "up", procs[0].Health)

	back, err := lab.FromQuery(q)
	require.NoError(t, err)
	assert.Equal(t, 11, back.Step())
	assert.Equal(t, "crashed", back.Processes()[1].Health, "the link reopens the crash")
	assert.Equal(t, sess.Scenario().JSON(), back.Scenario().JSON())
}

func TestProcesses(t *testing.T) {
	sess := openRelay(t)
	sess.Seek(20)
	require.NoError(t, sess.Fault("pause", faults.AtProcess(2).With("for", faults.ParamTicks.Num(7))))
	procs := sess.Processes()
	require.Len(t, procs, 4)
	for i, p := range procs {
		assert.Equal(t, sess.Scenario().Names[i], p.Name)
		require.GreaterOrEqual(t, len(p.Fields), 4)
		assert.Equal(t, []string{"holds", "visits", "laps", "pokes"}, names(p.Fields[:4]), "the process's own fields")
		assert.Contains(t, names(p.Fields[4:]), "timer beat", "then the timers it has armed")
		assert.Positive(t, p.Lamport)
		assert.NotEmpty(t, p.Vector)
	}
	assert.Equal(t, "paused until "+strconv.Itoa(int(sess.Now())+7), procs[2].Health)
	holders := 0
	for _, p := range procs {
		if p.Fields[0].Value == "true" {
			holders++
		}
	}
	assert.LessOrEqual(t, holders, 1, "one token at most")
}

func names(fields []sim.Field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}
