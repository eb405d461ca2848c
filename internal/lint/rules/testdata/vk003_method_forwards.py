import torch
import torch.nn as nn
import pytorch_lightning as pl


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def pi(self, x):
        return torch.softmax(self.fc(x), -1)

    @torch.no_grad()
    def sample(self, x):
        return self.fc(x)


def test(model, env):
    # minimalRL: evaluation episodes through the policy head, not model(...).
    s = env.reset()
    prob = model.pi(torch.from_numpy(s).float())  # want "VK003 model.pi\(...\) runs a forward pass with autograd on, and nothing in test\(\) calls backward"
    return prob


def show(model, z):
    # sample() is decorated with no_grad where it is defined.
    return model.sample(z)


class Agent:
    def __init__(self):
        self.actor = ActorCritic()
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters())

    def select_action(self, state):
        # TD3: the output goes straight to NumPy, so its graph is never used.
        return self.actor(state).cpu().data.numpy().flatten()  # want "VK003 self.actor\(...\) runs with autograd on, but its output is read back to the host at once"

    def train_step(self, state, target):
        loss = ((self.actor(state) - target) ** 2).mean()
        self.actor_optimizer.zero_grad()
        loss.backward()
        self.actor_optimizer.step()
        return loss.item()


def extract(loader, model):
    out = []
    for img in loader:
        out.append(model.encode(img.cuda()).detach().cpu())  # want "VK003 model\(...\) runs with autograd on after model.eval\(\) \(line 56\)"
    return out


def main(loader, env, model, agent, state, target):
    model.eval()
    codes = extract(loader, model)
    test(model, env)
    show(model, None)
    agent.select_action(state)
    agent.train_step(state, target)
    return codes


class Experiment(pl.LightningModule):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def on_validation_end(self):
        self.sample_images()

    def sample_images(self):
        # Lightning runs its validation hooks under no_grad.
        recons = self.model.decode(torch.randn(4, 8))
        return recons


class DQN(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Linear(4, 2)
        self.critic = nn.Linear(4, 1)

    def forward(self, x):
        # A forward's own sub-module calls are not evaluation.
        return self.layers(x) + self.critic(x).flatten()[0].detach()

    def act(self, state):
        # RL-Adventure: the Q values are read back through .data only.
        q_value = self.forward(state)  # want "VK003 self.forward\(...\) runs with autograd on, but its output is read back to the host at once"
        return q_value.max(1)[1].data[0]

    def value(self, state):
        # .flatten() keeps the graph: nothing is read back here.
        return self.critic(state).flatten()


def play(model, env):
    state = env.reset()
    return model.act(state), model.value(state)
