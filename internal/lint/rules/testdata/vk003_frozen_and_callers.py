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

    def evaluate_fid(self, z):
        # Nothing in this file calls evaluate_fid(): its callers elsewhere pick
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
        return self.D(z)  # want "VK003 self.D\(...\) runs a forward pass with autograd on, and nothing in generate\(\) calls backward: activations are saved for a backward pass that never comes \(unless its callers, in other files, run it under no_grad\)$"

    def train(self, z):
        self.generate(z)


class ActorCritic(nn.Module):
    def evaluate(self, state, action):
        # Named like an evaluation, but its only caller builds the loss
        # from its outputs and calls backward: a training forward.
        return self.actor(state), self.critic(state)

    def act(self, state):
        return self.actor(state)


class PPO:
    def update(self, states, actions, rewards):
        logprobs, values = self.policy.evaluate(states, actions)
        ratios = torch.exp(logprobs)
        loss = -(ratios * rewards).mean() + ((values - rewards) ** 2).mean()
        loss.backward()
        self.optimizer.step()


class GAN:
    def generate_img(self, z):
        return self.generator(z)  # want "VK003 self.generator\(...\) runs a forward pass"

    def train(self, z, real):
        # Samples for the inception score: computed in the training
        # function, but not part of its loss.
        samples = self.generate_img(z)
        score = inception_score(samples)
        loss = self.D(real).mean()
        loss.backward()
