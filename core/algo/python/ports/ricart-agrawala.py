# Ricart and Agrawala's mutual exclusion: a process that wants the critical
# section sends a REQUEST stamped (Lamport clock, id) to every other process
# and enters once all of them have replied. A process defers its REPLY
# while it is in the section, or while it wants it with an earlier request
# of its own (the clock first, then the id, breaks ties). It sends the
# replies it deferred when it leaves. 2(N-1) messages per entry.
#
# params.seed_reply runs seed 002's rule instead: reply unless in the
# section. A process that only wants the section then replies to an
# earlier request and to a later one alike, and two processes that ask at
# once both enter.
#
# params.seed_self runs seed 003's broadcast: the REQUEST goes to every
# process, itself too, and a process enters once all N have replied. By
# seed 003's reply rule a process answers at once only a request earlier
# than its own, and its own is not: it defers its own reply until it
# leaves a section it cannot enter without that reply.

KINDS = {"REQUEST": "control", "REPLY": "control"}
COMMANDS = {"request-cs": "want the critical section (held for cs_time ticks, then released)"}

def idle(p):
    p.state["want"] = "idle"           # idle, wanting or in
    p.state["mine"] = (0, p.id)        # the stamp of its current request
    p.state["replied"] = []            # who has replied to that request
    p.state["deferred"] = []           # the requests it answers when it leaves

def init(p):
    idle(p)
    p.say("starts idle; to enter it needs a REPLY from each of the %d others" % (p.n - 1))

def on_recover(p):
    # a crash forgets the request and the replies it deferred
    idle(p)
    p.say("recovers and has forgotten its request and the replies it deferred")

def enter(p):
    p.state["want"] = "in"
    p.state["release"] = True          # the timer that takes it out is armed
    p.enter()
    p.after(p.params.get("cs_time", 5), "release")

def on_command(p, name):
    if p.state["want"] != "idle":
        p.say("asks for the critical section but already wants or holds it")
        return
    p.state["want"] = "wanting"
    p.want()
    p.state["mine"] = (p.lamport, p.id)
    p.state["replied"] = []
    if p.params.get("seed_self", False):
        for q in range(1, p.n + 1):
            p.send(q, "REQUEST", stamp=p.state["mine"])
        p.say("wants the critical section: REQUEST %s to every process, itself too, as seed 003 says" % str(p.state["mine"]))
        return
    p.broadcast("REQUEST", stamp=p.state["mine"])
    if p.n == 1:
        enter(p)
    p.say("wants the critical section: REQUEST %s to every other process" % str(p.state["mine"]))

def on_workload(p):
    on_command(p, "request-cs")

def on_timer(p, name):
    if name == "release":
        p.state["release"] = False
    if name == "release" and p.state["want"] == "in":
        p.state["want"] = "idle"
        p.leave()
        # now answer every request it deferred
        for stamp in p.state["deferred"]:
            p.send(stamp[1], "REPLY", stamp=stamp)
        p.state["deferred"] = []
        p.say("leaves the critical section and sends the replies it deferred")

def on_message(p, m):
    if m.kind == "REQUEST":
        request(p, m.sender, m.stamp)
    else:
        reply(p, m.sender, m.stamp)

def request(p, sender, theirs):
    want, mine = p.state["want"], p.state["mine"]
    seed = p.params.get("seed_reply", False)
    if sender == p.id and want == "wanting":
        # its own request, by seed 003's broadcast: not earlier than itself
        p.state["deferred"].append(theirs)
        p.say("defers its reply to its own REQUEST")
    elif want == "in" or (want == "wanting" and mine < theirs and not seed):
        # in the section, or its own request is earlier: answer later
        if theirs not in p.state["deferred"]:
            p.state["deferred"].append(theirs)
        p.say("defers its reply to %d" % sender)
    else:
        p.send(sender, "REPLY", stamp=theirs)
        p.say("replies to %d at once" % sender)

def reply(p, sender, stamp):
    if p.state["want"] != "wanting" or stamp != p.state["mine"] or sender in p.state["replied"]:
        p.say("ignores a REPLY that is not for the request it waits on")
        return
    p.state["replied"].append(sender)
    need = p.n if p.params.get("seed_self", False) else p.n - 1
    if len(p.state["replied"]) < need:
        p.say("has %d of the %d replies it needs" % (len(p.state["replied"]), need))
        return
    enter(p)
    p.say("has every reply and enters the critical section")

# A crashed process is in no section and waits for nothing: the checks
# look only at the processes that are not crashed.
def live(states, world):
    return [i for i in range(len(states)) if world.health[i] != "crashed"]

def invariant_at_most_one_process_in_the_critical_section(states, world):
    inside = [i + 1 for i in live(states, world) if states[i]["want"] == "in"]
    if len(inside) > 1:
        return False, " and ".join([str(i) for i in inside]) + " are in the critical section at once"
    return True

def invariant_no_deadlock(states, world):
    up = live(states, world)
    if any([states[i]["want"] == "in" for i in up]):
        return True
    waiting = [i + 1 for i in up if states[i]["want"] == "wanting"]
    if not waiting:
        return True
    if any([world.health[m.receiver - 1] != "crashed" for m in world.in_flight]):
        return True
    return False, " and ".join([str(i) for i in waiting]) + " wait for a REPLY, and none is on its way"

def invariant_granted_in_timestamp_order(states, world):
    # no process is in the section while an earlier request still waits
    # (a request made later has a later stamp: its clock has seen the
    # REPLY that let the process in)
    up = live(states, world)
    for i in up:
        if states[i]["want"] != "in":
            continue
        for j in up:
            if states[j]["want"] == "wanting" and states[j]["mine"] < states[i]["mine"]:
                return False, "%d is in the section while %d still waits with the earlier %s" % (i + 1, j + 1, str(states[j]["mine"]))
    return True

def invariant_every_process_in_the_critical_section_has_its_release_armed(states, world):
    # the release is a timer: one never armed, or fired and ignored, keeps
    # every other process out for good, which the checks above miss
    for i, s in enumerate(states):
        if world.health[i] != "crashed" and s["want"] == "in" and not s["release"]:
            return False, "%d is in the critical section with no release armed: it will hold it for good" % (i + 1)
    return True
