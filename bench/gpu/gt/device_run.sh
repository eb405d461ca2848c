#!/bin/bash
# Runs one call of gt_runner.py on the lent machine from the repository root (bench/gpu/gt/unpack.sh files what
# comes back under testdata):
#   CALL=call41 BUDGET=540 PAR=6 bash bench/gpu/gt/device_run.sh
# (the device tool's command; carry [".gpu"]). diffusers is not installed on the lent machines: the
# diffusion jobs (df:) import it from its source, carried as .gpu/diffusers-src.txz, made here with
#   fetch github:huggingface/diffusers, then
#   git -C /work/.mirror/huggingface+diffusers/repo archive --format=tar HEAD src/diffusers | xz -6 > .gpu/diffusers-src.txz
# (.gpu/ is listed in .git/info/exclude so that it travels only through carry). Everything the call
# writes comes back under $OUT: the packed results (CALL-part*.tar.gz), the console and nvidia-smi's view.
set -u
CALL=${CALL:?set CALL, e.g. call41}
if [ -f .gpu/diffusers-src.txz ]; then
  mkdir -p /tmp/dsrc && tar xJf .gpu/diffusers-src.txz -C /tmp/dsrc
  export PYTHONPATH=/tmp/dsrc/src
fi
python3 -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__)" 2>&1 | tail -1
python3 -c "import diffusers; print('diffusers', diffusers.__version__)" 2>&1 | tail -1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > "$OUT/env-$CALL.txt" 2>&1
cd bench/gpu/gt
python3 gt_runner.py --jobs "$CALL" --raw "/tmp/raw-$CALL" --pack "$OUT" --budget "${BUDGET:-540}" --par "${PAR:-6}" > "$OUT/console-$CALL.txt" 2>&1
# the tail comes back to the session: blind rows' figures stay out of it (only their names and status show)
tail -60 "$OUT/console-$CALL.txt" | sed -E '/ (late|blind)[0-9]*-/s/ alloc=.*wall=/ wall=/'

