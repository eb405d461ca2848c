"""Session 59, call 214: late105 (BLIND), compiled against eager CNN steps alternated in one process, the test of
compiledRealBatchHost 1.4.

late104 (blind, session 59) refused 1.5: its six compiled/eager ratios sat a median 6.0% under the plan at 1.3 and
6.1% over at 1.5. On the seen sets 1.4 centres the fifteen alternated H100 pairs (signed median -8.6% -> -2.7%, 9 ->
13 within 10%) and the H200 pairs timed in blocks (-9.2% -> -1.8%), and moves the all-sets same-model order 1072 ->
1081 of 1147. That is a fit on seen pairs; late105 times six CNN configurations no alternated set has timed, bf16
eager against bf16 compiled, 10 rounds after 2 warm-up steps (gt_alternate.py), to decide it
(late105_predictions.md, written before capture). Kept outside the repository until evaluated once."""
from gt_jobs import J, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs144 import BF16, COMP, alt


def call214():
    t = timer("late105-", "late105-timing")
    groups = tuple((k, [alt(t, "t-%s-b%d" % (m.replace("_", "-"), b), tv(m, b), [BF16, COMP], rounds=10)])
                   for k, m, b in (("resnet18", "resnet18", 32), ("convnext", "convnext_small", 8),
                                   ("resnet50", "resnet50", 32), ("effb1", "efficientnet_b1", 16),
                                   ("resnet152", "resnet152", 16), ("effb3", "efficientnet_b3", 8)))
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late105-", "late105-timing", groups)


def call215():
    """call214's last two groups (ResNet-152 b16, EfficientNet-B3 b8), cut by its budget, on the same warm host."""
    return [j for j in call214() if j["name"] in ("late105-timing-resnet152", "late105-timing-effb3")]
