from torch.cuda.amp import autocast  # want "VK006 torch.cuda.amp.autocast"

# A positional argument would change meaning in torch.amp.autocast (it is
# dtype there), so neither the import nor this use is rewritten.
with autocast(True):
    pass
