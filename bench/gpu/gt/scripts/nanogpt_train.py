# nanoGPT-style training script: model, data and training loop at module level (no main()).
# GT_LEAK=1 keeps every step's loss (with its autograd graph) in a list: a leak.
# Env: GT_NAME, GT_OUT (snapshot dir), GT_SNAP (1: record history from the top), GT_ITERS.
import json, math, os, time
import torch
import torch.nn as nn
import torch.nn.functional as F

if os.environ.get("GT_SNAP") == "1":
    torch.cuda.memory._record_memory_history(max_entries=2_000_000, context="alloc", stacks="python")

n_layer, n_head, n_embd, block_size, vocab_size = 12, 12, 768, 1024, 50304
batch_size = int(os.environ.get("GT_BATCH", "8"))
max_iters = int(os.environ.get("GT_ITERS", "4"))
leak = os.environ.get("GT_LEAK") == "1"
device = "cuda"


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(n_embd, dim=2)
        q = q.view(B, T, n_head, C // n_head).transpose(1, 2)
        k = k.view(B, T, n_head, C // n_head).transpose(1, 2)
        v = v.view(B, T, n_head, C // n_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention()
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.h = nn.ModuleList([Block() for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight

    def forward(self, idx, targets):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for blk in self.h:
            x = blk(x)
        logits = self.lm_head(self.ln_f(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.reshape(-1))


torch.manual_seed(1337)
model = GPT().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4, betas=(0.9, 0.95), weight_decay=0.1, fused=True)
data = torch.randint(0, vocab_size, (batch_size * max_iters + 1, block_size + 1))
losses = []
iter_s = []
for it in range(max_iters):
    t0 = time.perf_counter()
    xy = data[it * batch_size:(it + 1) * batch_size].to(device)
    x, y = xy[:, :-1], xy[:, 1:]
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
        loss = model(x, y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    if leak:
        losses.append(loss)  # keeps the graph of every step alive
    else:
        losses.append(loss.item())
    torch.cuda.synchronize()
    iter_s.append(time.perf_counter() - t0)
    print(f"iter {it}: alloc {torch.cuda.memory_allocated()}", flush=True)

res = dict(name=os.environ.get("GT_NAME", "nanogpt"), script="nanogpt_train.py", leak=leak, b=batch_size,
           seq=block_size, iters=max_iters, prec="bf16", params=sum(p.numel() for p in model.parameters()),
           status="ok", iter_s=iter_s, max_allocated=torch.cuda.max_memory_allocated(),
           max_reserved=torch.cuda.max_memory_reserved(), alloc_end=torch.cuda.memory_allocated())
st = torch.cuda.memory_stats()
res["stats"] = {k: st.get(k) for k in ("allocated_bytes.all.peak", "reserved_bytes.all.peak",
                                       "num_alloc_retries", "num_ooms", "segment.all.peak")}
if os.environ.get("GT_SNAP") == "1":
    p = os.path.join(os.environ.get("GT_OUT", "."), res["name"] + ".pickle")
    torch.cuda.memory._dump_snapshot(p)
    res["snapshot"] = os.path.basename(p) + ".gz"
print("RESULT " + json.dumps(res), flush=True)
