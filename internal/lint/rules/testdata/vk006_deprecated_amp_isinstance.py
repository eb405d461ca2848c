# The old class is also checked with isinstance: rewriting the constructor
# to torch.amp.GradScaler("cuda") would make that check False, so neither
# is rewritten (autocast, used only as a call, still is).
import torch

scaler = torch.cuda.amp.GradScaler()  # want "VK006 torch.cuda.amp.GradScaler is deprecated"


def step(loss, optimizer, scaler):
    if isinstance(scaler, torch.cuda.amp.GradScaler):  # want "VK006"
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


with torch.cuda.amp.autocast():  # want "VK006 torch.cuda.amp.autocast"
    pass
