"""Session 60, call 222: dev118 (development), EfficientNet-B0's compiled steps on an H200 host.

late106's control (an H200 host, alternated) ran EfficientNet-B0 b32 1.03x its eager step compiled, planned 0.87x;
over all sets B0's small-batch compiled/eager ratio is planned under the measured one in 9 of 9 pairs, by 2-4% in
the three H100 alternated ones and by 13-32% in the six others (H200 hosts, H100 pairs timed in blocks), while
B1-B4's sit within about 10% either way. dev118 asks whether B0 is different or the H200 hosts are: B0 at b8, b16, b32 and b64 and B1 b16 and B2 b16 beside it, bf16
eager against bf16 compiled, alternated step by step (10 rounds after 2 warm-up steps), with a probe before and
after, on an H200 (call222) and, where one starts, the same jobs on an H100 (call223)."""
from gt_jobs import J, timer, dev_timing_jobs
from gt_jobs9 import tv
from gt_jobs144 import BF16, COMP, alt

GROUPS = (("b0b8", "efficientnet_b0", 8), ("b0b16", "efficientnet_b0", 16), ("b0b32", "efficientnet_b0", 32),
          ("b0b64", "efficientnet_b0", 64), ("b1b16", "efficientnet_b1", 16), ("b2b16", "efficientnet_b2", 16))


def _jobs(prefix):
    d = timer(prefix, prefix + "timing", heldout=False)
    gs = tuple((k, [alt(d, "t-%s-b%d" % (m.replace("_", "-"), b), tv(m, b), [BF16, COMP], rounds=10)])
               for k, m, b in GROUPS)
    first = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    last = J("probe-end", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [first] + dev_timing_jobs(prefix, prefix + "timing", gs) + [last]


def call222():
    return _jobs("dev118-")


def call223():
    """the same jobs on an H100 (a name of its own so that the two hosts' rows stay apart)"""
    return _jobs("dev119-")


def call224():
    """session 62: call223 ran out of budget after dev119's first three groups; the other three (B0 b64, B1 b16,
    B2 b16) on the same warm H100, under a name of their own (dev120) so that the two calls' files stay apart"""
    jobs = _jobs("dev120-")
    keep = ("b0b64", "b1b16", "b2b16")
    return [j for j in jobs if j["name"].startswith("probe") or any(k in j["name"] for k in keep)]
