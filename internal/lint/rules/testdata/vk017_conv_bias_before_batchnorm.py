from collections import OrderedDict

import torch.nn as nn
from torch import nn as tnn

stem = nn.Sequential(
    nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3),  # want "VK017 nn.Conv2d has a bias that the nn.BatchNorm2d right after it cancels"
    nn.BatchNorm2d(64),
    nn.ReLU(inplace=True),
)
layers = [tnn.Conv1d(16, 32, 3), tnn.BatchNorm1d(32), tnn.ReLU()]  # want "VK017 nn.Conv1d"
named = nn.Sequential(OrderedDict([
    ("conv", nn.Conv3d(1, 8, 3)),  # want "VK017 nn.Conv3d"
    ("bn", nn.SyncBatchNorm(8)),
]))

ok1 = nn.Sequential(nn.Conv2d(3, 64, 3, bias=False), nn.BatchNorm2d(64))
ok2 = nn.Sequential(nn.Conv2d(3, 64, 3), nn.ReLU(), nn.BatchNorm2d(64))
ok3 = nn.Sequential(nn.Conv2d(3, 64, 3, 1, 1, 1, 1, False), nn.BatchNorm2d(64))
ok4 = nn.Sequential(nn.Conv2d(3, 64, 3, bias=use_bias), nn.BatchNorm2d(64))
ok5 = nn.Sequential(nn.Linear(3, 64), nn.BatchNorm1d(64))
