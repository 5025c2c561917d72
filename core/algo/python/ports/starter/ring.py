# A token passed round a ring: each holder keeps it one tick, then passes it on.
def init(p):
    # p.id is 1..p.n; p.state is a dict the page shows in the Processes panel
    p.state["has"] = (p.id == 1)
    p.state["passes"] = 0
    if p.id == 1:
        p.after(1, "pass")                 # a timer named "pass", 1 tick from now

def on_timer(p, name):
    if name == "pass" and p.state["has"]:
        p.state["has"] = False
        p.send(p.id % p.n + 1, "TOKEN", hops=p.state["passes"] + 1)
        p.say("passes the token to %d" % (p.id % p.n + 1))

def on_message(p, m):
    # m.kind, m.sender, m.fields (a dict)
    if m.kind == "TOKEN":
        p.state["has"] = True
        p.state["passes"] = m.fields["hops"]
        p.after(1, "pass")

def invariant_one_token(states):
    # states: every process's state, in id order; True while it holds
    return len([s for s in states if s["has"]]) <= 1
