import torch
import torch as T
from torch.cuda import amp


def train(model, loader, optimizer, use_amp):
    scaler = torch.cuda.amp.GradScaler(enabled=use_amp)  # want "VK006 torch.cuda.amp.GradScaler is deprecated"
    for x in loader:
        with torch.cuda.amp.autocast():  # want "VK006 torch.cuda.amp.autocast is deprecated .* device \"cuda\""
            loss = model(x).sum()
        with T.cpu.amp.autocast(dtype=torch.bfloat16):  # want "VK006 torch.cpu.amp.autocast is deprecated .* device \"cpu\""
            loss = loss + model(x).sum()
        with amp.autocast(True):  # want "VK006 torch.cuda.amp.autocast"
            pass
        scaler.scale(loss).backward()


class MyFn(torch.autograd.Function):
    @staticmethod
    @torch.cuda.amp.custom_fwd  # want "VK006 torch.cuda.amp.custom_fwd"
    def forward(ctx, x):
        return x

    @staticmethod
    @torch.cuda.amp.custom_bwd(cast_inputs=torch.float32)  # want "VK006 torch.cuda.amp.custom_bwd"
    def backward(ctx, g):
        return g


# The old class is also kept as a value here, so isinstance checks against it
# may follow: the GradScaler(...) call in train() is reported, not rewritten.
scaler_class = torch.cuda.amp.GradScaler  # want "VK006"


def clean(model, x):
    scaler = torch.amp.GradScaler("cuda")
    with torch.amp.autocast("cuda", dtype=torch.float16):
        y = model(x)
    with torch.autocast(device_type="cuda"):
        y = model(x)
    return scaler, y
