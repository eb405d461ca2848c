# The same shapes with GPU data: the tensor moved to the host is not the
# one saved, and the model is moved to the CPU only after the save.
import torch


def extract_features(model, images, save_file):
    feats = model(images.cuda())
    preview = feats.detach().cpu()
    torch.save(feats, save_file)
    return preview


def save_model(model, path):
    torch.save(model.state_dict(), path)
    model.cpu()


def load_model(model, path):
    model.load_state_dict(torch.load(path))  # want "VK013 torch.load without map_location"
    return model.cuda()
