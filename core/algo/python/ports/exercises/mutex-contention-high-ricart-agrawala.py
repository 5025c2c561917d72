# port: ricart-agrawala
# Exercise: the reply rule of Ricart–Agrawala. The program below is the
# whole algorithm but for request(p, sender, theirs): write it, press Run,
# and Check my answer.

def request(p, sender, theirs):
    # EXERCISE: write the reply rule. A REQUEST stamped theirs, a pair
    # (Lamport time, id), comes from sender. p.state["want"] is "idle",
    # "wanting" or "in"; p.state["mine"] is this process's own request's
    # stamp while it wants the section.
    #  - To answer now: p.send(sender, "REPLY", stamp=theirs).
    #  - To answer when it leaves the section: append theirs to
    #    p.state["deferred"] (on_timer sends those replies).
    # Check my answer runs your rule on 200 seeds of a busy workload:
    # nobody may share the section, and nobody may wait forever.
    pass
