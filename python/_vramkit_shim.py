"""vramkit capture shim, loaded by vramkit's sitecustomize under `vramkit run`.

When (and only if) this process initialises CUDA through PyTorch, it turns on
torch.cuda.memory._record_memory_history and attaches PyTorch's
out-of-memory observer. It writes a snapshot pickle at the moment of an OOM,
at exit (including after Ctrl-C) and on SIGTERM, plus a small JSON sidecar with PyTorch's own
peak counters, into $VRAMKIT_OUT. Under torchrun each rank writes its own
files, named by $RANK. Processes that never touch CUDA (the torchrun
launcher, CPU-only DataLoader workers, non-torch programs) are left alone:
recording is enabled through torch.cuda._lazy_call, which runs at CUDA
initialisation, so the shim never initialises CUDA itself.

Configuration (set by vramkit): VRAMKIT_OUT, VRAMKIT_CONTEXT
(alloc|all|none), VRAMKIT_STACKS (python|all), VRAMKIT_MAX_ENTRIES.
"""

import atexit
import json
import os
import signal
import sys
import threading
import time

_lock = threading.RLock()
_state = {
    "pid": os.getpid(),
    "recording": False,
    "reason": "exit",
    "oom": None,
    "exception": None,
    "base": None,
    "files": {},
    "errors": [],
}


def _warn(msg):
    try:
        sys.stderr.write("vramkit: %s\n" % msg)
    except Exception:
        pass


def _out_dir():
    return os.environ.get("VRAMKIT_OUT") or os.getcwd()


def _claim_base():
    """Choose this process's file prefix: snapshot-rankN under torchrun,
    else snapshot, else snapshot-pidN when another process got there first.
    The claim is an empty file created exclusively; the dump replaces it."""
    out = _out_dir()
    rank = os.environ.get("RANK")
    names = ["snapshot-rank%s" % rank] if rank is not None else ["snapshot"]
    names.append(names[0] + "-pid%d" % os.getpid())
    for base in names:
        try:
            fd = os.open(os.path.join(out, base + ".pickle"), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            os.close(fd)
            return base
        except FileExistsError:
            continue
    return names[-1]


def _dump(kind):
    """Write a snapshot atomically; kind is "exit" or "oom"."""
    import torch

    base = _state["base"]
    name = base + (".pickle" if kind == "exit" else "-oom.pickle")
    path = os.path.join(_out_dir(), name)
    tmp = path + ".tmp"
    t0 = time.time()
    try:
        torch.cuda.memory._dump_snapshot(tmp)
        os.replace(tmp, path)
        _state["files"][kind] = {"file": name, "seconds": round(time.time() - t0, 3)}
    except Exception as err:
        _state["errors"].append("%s snapshot: %s: %s" % (kind, type(err).__name__, err))
        _warn("could not write %s: %s" % (path, err))
        try:
            os.remove(tmp)
        except OSError:
            pass


def _device_stats():
    import torch

    out = []
    try:
        n = torch.cuda.device_count()
    except Exception:
        return out
    for i in range(n):
        try:
            st = torch.cuda.memory_stats(i)
        except Exception:
            continue
        peak_res = st.get("reserved_bytes.all.peak", 0)
        if not peak_res:
            continue
        out.append(
            {
                "index": i,
                "max_allocated_bytes": st.get("allocated_bytes.all.peak", 0),
                "max_reserved_bytes": peak_res,
                "allocated_bytes": st.get("allocated_bytes.all.current", 0),
                "reserved_bytes": st.get("reserved_bytes.all.current", 0),
                "num_ooms": st.get("num_ooms", 0),
                "num_alloc_retries": st.get("num_alloc_retries", 0),
            }
        )
    return out


def _write_sidecar():
    import torch

    info = {
        "pid": os.getpid(),
        "rank": os.environ.get("RANK"),
        "local_rank": os.environ.get("LOCAL_RANK"),
        "world_size": os.environ.get("WORLD_SIZE"),
        "argv": list(sys.argv),
        "torch_version": getattr(torch, "__version__", "?"),
        "reason": _state["reason"],
        "exception": _state["exception"],
        "oom": _state["oom"],
        "devices": _device_stats(),
        "snapshots": _state["files"],
        "context": os.environ.get("VRAMKIT_CONTEXT", "all"),
        "stacks": os.environ.get("VRAMKIT_STACKS", "python"),
        "max_entries": _max_entries(),
        "errors": _state["errors"],
    }
    path = os.path.join(_out_dir(), _state["base"] + ".json")
    try:
        with open(path + ".tmp", "w") as f:
            json.dump(info, f, indent=1)
        os.replace(path + ".tmp", path)
    except Exception as err:
        _warn("could not write %s: %s" % (path, err))


def _max_entries():
    try:
        return int(os.environ.get("VRAMKIT_MAX_ENTRIES", "1000000"))
    except ValueError:
        return 1000000


def _finish(reason=None):
    """Dump once, at exit or on a terminating signal."""
    with _lock:
        if not _state["recording"] or os.getpid() != _state["pid"] or "exit" in _state["files"]:
            return
        if reason and _state["reason"] == "exit":
            _state["reason"] = reason
        _dump("exit")
        _write_sidecar()


def _on_oom(device, alloc, device_alloc, device_free):
    # Called by the caching allocator at the moment it gives up, before the
    # exception unwinds and frees the tensors that caused it.
    with _lock:
        if _state["oom"] is not None or os.getpid() != _state["pid"]:
            return
        _state["reason"] = "oom"
        _state["oom"] = {
            "device": int(device),
            "alloc_bytes": int(alloc),
            "device_allocated_bytes": int(device_alloc),
            "device_free_bytes": int(device_free),
            "time": time.time(),
        }
        _dump("oom")
        _write_sidecar()


def _on_cuda_init():
    import torch

    with _lock:
        if _state["recording"] or os.getpid() != _state["pid"]:
            return
        ctx = os.environ.get("VRAMKIT_CONTEXT", "all")
        try:
            torch.cuda.memory._record_memory_history(
                enabled="all",
                context=None if ctx == "none" else ctx,
                stacks=os.environ.get("VRAMKIT_STACKS", "python"),
                max_entries=_max_entries(),
            )
        except Exception as err:
            _warn("could not enable memory history: %s" % err)
            return
        try:
            torch._C._cuda_attach_out_of_memory_observer(_on_oom)
        except Exception as err:
            _state["errors"].append("oom observer: %s" % err)
            _warn("could not attach the OOM observer (snapshot at exit only): %s" % err)
        _state["base"] = _claim_base()
        _state["recording"] = True
        atexit.register(_finish)


def _on_torch_imported(torch):
    try:
        torch.cuda._lazy_call(_on_cuda_init)
    except Exception as err:
        _warn("cannot hook CUDA initialisation in this torch (%s); no snapshot" % err)


class _Loader(object):
    """Wraps torch's loader to run a hook after `import torch` finishes.
    Every other attribute is the original loader's, and the original is put
    back on the module afterwards, so torch never sees this class."""

    def __init__(self, orig):
        self._orig = orig

    def __getattr__(self, name):
        return getattr(self._orig, name)

    def create_module(self, spec):
        return self._orig.create_module(spec)

    def exec_module(self, module):
        try:
            self._orig.exec_module(module)
        finally:
            module.__loader__ = self._orig
            if getattr(module, "__spec__", None) is not None:
                module.__spec__.loader = self._orig
        _on_torch_imported(module)


class _Finder(object):
    """A meta-path finder that only notices `import torch`."""

    done = False

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch" or self.done:
            return None
        self.done = True
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _Loader(spec.loader)
                return spec
        return None

    def invalidate_caches(self):
        pass


def _term_handler(signum, frame):
    _finish("sigterm")
    if signal.getsignal(signum) is _term_handler:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)  # die of the signal, as without vramkit
    # Otherwise a later handler (Lightning, a user's) chained to us: let it
    # decide what SIGTERM means.


def _excepthook_wrapper(orig):
    def hook(etype, value, tb):
        with _lock:
            first = str(value).strip().splitlines()
            _state["exception"] = "%s: %s" % (etype.__name__, first[0] if first else "")
            if issubclass(etype, KeyboardInterrupt) and _state["reason"] == "exit":
                _state["reason"] = "sigint"
        orig(etype, value, tb)

    return hook


def install():
    if "torch" in sys.modules:
        _on_torch_imported(sys.modules["torch"])
    else:
        sys.meta_path.insert(0, _Finder())
    # SIGTERM kills without running atexit, so catch it, but only where
    # nobody else has: a program's own handler, installed later, wins.
    # SIGINT needs nothing: KeyboardInterrupt unwinds and atexit dumps (and
    # asyncio checks that SIGINT still has Python's default handler).
    try:
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _term_handler)
    except (ValueError, OSError):
        pass  # not the main thread or an embedded interpreter
    sys.excepthook = _excepthook_wrapper(sys.excepthook)
