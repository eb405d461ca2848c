# Deep convolutional GAN on an image folder, in the style of the classic
# DCGAN example: generator and discriminator built from Sequential blocks,
# two optimizers, separate real/fake discriminator passes, sample grids.
# Written for vramkit's tests.
import argparse
import os
import random

import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data
import torchvision.datasets as dset
import torchvision.transforms as transforms
import torchvision.utils as vutils

ap = argparse.ArgumentParser()
ap.add_argument("--dataroot", required=True)
ap.add_argument("--workers", type=int, default=2)
ap.add_argument("--batchSize", type=int, default=64)
ap.add_argument("--imageSize", type=int, default=64)
ap.add_argument("--nz", type=int, default=100)
ap.add_argument("--ngf", type=int, default=64)
ap.add_argument("--ndf", type=int, default=64)
ap.add_argument("--niter", type=int, default=25)
ap.add_argument("--lr", type=float, default=0.0002)
ap.add_argument("--beta1", type=float, default=0.5)
ap.add_argument("--netG", default="")
ap.add_argument("--netD", default="")
ap.add_argument("--outf", default=".")
ap.add_argument("--manualSeed", type=int)
opt = ap.parse_args()

os.makedirs(opt.outf, exist_ok=True)
seed = opt.manualSeed if opt.manualSeed is not None else random.randint(1, 10000)
random.seed(seed)
torch.manual_seed(seed)

dataset = dset.ImageFolder(root=opt.dataroot, transform=transforms.Compose([
    transforms.Resize(opt.imageSize),
    transforms.CenterCrop(opt.imageSize),
    transforms.ToTensor(),
    transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)),
]))
loader = torch.utils.data.DataLoader(dataset, batch_size=opt.batchSize, shuffle=True,
                                     num_workers=opt.workers, pin_memory=True, drop_last=True)

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
nz, ngf, ndf = opt.nz, opt.ngf, opt.ndf


def init_weights(m):
    name = m.__class__.__name__
    if "Conv" in name:
        nn.init.normal_(m.weight, 0.0, 0.02)
    elif "BatchNorm" in name:
        nn.init.normal_(m.weight, 1.0, 0.02)
        nn.init.zeros_(m.bias)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 8),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 4),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf, 3, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(3, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, ndf * 4, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 4),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 4, 1, 4, 1, 0, bias=False),
            nn.Sigmoid(),
        )

    def forward(self, x):
        return self.main(x).view(-1, 1).squeeze(1)


netG = Generator().to(device)
netG.apply(init_weights)
if opt.netG:
    netG.load_state_dict(torch.load(opt.netG, map_location=device))
netD = Discriminator().to(device)
netD.apply(init_weights)
if opt.netD:
    netD.load_state_dict(torch.load(opt.netD, map_location=device))

criterion = nn.BCELoss()
fixed_noise = torch.randn(opt.batchSize, nz, 1, 1, device=device)
real_label, fake_label = 1.0, 0.0
optD = optim.Adam(netD.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))
optG = optim.Adam(netG.parameters(), lr=opt.lr, betas=(opt.beta1, 0.999))

g_history, d_history = [], []
for epoch in range(opt.niter):
    for i, (real, _) in enumerate(loader):
        # (1) discriminator: maximise log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        real = real.to(device, non_blocking=True)
        b = real.size(0)
        label = torch.full((b,), real_label, dtype=real.dtype, device=device)
        out = netD(real)
        errD_real = criterion(out, label)
        errD_real.backward()
        D_x = out.mean().item()

        noise = torch.randn(b, nz, 1, 1, device=device)
        fake = netG(noise)
        label.fill_(fake_label)
        out = netD(fake.detach())
        errD_fake = criterion(out, label)
        errD_fake.backward()
        D_G_z1 = out.mean().item()
        errD = errD_real + errD_fake
        optD.step()

        # (2) generator: maximise log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        out = netD(fake)
        errG = criterion(out, label)
        errG.backward()
        D_G_z2 = out.mean().item()
        optG.step()

        g_history.append(errG.item())
        d_history.append(errD.item())
        if i % 100 == 0:
            print(f"[{epoch}/{opt.niter}][{i}/{len(loader)}] Loss_D: {errD.item():.4f} Loss_G: {errG.item():.4f} "
                  f"D(x): {D_x:.4f} D(G(z)): {D_G_z1:.4f} / {D_G_z2:.4f}")
            vutils.save_image(real, f"{opt.outf}/real_samples.png", normalize=True)
            with torch.no_grad():
                sample = netG(fixed_noise)
            vutils.save_image(sample.detach(), f"{opt.outf}/fake_samples_epoch_{epoch:03d}.png", normalize=True)

    torch.save(netG.state_dict(), f"{opt.outf}/netG_epoch_{epoch}.pth")
    torch.save(netD.state_dict(), f"{opt.outf}/netD_epoch_{epoch}.pth")
