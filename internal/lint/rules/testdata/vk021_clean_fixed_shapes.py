import torch
from torch.backends import cudnn

# Fixed-size images: benchmark mode is the right choice.
cudnn.benchmark = True
torch.backends.cudnn.benchmark = True
