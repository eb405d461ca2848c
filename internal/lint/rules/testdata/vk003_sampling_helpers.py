# The GAN and sampling styles of real training scripts.
import torch
from torchvision.utils import save_image
from utils.torch_utils import smart_inference_mode

cuda = torch.cuda.is_available()
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
generator = Generator()
discriminator = Discriminator()
G_AB = GeneratorResNet()
optimizer_G = torch.optim.Adam(G_AB.parameters())


def sample_image(n_row, batches_done):
    """Saves a grid of generated digits"""
    z = Tensor(torch.randn(n_row ** 2, 100))
    gen_imgs = generator(z)  # want "VK003 generator\(...\) runs a forward pass with autograd on, and nothing in sample_image\(\) calls backward"
    save_image(gen_imgs.data, "images/%d.png" % batches_done, nrow=n_row, normalize=True)


def sample_images(batches_done, val_dataloader):
    imgs = next(iter(val_dataloader))
    fake_B = G_AB(imgs["A"].type(Tensor))  # want "VK003 G_AB\(...\)"
    save_image(fake_B, "images/%s.png" % batches_done)


def evaluate(loader):
    # Only caller runs it under inference_mode: fine.
    return [generator(x) for x in loader]


def validate(loader):
    # Only caller runs it under no_grad, two calls up.
    return evaluate(loader)


@smart_inference_mode()
def run_val(model, loader):
    return [model(x) for x in loader]


def sample_and_train(z):
    # Trains: backward follows.
    out = generator(z)
    out.mean().backward()


for epoch in range(10):
    for i, imgs in enumerate(dataloader):
        loss = discriminator(generator(imgs)).mean()
        loss.backward()
        optimizer_G.step()
        if i % 100 == 0:
            sample_image(10, i)
            sample_images(i, val_dataloader)
    with torch.inference_mode():
        evaluate(val_dataloader)
    with torch.no_grad():
        validate(val_dataloader)

    # eval() chained onto the constructor, then a forward with autograd on.
    teacher = Teacher().cuda().eval()
    preds = teacher(imgs)  # want "VK003 teacher\(...\) runs with autograd on after teacher.eval\(\)"


def test_generator_shapes():
    # A unit test: not the program's memory.
    generator.eval()
    assert generator(torch.zeros(1, 100)).shape[0] == 1


def test():
    # The shape check at the end of a model file: a model built here on a
    # synthetic input.
    net = ResNet18()
    y = net(torch.randn(2, 3, 32, 32))
    print(y.size())


def validate_network(loader, model):
    with torch.no_grad():
        return [model(x) for x in loader]


def eval_linear(loader, model):
    # validate_network is a helper defined above, not a model.
    return validate_network(loader, model)


@torch.no_grad()
def sample_grid(netG, fixed_noise):
    return netG(fixed_noise)


def train_dcgan(netG, netD, dataloader, fixed_noise):
    optimizerG = torch.optim.Adam(netG.parameters())
    for i, data in enumerate(dataloader):
        errG = netD(netG(data)).mean()
        errG.backward()
        optimizerG.step()
        if i % 100 == 0:
            fake = netG(fixed_noise)  # want "VK003 netG\(...\) runs with autograd on, but its output is only saved as an image"
            vutils.save_image(fake.detach(), "fake_samples.png", normalize=True)


class LadderVAE(BaseVAE):
    def forward(self, x):
        return self.decoder(self.encoder(x))

    def sample(self, num_samples, device):
        # A module's sampling API: its callers (a trainer in another file)
        # pick the grad mode.
        z = torch.randn(num_samples, 16, device=device)
        return self.decoder(z)


class GANTrainer:
    def visualize_results(self, epoch):
        self.G.eval()
        samples = self.G(self.sample_z_)  # want "VK003 self.G\(...\) runs with autograd on after self.G.eval\(\)"
        save_image(samples, "%03d.png" % epoch)


def train_sngan(net_G, net_D, looper, sample_z, writer):
    optim_G = torch.optim.Adam(net_G.parameters())
    for step in range(1000):
        loss = net_D(net_G(next(looper))).mean()
        optim_G.zero_grad()
        loss.backward()
        optim_G.step()
        if step % 500 == 0:
            fake = net_G(sample_z).cpu()  # want "VK003 net_G\(...\) runs with autograd on, but its output is only saved"
            grid = (make_grid(fake) + 1) / 2
            writer.add_image("sample", grid, step)


def evaluation(config):
    import ignite.distributed as idist
    model = config.model
    model.eval()
    # A wrapper from a library, not a forward.
    model = idist.auto_model(model)
    return model


class WGAN:
    def __init__(self):
        self.g_optimizer = torch.optim.Adam(self.G.parameters())

    def train(self, train_loader):
        for g_iter in range(self.generator_iters):
            fake_images = self.G(self.z)
            g_loss = self.D(fake_images).mean()
            g_loss.backward()
            self.g_optimizer.step()
            if g_iter % 1000 == 0:
                self.save_model()
                samples = self.G(self.z)  # want "VK003 self.G\(...\) runs with autograd on, but its output is only saved"
                samples = samples.mul(0.5).add(0.5)
                samples = samples.data.cpu()[:64]
                grid = make_grid(samples)
                save_image(grid, "img_%d.png" % g_iter)


def get_model_fn(model, train=False):
    def model_fn(x, labels):
        # The output is handed back to callers in other files, which pick
        # the grad mode (losses with it, sampling under no_grad).
        if not train:
            model.eval()
            return model(x, labels)
        model.train()
        return model(x, labels)
    return model_fn


class SAGANTrainer:
    def __init__(self):
        self.g_optimizer = torch.optim.Adam(self.G.parameters())

    def train(self):
        for step in range(self.total_step):
            fake, gf1, gf2 = self.G(self.z)
            g_loss = -self.D(fake).mean()
            g_loss.backward()
            self.g_optimizer.step()
            if (step + 1) % self.sample_step == 0:
                fake_images, _, _ = self.G(self.fixed_z)  # want "VK003 self.G\(...\) runs with autograd on, but its output is only saved"
                save_image(denorm(fake_images.data), "%d_fake.png" % (step + 1))


class VQModel(pl.LightningModule):
    def forward(self, x):
        return self.decode(self.encode(x))


class GumbelVQ(VQModel):
    def log_images(self, batch):
        # Inherits forward: a module; its logger callback picks the grad mode.
        h = self.encoder(batch)
        return {"rec": self.decoder(h)}


class FAN(nn.Module):
    def __init__(self):
        self._generate_network(4)

    def _generate_network(self, level):
        # Builds submodules: a generator of networks, not a sampler.
        self.add_module("b2b_" + str(level), ConvBlock(256, 256))

    def forward(self, x):
        return self.b2b_4(x)
