"""Stands in for a training script: train_fake.py MODE [ARG].

MODE ok CODE   allocate, exit with CODE
MODE oom       allocate past FAKE_CUDA_LIMIT (dies of torch.OutOfMemoryError)
MODE wait FILE allocate, create FILE, sleep (for signal tests)
MODE echo      copy stdin to stdout, no torch
MODE ranks N   launch N ranks of "ok 0" like torchrun, exit with the worst
"""
import os
import subprocess
import sys
import time

mode = sys.argv[1]
print("shim=%s usersite=%s" % ("_vramkit_shim" in sys.modules, os.environ.get("USER_SITECUSTOMIZE_RAN")), flush=True)
if mode == "echo":
    sys.stdout.write(sys.stdin.read())
    sys.exit(0)
if mode == "ranks":
    procs = []
    for r in range(int(sys.argv[2])):
        env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=sys.argv[2])
        procs.append(subprocess.Popen([sys.executable, __file__, "ok", "0"], env=env))
    sys.exit(max(p.wait() for p in procs))

import torch  # noqa: E402

torch.cuda.alloc(3 << 20)
if mode == "ok":
    sys.exit(int(sys.argv[2]))
if mode == "oom":
    torch.cuda.alloc(1 << 40)
if mode == "wait":
    open(sys.argv[2], "w").close()
    time.sleep(30)
    sys.exit(0)
