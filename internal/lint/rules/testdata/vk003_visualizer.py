# Display code of VAE repositories: a viz_* method called from the
# training loop, and a Visualizer whose private helper runs the decoder
# for the grids its other methods draw. Neither disables autograd.
import torch
from torch.autograd import Variable
from torchvision.utils import make_grid, save_image


class Solver:
    def train(self):
        for x in self.data_loader:
            x_recon, mu, logvar = self.net(x.cuda())
            loss = self.loss(x, x_recon, mu, logvar)
            self.optim.zero_grad()
            loss.backward()
            self.optim.step()
            if self.global_iter % self.display_step == 0:
                self.viz_traverse()

    def viz_traverse(self, limit=3, inter=2 / 3):
        self.net_mode(train=False)
        decoder, encoder = self.net.decoder, self.net.encoder
        img = Variable(self.data_loader.dataset[0].cuda(), volatile=True).unsqueeze(0)
        z = encoder(img)[:, : self.z_dim]  # want "VK003 encoder\(...\) runs a forward pass with autograd on, and nothing in viz_traverse\(\) calls backward"
        samples = [torch.sigmoid(decoder(z)).data for _ in range(10)]
        save_image(torch.cat(samples).cpu(), "traverse.jpg")
        self.net_mode(train=True)

    def viz_lines(self):
        # Plots logged numbers: no forward at all.
        self.viz.line(X=torch.Tensor(self.iters), Y=torch.stack(self.losses).cpu())


class Visualizer:
    def __init__(self, model, save_images=True):
        self.model = model
        self.save_images = save_images

    def _decode_latents(self, latent_samples):
        latent_samples = latent_samples.to(self.device)
        return self.model.decoder(latent_samples).cpu()  # want "VK003 self.model.decoder\(...\) runs a forward pass with autograd on"

    def traversals(self, n_latents):
        latent_samples = [self._traverse_line(dim) for dim in range(n_latents)]
        return make_grid(self._decode_latents(torch.cat(latent_samples, dim=0)))

    def reconstruct(self, data):
        with torch.no_grad():
            recs, _, _ = self.model(data.to(self.device))
        return recs.cpu()


class Evaluator(torch.nn.Module):
    # A module class named like an evaluator: its methods are the
    # network's own, left to the module rules.
    def __init__(self):
        super().__init__()
        self.head = torch.nn.Linear(8, 2)

    def forward(self, x):
        return self.head(x)

    def decode(self, x):
        return self.head(x)
