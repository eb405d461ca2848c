# What these files save is on the CPU, though the .cpu() is not in the
# torch.save call: features moved to the host a line before (a tutorial's
# cached feature extraction), and a save helper that moves the model to
# the CPU, saves its state dict and moves it back. Loading them back
# without map_location gives CPU tensors.
import os

import torch


@torch.no_grad()
def extract_features(pretrained_model, loader, save_file, device):
    if not os.path.isfile(save_file):
        extracted_features = []
        for imgs, _ in loader:
            extracted_features.append(pretrained_model(imgs.to(device)))
        extracted_features = torch.cat(extracted_features, dim=0)
        extracted_features = extracted_features.detach().cpu()
        torch.save(extracted_features, save_file)
    else:
        extracted_features = torch.load(save_file)
    return extracted_features


def save_model(model, directory, filename="model.pt"):
    device = next(model.parameters()).device
    model.cpu()
    torch.save(model.state_dict(), os.path.join(directory, filename))
    model.to(device)


def load_model(directory, device, filename="model.pt"):
    model = init_specific_model().to(device)
    model.load_state_dict(torch.load(os.path.join(directory, filename)), strict=False)
    return model
