import torch


class NativeScaler:
    # timm: the old API is the fallback for a PyTorch without torch.amp's
    # GradScaler, and runs only there.
    def __init__(self, device="cuda"):
        try:
            self._scaler = torch.amp.GradScaler(device=device)
        except (AttributeError, TypeError):
            self._scaler = torch.cuda.amp.GradScaler()


def fallback_without_new_api():
    # The try does not use torch.amp: the old API is what runs.
    try:
        scaler = make_scaler()
    except RuntimeError:
        scaler = torch.cuda.amp.GradScaler()  # want "VK006"
    return scaler


def train_step(scaler: torch.cuda.amp.GradScaler):  # want "VK006"
    # The annotation runs nothing (a hint); the name changes with the
    # constructor all the same.
    return scaler
