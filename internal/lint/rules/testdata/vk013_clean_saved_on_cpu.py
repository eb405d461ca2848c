# Features are saved after .cpu(), so loading them back gives CPU tensors:
# map_location changes nothing.
import torch

features = model(images.cuda())
torch.save(features.cpu(), "feats.pth")
feats = torch.load("feats.pth")
