import os

_initialized = False
_queued_calls = []
_allocated = 0
_peak = 0
_reserved_peak = 0


def is_initialized():
    return _initialized


def _lazy_call(fn, **kwargs):
    if _initialized:
        fn()
    else:
        _queued_calls.append(fn)


def _lazy_init():
    global _initialized
    if _initialized:
        return
    _initialized = True
    for fn in _queued_calls:
        fn()


def device_count():
    return 1


def alloc(n):
    """Pretend to allocate n bytes on cuda:0, failing above FAKE_CUDA_LIMIT."""
    global _allocated, _peak, _reserved_peak
    _lazy_init()
    limit = int(os.environ.get("FAKE_CUDA_LIMIT", str(1 << 40)))
    if _allocated + n > limit:
        from .. import _C, OutOfMemoryError

        for obs in _C._oom_observers:
            obs(0, n, _allocated, limit - _allocated)
        raise OutOfMemoryError("CUDA out of memory. Tried to allocate %d bytes" % n)
    _allocated += n
    _peak = max(_peak, _allocated)
    _reserved_peak = max(_reserved_peak, _allocated + (2 << 20))


def memory_stats(i):
    return {
        "allocated_bytes.all.peak": _peak,
        "allocated_bytes.all.current": _allocated,
        "reserved_bytes.all.peak": _reserved_peak,
        "reserved_bytes.all.current": _reserved_peak,
        "num_ooms": 0,
    }


from . import memory  # noqa: E402
