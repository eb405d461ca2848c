import torch
import torch.nn as nn
from torch.nn.parallel import DataParallel as DP

model = nn.DataParallel(model)  # want "VK014 nn.DataParallel gathers"
model = torch.nn.DataParallel(model).cuda()  # want "VK014"
model = DP(model, device_ids=[0, 1])  # want "VK014"

ok = nn.parallel.DistributedDataParallel(model, device_ids=[rank])
