"""Session 21, call 84, dev41 (development data, NOT blind): late38's reserved miss, ResNet-18 b128 bf16 channels-last
(+11.0% at first sight, +5.3% before the session's channels-last transients), with a snapshot, in its own process."""
from gt_jobs import J, maker
from gt_jobs9 import cl


def call84():
    M = maker("dev41-", "dev41", heldout=False)
    probe = J("probe-start", "probe", 10, exclusive=True, timeout=60, spec=dict(kind="probe"))
    return [probe, M("resnet18-b128-bf16-cl", dict(cl("resnet18", 128), snap=True), 20)]
