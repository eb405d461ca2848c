"""What cuDNN's Conv1d forward asks the caching allocator for beyond its input and output, over Whisper's front-end
shapes (conv1: mel -> d, kernel 3, stride 1; conv2: d -> d, kernel 3, stride 2, 3000 frames) and Wav2Vec2's
feature encoder's (kernel 10 stride 5, kernel 3 and 2 stride 2), in one dtype per process (cudnn.benchmark off, as
in the captures): the allocator's peak during the call less what was allocated before and the output. Session 48:
Whisper base float32's conv2 asked 4 MiB (b8) and 6 MiB (b16) more than memmodel.GeneralConvWorkspace says.

usage: python3 conv_ws_probe.py fp32|bf16|fp16 OUT.jsonl
"""
import json, sys
import torch
import torch.nn.functional as F

dt = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[sys.argv[1]]
out = open(sys.argv[2], "a")
size = torch.tensor([], dtype=dt).element_size()


def probe(cin, cout, k, s, p, L, b, tag):
    x = torch.randn(b, cin, L, device="cuda", dtype=dt)
    w = torch.randn(cout, cin, k, device="cuda", dtype=dt)
    bias = torch.randn(cout, device="cuda", dtype=dt)
    with torch.inference_mode():
        F.conv1d(x, w, bias, stride=s, padding=p)  # warm-up: cuDNN's handle and plan
        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        y = F.conv1d(x, w, bias, stride=s, padding=p)
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated()
    ob = y.numel() * size
    row = dict(dtype=sys.argv[1], tag=tag, cin=cin, cout=cout, k=k, s=s, p=p, L=L, b=b, in_bytes=x.numel() * size,
               out_bytes=ob, w_bytes=w.numel() * size, extra=peak - before - ob)
    out.write(json.dumps(row) + "\n")
    out.flush()
    del x, w, bias, y
    torch.cuda.empty_cache()


for d in (384, 512, 768, 1024, 1280):
    for b in (1, 4, 8, 16):
        probe(80, d, 3, 1, 1, 3000, b, "whisper-conv1")
        probe(d, d, 3, 2, 1, 3000, b, "whisper-conv2")
for b in (1, 4, 8):
    probe(1, 512, 10, 5, 0, 160000, b, "w2v-conv0")
    probe(512, 512, 3, 2, 0, 31999, b, "w2v-conv1")
    probe(512, 512, 2, 2, 0, 1999, b, "w2v-conv5")
print("done", sys.argv[1])
