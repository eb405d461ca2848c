# The padding helper is never used by this program: its fixed-size images
# keep one shape, so benchmark mode is right.
import torch
from torch.nn.utils.rnn import pad_sequence

torch.backends.cudnn.benchmark = True


def old_text_collate(batch):
    return pad_sequence(batch, batch_first=True)
