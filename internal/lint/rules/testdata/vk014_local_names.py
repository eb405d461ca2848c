# A runner in the style of diffusion repositories: train() and sample()
# each build their own local `model`; only train() trains it.
import torch
import torch.nn as nn


class Runner:
    def train(self):
        model = Model(self.config).to(self.device)
        model = torch.nn.DataParallel(model)  # want "VK014 nn.DataParallel gathers"
        optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
        for x in self.loader:
            loss = model(x.to(self.device)).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    def sample(self):
        model = Model(self.config)
        states = torch.load(self.ckpt, map_location=self.device)
        model = model.to(self.device)
        # Another variable of the same name: wrapped for sampling only.
        model = torch.nn.DataParallel(model)
        model.load_state_dict(states[0])
        model.eval()
        with torch.no_grad():
            return model(torch.randn(16, 3, 32, 32, device=self.device))

    def finetune(self):
        # Here the local name is trained again after eval(): reported.
        net = torch.nn.DataParallel(Model(self.config))  # want "VK014"
        net.eval()
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        opt.step()
