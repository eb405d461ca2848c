import numpy as np
import torch
import torch as th
from torch.autograd import Variable

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
cuda = torch.cuda.is_available()
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor


class RNN(torch.nn.Module):
    def forward(self, x, n, args, kw):
        a = torch.zeros(n, n).cuda()  # want "VK009 torch.zeros\(...\) is built in host memory"
        b = torch.arange(n).to(device)  # want "VK009 torch.arange"
        c = th.randn(n, 3, dtype=torch.float16).to(device=args.device, non_blocking=True)  # want "VK009 th.randn"
        e = torch.ones(()).to(torch.device("cuda"))  # want "VK009"
        f = torch.empty(n).cuda(1)  # want "VK009"
        g = torch.zeros(n, **kw).cuda()  # want "VK009"
        h = torch.eye(n).to(self.device, torch.float16)  # want "VK009"
        i = torch.full(  # want "VK009"
            (n,), 7,
        ).cuda()
        return a, b, c, e, f, g, h, i


def reparameterization(mu, logvar, latent_dim):
    std = torch.exp(logvar / 2)
    # Called from forward below: runs at every step.
    sampled_z = Variable(Tensor(np.random.normal(0, 1, (mu.size(0), latent_dim))))  # want "VK009 Tensor\(np.random.normal\(...\)\) draws the numbers into a NumPy array"
    return sampled_z * std + mu


class Encoder(torch.nn.Module):
    def forward(self, img):
        mu, logvar = self.mu(img), self.logvar(img)
        return reparameterization(mu, logvar, 8)


def train(generator, discriminator, dataloader, optimizer_G, n_epochs):
    for epoch in range(n_epochs):
        # Once per epoch: setup, not a per-step cost.
        fixed_noise = torch.randn(64, 100).to(device)
        for i, (imgs, _) in enumerate(dataloader):
            valid = torch.ones(imgs.size(0), 1).to(device)  # want "VK009 torch.ones"
            z = Variable(Tensor(np.random.normal(0, 1, (imgs.shape[0], 100))))  # want "VK009 Tensor\(np.random.normal"
            labels = Variable(torch.cuda.LongTensor(np.random.randint(0, 10, imgs.shape[0])))  # want "VK009 torch.cuda.LongTensor\(np.random.randint"
            g_loss = discriminator(generator(z)).mean() + valid.mean()
            g_loss.backward()
            optimizer_G.step()
        with torch.no_grad():
            generator(fixed_noise)


def clean(n, x, rank, data):
    # One-off setup outside any training step.
    a = torch.zeros(n).to(device)
    b = torch.zeros(n).to(torch.float16)
    c = torch.zeros(n).to(x)
    d = torch.from_numpy(x).cuda()
    e = x.cuda()
    f = torch.zeros(n).to(rank)
    g = torch.zeros(n, device="cpu").cuda()
    h = torch.zeros(n).float().cuda()
    return a, b, c, d, e, f, g, h


def export(weights_list, model, data):
    for w in weights_list:
        # A loop over files, not training steps.
        im = torch.zeros(1, 3, 640, 640).to(device)
        model.load(w)
    for batch in data:
        # torch.tensor(data, device=...) also builds on the host and copies:
        # the rewrite would save nothing.
        t = torch.tensor(batch).to(device)
        model(t)


def step_with_leaf(model, data):
    for x in data:
        # requires_grad on the CPU tensor: the moved copy is a non-leaf. The
        # rewrite would make it a leaf, so it is reported but not rewritten.
        w = torch.zeros(3, requires_grad=True).to(device)  # want "VK009"
        model(x * w).sum().backward()


def train_with_samples(model, data, optimizer):
    for i, x in enumerate(data):
        model(x).sum().backward()
        optimizer.step()
        if i % 1000 == 0:
            # Every 1000 steps: the copy is paid rarely.
            z = torch.randn(64, 100).cuda()
            save_image(model(z), "sample.png")
