import torch
import torch.nn as nn

# Nothing here trains (an Inception network for FID, or a model trained in
# another file): only the gathered outputs sit on the first GPU, so this is
# a hint.
inception = nn.DataParallel(load_inception()).cuda()  # want "VK014"


def features(batch):
    with torch.no_grad():
        return inception(batch.cuda())
