# Token ring: a token circulates around a logical ring; only its holder may
# enter the critical section. A holder that does not want it keeps it
# params["hold"] ticks, then passes it on. A token carries its generation
# and hop count, so that a process can discard a copy of a token it has
# held, or a token older than one it has seen.

KINDS = {"TOKEN": "token"}
COMMANDS = {
    "request-cs": "want the critical section (held for cs_time ticks, then released)",
    "regenerate-token": "make a new token here, as a recovery that believes the token lost does",
}

def setting(p, name, default):
    return p.params.get(name, default)

def successor(p):
    ring = setting(p, "ring", None) or list(range(1, p.n + 1))
    return ring[(ring.index(p.id) + 1) % p.n]

def init(p):
    p.state["want"] = "idle"           # idle, wanting or in
    p.state["holds"] = False
    p.state["token"] = (1, 0)          # (generation, hop) of the token held
    p.disk["seen"] = (1, 0)            # the latest token held: kept in a crash
    if p.id == setting(p, "holder", 1):
        take(p)
        p.say("holds the token first; it passes it on to %d unless it wants the section" % successor(p))

def on_recover(p):
    p.state["want"] = "idle"
    p.state["holds"] = False           # a crash loses the token it held
    p.state["token"] = p.disk["seen"]
    p.say("recovers; it does not hold the token")

def take(p):
    p.state["holds"] = True
    if p.state["want"] == "idle":
        p.after(setting(p, "hold", 1), "pass")
        p.state["pass"] = True             # the timer that sends it on is armed

def enter(p):
    p.state["want"] = "in"
    p.state["release"] = True          # the timer that takes it out is armed
    p.enter()
    p.after(setting(p, "cs_time", 5), "release")

def pass_on(p):
    gen, hop = p.state["token"]
    p.state["holds"] = False
    p.state["token"] = (gen, hop + 1)
    p.send(successor(p), "TOKEN", gen=gen, hop=hop + 1)

def on_command(p, name):
    if name == "regenerate-token":
        if p.state["holds"]:
            p.say("already holds the token: nothing to regenerate")
            return
        gen = p.disk["seen"][0] + 1
        p.state["token"] = (gen, 0)
        p.disk["seen"] = (gen, 0)
        take(p)
        if p.state["want"] == "wanting":
            enter(p)
        p.say("regenerates the token as generation %d" % gen)
        return
    if p.state["want"] != "idle":
        p.say("asks for the critical section but already wants or holds it")
        return
    p.state["want"] = "wanting"
    p.want()
    if p.state["holds"]:
        p.cancel("pass")
        p.state["pass"] = False
        enter(p)
        p.say("holds the token: it enters at once, with no message")
    else:
        p.say("wants the critical section: it waits for the token")

def on_workload(p):
    on_command(p, "request-cs")

def on_timer(p, name):
    if name == "release":
        p.state["release"] = False
    if name == "pass":
        p.state["pass"] = False
    if name == "release" and p.state["want"] == "in":
        p.state["want"] = "idle"
        p.leave()
        pass_on(p)
        p.say("leaves the critical section and passes the token to %d" % successor(p))
    elif name == "pass" and p.state["holds"] and p.state["want"] != "in":
        pass_on(p)
        p.say("does not want the section: it passes the token to %d" % successor(p))

def on_message(p, m):
    token = (m.gen, m.hop)
    if token <= p.disk["seen"]:
        p.say("discards a token it has already held, or an older one")
        return
    p.state["token"] = token
    p.disk["seen"] = token
    if p.state["holds"]:
        p.say("already holds a token and absorbs the second one")
        return
    take(p)
    if p.state["want"] == "wanting":
        p.cancel("pass")
        p.state["pass"] = False
        enter(p)
        p.say("gets the token and enters the critical section")
    else:
        p.say("gets the token and passes it on after a tick")

def invariant_at_most_one_process_in_the_critical_section(states, world):
    inside = [i + 1 for i, s in enumerate(states) if s["want"] == "in" and world.health[i] != "crashed"]
    if len(inside) > 1:
        return False, " and ".join([str(i) for i in inside]) + " are in the critical section at once"
    return True

def invariant_no_deadlock(states, world):
    live = [i for i in range(len(states)) if world.health[i] != "crashed"]
    if any([states[i]["want"] == "in" for i in live]):
        return True
    if not any([states[i]["want"] == "wanting" for i in live]):
        return True
    if any([world.health[m.receiver - 1] != "crashed" for m in world.in_flight]):
        return True
    if any([states[i]["holds"] for i in live]):
        return True
    return False, "a process waits for the token, which is lost"

def invariant_every_process_in_the_critical_section_has_its_release_armed(states, world):
    # the release is a timer: one never armed, or fired and ignored, keeps
    # every other process out for good, which the checks above miss
    for i, s in enumerate(states):
        if world.health[i] != "crashed" and s["want"] == "in" and not s["release"]:
            return False, "%d is in the critical section with no release armed: it will hold it for good" % (i + 1)
    return True

def invariant_a_holder_of_the_token_uses_it_or_passes_it_on(states, world):
    # a token that stops (a holder that waits with it, or one with no pass
    # armed) keeps every process out while a holder exists
    for i, s in enumerate(states):
        if not s["holds"] or world.health[i] == "crashed":
            continue
        if s["want"] == "wanting":
            return False, "%d holds the token and wants the section, but has not entered it" % (i + 1)
        if s["want"] == "idle" and not s.get("pass", False):
            return False, "%d holds the token, does not want the section, and has no pass armed: the token stops here" % (i + 1)
    return True
