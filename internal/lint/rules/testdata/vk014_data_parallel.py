import torch
import torch.nn as nn
from torch.nn.parallel import DataParallel as DP

model = nn.DataParallel(model)  # want "VK014 nn.DataParallel gathers"
model = torch.nn.DataParallel(model).cuda()  # want "VK014"
model = DP(model, device_ids=[0, 1])  # want "VK014"

ok = nn.parallel.DistributedDataParallel(model, device_ids=[rank])
# A metric network wrapped for inference: no optimizer state on cuda:0.
inception = nn.DataParallel(inception).eval().to(device)
fan = nn.DataParallel(FAN(fname_pretrained=path).eval())

for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
