import torch
from torch.cuda.amp import GradScaler as GS, autocast  # want "VK006 torch.cuda.amp.GradScaler is deprecated" "VK006 torch.cuda.amp.autocast is deprecated"

try:
    from torch.amp import custom_fwd
except ImportError:
    from torch.cuda.amp import custom_fwd


def train(model, loader, optimizer):
    scaler = GS(init_scale=1024)
    for x in loader:
        with autocast():
            loss = model(x).sum()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
