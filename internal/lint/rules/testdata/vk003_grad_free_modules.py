# Modules of the file whose calls record no graph of their own: a data
# augmentation whose forward runs under no_grad (kornia style), and a
# dequantization that holds no parameters. Calling them outside no_grad
# costs nothing; a real network next to them is still reported.
import numpy as np
import torch
import torch.nn as nn
from torchvision.utils import save_image


class DataAugmentation(nn.Module):
    def __init__(self, apply_color_jitter: bool = False) -> None:
        super().__init__()
        self._apply_color_jitter = apply_color_jitter
        self.transforms = nn.Sequential(RandomHorizontalFlip(p=0.75), RandomChannelShuffle(p=0.75))

    @torch.no_grad()
    def forward(self, x):
        return self.transforms(x)


class Dequantization(nn.Module):
    def __init__(self, alpha=1e-5, quants=256):
        super().__init__()
        self.alpha = alpha
        self.quants = quants

    def forward(self, z, ldj, reverse=False):
        z = z * (1 - self.alpha) + 0.5 * self.alpha
        ldj += np.log(1 - self.alpha) * np.prod(z.shape[1:])
        return torch.log(z) - torch.log(1 - z), ldj


class Scaler(nn.Module):
    # Holds a module handed to it: not parameter-free.
    def __init__(self, net, scale=2.0):
        super().__init__()
        self.net = net
        self.scale = scale

    def forward(self, x):
        return self.net(x) * self.scale


class CoolSystem(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Linear(4, 4)
        self.transform = DataAugmentation()

    def forward(self, x):
        return self.model(x)

    def show_batch(self, imgs):
        for step in range(3):
            imgs_aug = self.transform(imgs)
            save_image(imgs_aug, "aug.png")


def visualize_dequantization(quants):
    inp = torch.arange(-4, 4, 0.01).view(-1, 1, 1, 1)
    ldj = torch.zeros(inp.shape[0])
    dequant_module = Dequantization(quants=quants)
    out, ldj = dequant_module.forward(inp, ldj, reverse=True)
    return out.numpy(), ldj.exp().numpy()


def visualize_scaled(net, x):
    scaled = Scaler(net)
    return scaled(x)  # want "VK003 scaled\(...\) runs a forward pass with autograd on"


for i in range(10):
    loss = model(x).mean()
    loss.backward()
    with torch.no_grad():
        pass
    fake = generator(noise)  # want "VK003 generator\(...\) runs with autograd on, but its output is only saved as an image"
    save_image(fake.detach(), "fake.png")


# An exercise skeleton: nothing stored yet, but the notebook trains it.
class Generator(nn.Module):
    def __init__(self, z_size, conv_dim=32):
        super(Generator, self).__init__()
        # complete init function

    def forward(self, x):
        # complete forward function
        return x


def train_skeleton(z, fixed_z):
    G = Generator(z_size=100)
    g_optimizer = torch.optim.Adam(G.parameters(), lr=2e-4)
    for epoch in range(5):
        g_loss = G(z).mean()
        g_loss.backward()
        g_optimizer.step()
        G.eval()
        samples_z = G(fixed_z)  # want "VK003 G\(...\) runs with autograd on after G.eval\(\)"
        G.train()
