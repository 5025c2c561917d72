# Bully election (Garcia-Molina): a process that notices the coordinator is
# gone sends ELECTION to every process with a higher id (it cannot know
# which are alive) and waits params["timeout"] ticks for an OK. With none,
# it declares itself coordinator and sends COORDINATOR to everyone. A
# process that got an OK waits params["wait"] ticks for the COORDINATOR,
# and starts over if none comes. A process that receives ELECTION answers
# OK and takes the election over, so the highest live id wins; one that
# recovers holds an election and bullies its way back.

KINDS = {"ELECTION": "control", "OK": "control", "COORDINATOR": "control"}
COMMANDS = {"start-election": "notice that the leader is gone and start an election"}

def init(p):
    p.state["electing"] = False        # it runs an election
    p.state["asking"] = False          # it waits for an OK (else, electing, for the COORDINATOR)
    p.state["leading"] = False
    if p.late:
        # down from the start, it comes up late: like a recovery
        follow(p, p.n)
        start(p)
        p.say("comes up and holds an election to learn who leads")
        return
    follow(p, p.n)                     # everyone starts following the highest id
    if p.id == p.n:
        lead(p)
        p.say("has the highest id and leads")
    else:
        p.say("follows %d, the highest id" % p.n)

def on_recover(p):
    # a crash ends its election and its leading; it remembers whom it followed
    p.state["electing"] = False
    p.state["asking"] = False
    p.state["leading"] = False
    p.state["leader"] = p.disk["leader"]
    start(p)
    p.say("recovers and holds an election to learn who leads")

def follow(p, leader):
    p.state["electing"] = False
    p.state["leader"] = leader
    p.disk["leader"] = leader          # kept in a crash
    if leader != p.id:
        p.state["leading"] = False

def lead(p):
    follow(p, p.id)
    if not p.state["leading"]:
        p.state["since"] = p.now       # when it began to lead
    p.state["leading"] = True

def start(p):
    # ELECTION to every higher id; with none, it has won
    p.state["electing"] = True
    for q in range(p.id + 1, p.n + 1):
        p.send(q, "ELECTION")
    if p.id == p.n:
        declare(p)
        return
    p.state["asking"] = True
    p.cancel("coordinator")
    p.after(p.params.get("timeout", 5), "ok")

def declare(p):
    # it wins: COORDINATOR to every other process
    p.state["asking"] = False
    p.cancel("ok")
    p.cancel("coordinator")
    lead(p)
    p.broadcast("COORDINATOR")

def on_command(p, name):
    if p.state["electing"]:
        p.say("is already running an election")
        return
    p.say("notices that the coordinator %d is gone" % p.state["leader"])
    start(p)

def on_timer(p, name):
    if name == "ok" and p.state["asking"]:
        p.say("got no OK in time: it wins")
        declare(p)
    elif name == "coordinator" and p.state["electing"] and not p.state["asking"]:
        p.say("got no COORDINATOR in time: it starts over")
        start(p)

def on_message(p, m):
    if m.kind == "ELECTION":
        # a lower process holds an election: answer OK and take it over
        p.send(m.sender, "OK")
        if p.state["electing"]:
            p.say("replies OK to %d; it is already running an election" % m.sender)
        elif p.state["leading"] and p.id == p.n:
            # the highest id leads and nobody can outrank it
            p.send(m.sender, "COORDINATOR")
            p.say("replies OK to %d and, as it leads, sends it COORDINATOR" % m.sender)
        elif p.state["leading"]:
            # a COORDINATOR to the late one alone could be stale: a higher
            # process may have just recovered and won, and would never
            # hear it to answer it; so it holds an election, as anyone does
            p.say("replies OK to %d and, though it leads, holds an election" % m.sender)
            start(p)
        else:
            p.say("replies OK to %d and takes the election over" % m.sender)
            start(p)
    elif m.kind == "OK":
        if not p.state["asking"]:
            p.say("gets OK from %d as well" % m.sender)
            return
        # a higher process is alive: wait for its COORDINATOR
        p.state["asking"] = False
        p.cancel("ok")
        p.after(p.params.get("wait", 12), "coordinator")
        p.say("gets OK from %d and waits for its COORDINATOR" % m.sender)
    elif m.sender < p.id:
        # a lower process claims to lead: bully it
        if p.state["electing"]:
            p.say("hears %d claim to lead, but is higher and already electing" % m.sender)
        elif p.state["leading"]:
            p.say("hears %d claim to lead, but leads and is higher: it tells everyone again" % m.sender)
            declare(p)
        else:
            p.say("hears %d claim to lead, but is higher and bullies" % m.sender)
            start(p)
    else:
        p.state["asking"] = False
        p.cancel("ok")
        p.cancel("coordinator")
        follow(p, m.sender)
        p.say("follows %d, the new coordinator" % m.sender)

def invariant_no_process_takes_the_lead_from_a_leader_that_still_leads(states, world):
    # two leaders at once, the lower elected after the higher began to
    # lead: the higher was only paused, slow or cut off (split brain); a
    # higher one taking the lead from a lower one, as a recovered process
    # does, leads beside it only until its COORDINATOR arrives
    leading = [i + 1 for i in range(len(states)) if states[i]["leading"] and world.health[i] != "crashed"]
    for hi in leading:
        for lo in leading:
            if lo < hi and states[lo - 1]["since"] > states[hi - 1]["since"]:
                return False, "%d and %d both act as leader: %d was elected at tick %d while %d, leader since tick %d, still leads" % (lo, hi, lo, states[lo - 1]["since"], hi, states[hi - 1]["since"])
    return True

def invariant_the_live_processes_agree_on_the_highest_live_id(states, world):
    # once the elections are over and nothing is on its way, every live
    # process follows the highest live id
    live = [i + 1 for i in range(len(states)) if world.health[i] != "crashed"]
    if not live or any([states[i - 1]["electing"] for i in live]):
        return True
    if any([world.health[m.receiver - 1] != "crashed" for m in world.in_flight]):
        return True
    leaders = []
    for i in live:
        if states[i - 1]["leader"] not in leaders:
            leaders.append(states[i - 1]["leader"])
    if len(leaders) > 1:
        return False, "the elections are over but the live processes follow %s" % " and ".join([str(l) for l in leaders])
    if leaders[0] == live[-1] or world.health[leaders[0] - 1] == "crashed":
        return True                    # (a crash nobody has noticed yet)
    return False, "every live process follows %d, but %d is the highest live id" % (leaders[0], live[-1])
