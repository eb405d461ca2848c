# deepspeech-style MaskConv: the wrapper runs the Sequential's layers one
# at a time and zeroes padded time steps after each, so the BatchNorm sees
# masked conv outputs and the conv bias does not cancel. A wrapper that
# calls the whole Sequential at once changes nothing.
import torch.nn as nn


class MaskConv(nn.Module):
    def __init__(self, seq_module):
        super().__init__()
        self.seq_module = seq_module

    def forward(self, x, lengths):
        for module in self.seq_module:
            x = module(x)
            x = x.masked_fill(self.mask(x, lengths), 0)
        return x


class Whole(nn.Module):
    def __init__(self, seq):
        super().__init__()
        self.seq = seq

    def forward(self, x):
        return self.seq(x)


class DeepSpeech(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = MaskConv(nn.Sequential(
            nn.Conv2d(1, 32, kernel_size=(41, 11), stride=(2, 2), padding=(20, 5)),
            nn.BatchNorm2d(32),
            nn.Hardtanh(0, 20, inplace=True),
        ))
        self.stem = Whole(nn.Sequential(
            nn.Conv2d(1, 32, kernel_size=3),  # want "VK017 nn.Conv2d has a bias"
            nn.BatchNorm2d(32),
        ))
