# A stand-in for torch with only what vramkit's shim touches, so the run
# path can be tested where CI has no torch and no GPU. The real path is
# checked on a GPU machine by bench/live-gpu.sh.
__version__ = "0.0+fake"


class OutOfMemoryError(RuntimeError):
    pass


from . import _C  # noqa: E402
from . import cuda  # noqa: E402
