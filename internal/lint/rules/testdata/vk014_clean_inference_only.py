# An FID script: the generator is wrapped for sampling only; nothing trains.
import torch
from torch import nn

g = Generator(256, 512, 8).to(device)
g.load_state_dict(ckpt["g_ema"])
g = nn.DataParallel(g)
g.eval()
with torch.no_grad():
    images = g(torch.randn(64, 512, device=device))
