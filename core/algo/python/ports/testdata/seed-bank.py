# Chandy-Lamport snapshot of three bank branches that keep transferring money.
# Channels are FIFO. Total money is 300; a correct snapshot must also total 300.
#
# This is the course's program (lesson text "The Chandy–Lamport snapshot
# algorithm") as a Spacetime program. The seed is one script that plays
# every branch and every channel itself; here each branch is a process,
# the network carries the messages, and the simulator is the loop. Run on
# the lesson snapshot-bank's scenario (seed 450, rng "python"), it draws
# the same numbers as the seed and records the same snapshot. The edits:
#
#  1. `import random` and `random.seed(450)` are gone: a program loads no
#     modules, and draws from the run's seeded stream (p.random,
#     p.randint). The scenario gives the seed, 450, and the seed's own
#     generator ("rng": "python").
#  2. `from collections import deque` and `chan` are gone: the channels are
#     the simulator's FIFO network. `chan[(p, q)].append(x)` is
#     p.send(q, ...), and deliver(i, j)'s popleft is the simulator
#     delivering the message to j: on_message(p, m), with i = m.sender.
#  3. The global dicts are gone: a program's globals are frozen once it has
#     loaded, and a branch sees only its own state. Each branch keeps its
#     own part in p.state: bal[p] is p.state["bal"], recorded[p] is
#     p.state["recorded"] (None until it records), and chan_state[(q, p)]
#     and recording[(q, p)], the channels into p, are
#     p.state["chan_state"][q] and p.state["recording"][q].
#  4. Branches are numbered 1, 2, 3 (A, B, C), since p.send takes a number:
#     P = [1, 2, 3].
#  5. The ("MARKER", 0) and ("MONEY", amt) tuples are message kinds, with
#     the amount a field: p.send(q, "MARKER"), p.send(j, "MONEY", amt=amt).
#  6. The `while steps < 400` loop is the simulator's, and its parts are the
#     scenario's: "until": {"time": 400, "done": true}; the
#     `random.random() < 0.5` between a transfer and a delivery is the
#     workload's "p": 0.5; `random.choice(P)` of the sender is the workload
#     picking a branch, which runs on_workload; delivering a random busy
#     channel is the random scheduler; `steps == 40` is the script's
#     snapshot command at tick 40, which runs on_command. A handler is one
#     step: a loop in it would run the whole simulation inside one step.
#  7. The loop's `break` (every branch recorded, no channel still
#     recording) is done(states).
#  8. `random.choice(xs)` is xs[p.randint(0, len(xs) - 1)] (choice), and
#     `random.randint(1, 20)` is p.randint(1, 20): the same draws.
#  9. The closing prints: print in a program writes the step's caption, not
#     stdout, and no branch sees the others. What they show is checked over
#     every branch's state: invariant_snapshot_total_is_300 (recorded
#     balances plus recorded channels) and invariant_money_is_conserved
#     (live balances plus the money in the channels). Each branch prints
#     its own part when its last channel is recorded. Starlark has no
#     f-strings, and no sum (total).

P = [1, 2, 3]                                             # A, B, C
KINDS = {"MONEY": "message", "MARKER": "marker"}
COMMANDS = {"snapshot": "start a snapshot here"}

def init(p):
    p.state["bal"] = 100
    p.state["recorded"] = None
    p.state["chan_state"] = {}
    p.state["recording"] = {}

def start_snapshot(p):
    p.state["recorded"] = p.state["bal"]                  # record own state
    for q in P:
        if q != p.id:
            p.send(q, "MARKER")                           # marker on every outgoing channel
            p.state["recording"][q] = True                # record incoming channels
            p.state["chan_state"][q] = []

def on_message(p, m):                                     # deliver(i, j), at j
    i = m.sender
    if m.kind == "MARKER":
        if p.state["recorded"] == None:                   # first marker: snapshot now
            start_snapshot(p)
            p.state["chan_state"][i] = []                 # this channel recorded as empty
        p.state["recording"][i] = False                   # stop recording this channel
        if not any(p.state["recording"].values()):
            print("recorded balance:", p.state["recorded"], "recorded in-flight money:",
                  {q: v for q, v in p.state["chan_state"].items() if v})
    else:
        p.state["bal"] += m.amt
        if p.state["recording"].get(i):
            p.state["chan_state"][i].append(m.amt)        # in flight when the cut was taken

def on_command(p, name):                                  # A initiates the snapshot
    start_snapshot(p)

def on_workload(p):                                       # a branch sends a transfer
    i = p.id; j = choice(p, [q for q in P if q != i])
    amt = p.randint(1, 20)
    if p.state["bal"] >= amt:
        p.state["bal"] -= amt; p.send(j, "MONEY", amt=amt)

def choice(p, xs):
    return xs[p.randint(0, len(xs) - 1)]

def total(xs):
    t = 0
    for x in xs:
        t += x
    return t

def done(states):
    return all([s["recorded"] != None for s in states]) and not any([any(s["recording"].values()) for s in states])

def invariant_snapshot_total_is_300(states):
    if not done(states):
        return True
    in_flight = total([total([total(v) for v in s["chan_state"].values()]) for s in states])
    snapshot = total([s["recorded"] for s in states]) + in_flight
    if snapshot != 300:
        return False, "snapshot total: %d" % snapshot
    return True

def invariant_money_is_conserved(states, world):
    naive = total([s["bal"] for s in states])             # what you would get by just reading balances now
    channels = total([m.amt for m in world.in_flight if m.kind == "MONEY"])
    if naive + channels != 300:
        return False, "live balances sum %d + in channels %d" % (naive, channels)
    return True
