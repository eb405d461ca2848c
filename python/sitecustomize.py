# vramkit's sitecustomize: `vramkit run` puts this directory first on
# PYTHONPATH so Python imports this file at start-up. It loads the capture
# shim, then runs the sitecustomize that would have run without vramkit
# (a virtualenv's, a distribution's, a user's own), so nothing is hidden.
import os as _os
import sys as _sys


def _vramkit_boot():
    here = _os.path.dirname(_os.path.abspath(__file__))
    try:
        import _vramkit_shim

        _vramkit_shim.install()
    except Exception as err:  # never break the user's program
        _sys.stderr.write("vramkit: capture shim not loaded: %s: %s\n" % (type(err).__name__, err))

    import importlib.machinery
    import importlib.util

    path = [p for p in _sys.path if _os.path.abspath(p or _os.getcwd()) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    mod = importlib.util.module_from_spec(spec)
    _sys.modules["sitecustomize"] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception as err:
        # What site.py itself does when a sitecustomize fails.
        if _sys.flags.verbose:
            _sys.excepthook(*_sys.exc_info())
        else:
            _sys.stderr.write(
                "Error in sitecustomize; set PYTHONVERBOSE for traceback:\n%s: %s\n" % (err.__class__.__name__, err)
            )


_vramkit_boot()
del _vramkit_boot
