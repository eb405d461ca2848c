import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

torch.backends.cudnn.benchmark = True  # want "VK021 cudnn.benchmark = True autotunes for every new input shape, and shapes vary here \(pad_sequence at line 9\)"


def collate(batch):
    return pad_sequence(batch, batch_first=True)


loader = DataLoader(dataset, collate_fn=collate)
