"""Session 59, calls 216 and 217: late106 (BLIND), compiled against eager ResNet steps alternated in one process, the
test of a ResNet-only compiled host factor (Family.CompiledHost 1.12; late106_predictions.md holds the patch).

late104 and late105 (blind) showed the small-gain compiled/eager error is the family's: the ResNets ran 0.99-1.10x
their eager steps compiled where the plan has 0.89-0.95, the EfficientNets and ConvNeXt as planned; no one price
of a compiled op (the real-batch scale, the convolution call's, the generated kernel's, the batch norms' split
launches) moves the two families apart (session 59's grid). A factor on the ResNets' compiled host cost at real
batches, 1.12, centres their fourteen alternated pairs (-10.6% -> -1.2%) and moves the all-sets same-model order
1073 -> 1095 of 1150. It was fitted on seen pairs; late106 times five ResNet configurations no alternated set has
timed and an EfficientNet control the factor does not move, bf16 eager against bf16 compiled, 10 rounds after 2
warm-up steps. call216 runs the first four groups, call217 the last two (one call's budget cannot hold all six).
Kept outside the repository until evaluated once."""
from gt_jobs import J, timer, timing_jobs
from gt_jobs9 import tv
from gt_jobs144 import BF16, COMP, alt

GROUPS = (("resnet18", "resnet18", 64), ("resnet34", "resnet34", 32), ("resnet50", "resnet50", 16),
          ("effb0", "efficientnet_b0", 32), ("resnet101", "resnet101", 32), ("resnet152", "resnet152", 32))


def _jobs(groups):
    t = timer("late106-", "late106-timing")
    gs = tuple((k, [alt(t, "t-%s-b%d" % (m.replace("_", "-"), b), tv(m, b), [BF16, COMP], rounds=10)])
               for k, m, b in groups)
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe] + timing_jobs("late106-", "late106-timing", gs)


def call216():
    return _jobs(GROUPS[:4])


def call217():
    """the last two groups, on the same warm machine right after call216 (a probe of its own)"""
    return _jobs(GROUPS[4:])
