import pickle

import torch
from torchvision.utils import save_image


def generate_image_grid(network_pkl, device):
    # Unpickled whole: its parameters keep the requires_grad they were saved
    # with (EMA copies are saved frozen), so grad mode proves nothing.
    with open(network_pkl, "rb") as f:
        net = pickle.load(f)["ema"].to(device)
    x = torch.randn(8, 3, 32, 32, device=device)
    for t in range(18):
        x = net(x, t)
    save_image(x, "grid.png")


class Trainer:
    def __init__(self, G, D):
        self.G, self.D = G, D
        self.ema_net = copy.deepcopy(G).eval().requires_grad_(False)

    def sample(self, z):
        # The EMA generator is frozen: its forward records no graph.
        return self.ema_net(z)

    def evaluate(self, z):
        # Nothing in this file calls evaluate(): its callers elsewhere pick
        # the grad mode, so this is a note, not a warning.
        self.G.eval()
        return self.G(z)  # want "VK003 .*\(unless its callers, in other files, run it under no_grad\)"

    def generate(self, z):
        # A toggled network (frozen for the G step, thawed for the D step)
        # is not frozen.
        for p in self.D.parameters():
            p.requires_grad = False
        for p in self.D.parameters():
            p.requires_grad = True
        return self.D(z)  # want "VK003 self.D\(...\) runs a forward pass with autograd on, and nothing in generate\(\) calls backward: activations are saved for a backward pass that never comes$"

    def train(self, z):
        self.generate(z)
