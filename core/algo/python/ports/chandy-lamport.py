# Chandy–Lamport snapshot, on the course's bank: branches keep sending each
# other money over FIFO channels, and markers record a consistent global
# state without stopping them. A snapshot's recorded balances plus the
# money it records on the channels add up to the money there is, though no
# single moment of the run may have had those balances.
#
# The marker rules, as Chandy and Lamport give them:
#   1. To start a snapshot, a process records its own state and sends a
#      marker on every outgoing channel before it sends anything else.
#   2. When a process gets its first marker of a snapshot, on channel c, it
#      records its state, records c as empty, sends a marker on every
#      outgoing channel and starts recording every other incoming channel.
#   3. What arrives on a channel after the process recorded and before that
#      channel's marker is the channel's recorded state: money that was in
#      flight at the cut. The marker stops the recording of its channel.
#   4. A process's part is done when it has recorded its state and every
#      incoming channel has brought its marker.
# Snapshots are numbered from 1: a marker carries its snapshot's number.
#
# Four switches run seed 003's rules, to show each failing:
# params.seed_channels (rule 3: a channel whose marker comes later is
# recorded as empty), params.seed_first_channel (rule 2: the first
# marker's channel records the money received on it before the marker),
# params.seed_other_channels (rule 2: markers only on the "other"
# outgoing channels, none back to the first marker's sender) and
# params.seed_done (rule 4: a part is done once its branch has recorded).
#
# A branch keeps its books on stable storage: a crash loses nothing. Every
# handler ends by writing p.state to p.disk (keep), and on_recover reads it
# back.
#
# p.record(k) draws a branch's recording point on snapshot k's cut, and
# p.record_channel(k) haloes a transfer recorded as a channel's state;
# Spacetime checks each recorded cut is consistent ("recorded cut is
# consistent") once every branch has recorded it. MEASURE lets the cut
# tool add up the money at any cut a learner draws.

KINDS = {"transfer": "application", "marker": "marker"}
COMMANDS = {
    "snapshot": "record a snapshot, starting here",
    "transfer": {"help": "send money to another branch", "target": True, "arg": "amount", "min": 1, "max": 1000000000000},
}
MEASURE = {"name": "money", "format": "$%d"}

def measure(state):
    return state["balance"]

def measure_message(m):
    return m.amount if m.kind == "transfer" else 0

def setting(p, name, default):
    return p.params.get(name, default)

def init(p):
    balances = setting(p, "balances", None) or [100] * p.n
    p.state["opening"] = balances[p.id - 1]   # the balance it opened with
    p.state["balance"] = balances[p.id - 1]   # its live balance
    p.state["rounds"] = []                    # its part of each snapshot, from 1
    p.state["markers_sent"] = 0
    keep(p)
    p.say("opens with $%d" % p.state["balance"])

def keep(p):
    p.disk.update(p.state)

def on_recover(p):
    p.state.update(p.disk)
    p.say("recovers with its balance and snapshot records intact (they are on stable storage)")

def others(p):
    return [q for q in range(1, p.n + 1) if q != p.id]

def recorded(p, k):
    rounds = p.state["rounds"]
    return len(rounds) >= k and rounds[k - 1]["recorded"]

def total(xs):
    return sum(xs)

# --- the bank ---------------------------------------------------------------

def on_workload(p):
    to = p.randint(0, p.n - 2) + 1            # another branch, at random
    if to >= p.id:
        to += 1
    amount = 1 + p.randint(0, setting(p, "max_transfer", 20) - 1)
    transfer(p, to, amount)
    keep(p)

def transfer(p, to, amount):
    if amount <= 0 or p.state["balance"] < amount:
        p.say("would send $%d to %s but holds only $%d: no transfer (a branch never overdraws)" % (amount, p.names[to - 1], p.state["balance"]))
        return
    p.state["balance"] -= amount
    p.send(to, "transfer", amount=amount, label="$%d" % amount)
    p.say("sends $%d to %s; it now holds $%d" % (amount, p.names[to - 1], p.state["balance"]))

def on_command(p, name, target, amount):
    if name == "transfer":
        transfer(p, target, amount)
    elif name == "snapshot":
        start_snapshot(p)
    keep(p)

# --- the snapshot -----------------------------------------------------------

def round_of(p, k):
    # this branch's part of snapshot k, made (with any before it) if new
    rounds = p.state["rounds"]
    for _ in range(len(rounds), k):
        rounds.append({
            "initiator": False,
            "recorded": False,   # has it recorded its state?
            # rule 4: its part is done once every channel's marker has
            # come ("recorded" by seed 003's rule 4)
            "done_when": "recorded" if setting(p, "seed_done", False) else "every marker",
            "balance": 0,        # the balance it recorded
            "closed": [],        # the channels whose marker has come, by sender
            "channel": {q: [] for q in others(p)},  # amounts recorded on each
        })
    return rounds[k - 1]

def recording(r, q):
    # rule 3: the channel from q is being recorded
    return r["recorded"] and q not in r["closed"]

def part_done(r, n):
    # rule 4: recorded, and every channel's marker in (of n branches)
    return r["recorded"] and (r["done_when"] == "recorded" or len(r["closed"]) >= n - 1)

def record(p, k, sender=None):
    # rules 1 and 2: record the state, then a marker on every channel (by
    # seed 003's rule 2, none back to the sender of the first marker)
    r = round_of(p, k)
    r["recorded"] = True
    r["balance"] = p.state["balance"]
    skip = sender if setting(p, "seed_other_channels", False) else None
    for q in others(p):
        if q != skip:
            p.send(q, "marker", snapshot=k, label="M%d" % k)
            p.state["markers_sent"] += 1
    p.record(k, "$%d" % r["balance"])

def start_snapshot(p):
    rounds = p.state["rounds"]
    k = len(rounds) + 1
    if rounds and not part_done(rounds[-1], p.n):
        p.say("is still taking part in snapshot %d: it starts no new one until its markers are all in" % len(rounds))
        return
    round_of(p, k)["initiator"] = True
    record(p, k)
    p.say("starts snapshot %d: records its balance $%d, sends a marker on every channel before anything else, and starts recording every incoming channel" % (k, p.state["balance"]))

def on_message(p, m):
    if m.kind == "transfer":
        take_transfer(p, m)
    else:
        take_marker(p, m)
    keep(p)

def take_transfer(p, m):
    p.state["balance"] += m.amount
    if setting(p, "seed_first_channel", False):
        # kept for seed 003's rule 2 (the switch): every amount received,
        # by sender
        received = p.state.setdefault("received", {})
        received[m.sender] = received.get(m.sender, []) + [m.amount]
    into = []
    for k, r in enumerate(p.state["rounds"]):
        if recording(r, m.sender):
            r["channel"][m.sender].append(m.amount)   # in flight at the cut
            p.record_channel(k + 1, "$%d" % m.amount)
            into.append(k + 1)
    p.say("receives $%d from %s; balance $%d" % (m.amount, p.names[m.sender - 1], p.state["balance"]))
    if into:
        p.say("it has recorded its state but has no marker from %s yet: the $%d joins that channel's recorded state (snapshot %s)" % (p.names[m.sender - 1], m.amount, ", ".join([str(k) for k in into])))

def take_marker(p, m):
    k, q = m.snapshot, m.sender
    r = round_of(p, k)
    first = not r["recorded"]
    if first:
        record(p, k, q)          # rule 2; the channel from q stays empty
        if setting(p, "seed_first_channel", False):
            # seed 003's rule 2 (the switch): the channel is the money
            # received on it before the marker, which the balance holds
            r["channel"][q] = list(p.state.get("received", {}).get(q, []))
    elif setting(p, "seed_channels", False) and r["channel"][q]:
        # seed 003's rule 3 (the switch): a channel whose marker comes after
        # the branch recorded is recorded as empty, which drops the money
        # that arrived on it in between
        r["channel"][q] = []
    if q not in r["closed"]:
        r["closed"].append(q)    # rule 3: the marker stops the recording
    if first:
        p.say("gets its first marker of snapshot %d, from %s: records balance $%d and the channel from %s as empty, and sends its markers" % (k, p.names[q - 1], r["balance"], p.names[q - 1]))
    else:
        p.say("gets the marker of snapshot %d from %s: that channel's recorded state is %s" % (k, p.names[q - 1], amounts(r["channel"][q])))
    if part_done(r, p.n):
        p.say("its part of snapshot %d is complete" % k)

def amounts(a):
    if not a:
        return "empty"
    return "[" + ", ".join(["$%d" % x for x in a]) + "]"

# --- checks -----------------------------------------------------------------

def complete(states, k):
    # every branch has done its part of snapshot k
    for s in states:
        if len(s["rounds"]) < k:
            return False
        if not part_done(s["rounds"][k - 1], len(states)):
            return False
    return True

def snapshots(states):
    return max([len(s["rounds"]) for s in states])

def done(states):
    k = snapshots(states)
    return k > 0 and all([complete(states, i) for i in range(1, k + 1)])

def invariant_money_is_conserved(states, world):
    opening = total([s["opening"] for s in states])
    balances = total([s["balance"] for s in states])
    flight = total([m.amount for m in world.in_flight if m.kind == "transfer"])
    if balances + flight == opening:
        return True
    return False, "balances $%d + in flight $%d = $%d, not $%d: the network lost or copied a transfer" % (balances, flight, balances + flight, opening)

def invariant_a_branch_finishes_its_part_once_every_marker_to_it_has_come(states, world):
    # rule 4 read off the channels: once every branch has recorded snapshot
    # k (and so sent its markers) and no marker of k is on its way to a
    # branch, that branch's part must be done, or k never completes
    k = snapshots(states)
    for r in range(max(1, k - 1), k + 1):
        if not all([len(s["rounds"]) >= r and s["rounds"][r - 1]["recorded"] for s in states]):
            continue
        for i, s in enumerate(states):
            if world.health[i] == "crashed" or part_done(s["rounds"][r - 1], len(states)):
                continue
            if any([m.kind == "marker" and m.receiver == i + 1 and m.snapshot == r for m in world.in_flight]):
                continue
            return False, "every branch has recorded snapshot %d and no marker of it is on its way to %d, but its part is not done" % (r, i + 1)
    return True

def invariant_snapshot_total_equals_the_money_there_is(states):
    opening = total([s["opening"] for s in states])
    for k in range(1, snapshots(states) + 1):
        if not complete(states, k):
            continue
        rounds = [s["rounds"][k - 1] for s in states]
        balances = total([r["balance"] for r in rounds])
        channels = total([total([total(a) for a in r["channel"].values()]) for r in rounds])
        if balances + channels != opening:
            return False, "snapshot %d records $%d in balances + $%d in channels = $%d, not $%d" % (k, balances, channels, balances + channels, opening)
    return True
