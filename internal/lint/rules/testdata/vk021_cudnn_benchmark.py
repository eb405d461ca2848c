import torch
from torch.nn.utils.rnn import pad_sequence

torch.backends.cudnn.benchmark = True  # want "VK021 cudnn.benchmark = True autotunes for every new input shape, and shapes vary here \(pad_sequence at line 8\)"


def collate(batch):
    return pad_sequence(batch, batch_first=True)
