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


def fid(g, inception, args):
    # Wrapped, then put in eval mode and never trained: inference only.
    g = nn.DataParallel(g)
    g.eval()
    inception = nn.DataParallel(load_patched_inception_v3()).to(device)
    inception.eval()


def finetune(net):
    # eval() for frozen batch norm, but the file trains it.
    net = nn.DataParallel(net)  # want "VK014"
    net.eval()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
