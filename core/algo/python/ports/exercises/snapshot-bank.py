# port: chandy-lamport
# Exercise: the marker rule of Chandy–Lamport. The program below is the
# whole algorithm but for take_marker, at the end of "the snapshot": write
# it, press Run, and Check my answer.

def take_marker(p, m):
    # EXERCISE: write the marker rule (rules 2 and 3 above).
    # m.snapshot is the snapshot's number k and m.sender the channel's
    # sender q; r = round_of(p, k) is this branch's part of snapshot k.
    #  - On its first marker of snapshot k, a branch records its state and
    #    sends its markers: record(p, k) does both. The channel from q is
    #    then recorded as empty.
    #  - Every marker stops the recording of its channel: add q to
    #    r["closed"].
    # Check my answer runs your rule on 200 seeds: every snapshot must
    # complete (done) and add up to the $300 there is.
    pass
