"""Session 58, call 213: late104 (BLIND), compiled against eager CNN steps alternated in one process.

The alternated compiled/eager CNN pairs (dev112, late101-late103, dev115: nine, the host's drift taken out) ran
1.03-1.16x eager for the ResNets and 0.98-0.99x for EfficientNet-B0, where the plan has 0.90-0.95: a median ratio
error of -10.2%. Raising compiledRealBatchHost 1.3 -> 1.5 centres them (+1.8%) and moves the all-sets same-model
order 1071 -> 1086 of 1145, but was refused twice (sessions 54, 57) because it reversed late63's blind H100 pairs,
which were timed in blocks; dev117 has since shown that pairs timed in blocks move 6-14% between processes on one
host. late104 times six CNNs not yet alternated, bf16 eager against bf16 compiled, 10 rounds after 2 warm-up steps
(gt_alternate.py), to decide between the two values (late104_predictions.md, written before capture).
Kept outside the repository until evaluated once."""
from gt_jobs import J, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs144 import BF16, COMP, alt


def call213():
    t = timer("late104-", "late104-timing")
    groups = tuple((k, [alt(t, "t-%s-b%d" % (m.replace("_", "-"), b), tv(m, b), [BF16, COMP], rounds=10)])
                   for k, m, b in (("resnet18", "resnet18", 8), ("resnet34", "resnet34", 8),
                                   ("resnet50", "resnet50", 16), ("effb2", "efficientnet_b2", 16),
                                   ("convnext", "convnext_tiny", 8), ("resnet101", "resnet101", 16)))
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late104-", "late104-timing", groups)
