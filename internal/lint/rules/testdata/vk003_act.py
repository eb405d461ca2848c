import random

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class QRDQN(nn.Module):
    def __init__(self, n_in, n_actions, n_quants):
        super().__init__()
        self.n_actions, self.n_quants = n_actions, n_quants
        self.layers = nn.Linear(n_in, n_actions * n_quants)

    def forward(self, x):
        return self.layers(x).view(-1, self.n_actions, self.n_quants)

    def act(self, state, epsilon):
        # RL-Adventure's quantile DQN: the Q values pass through two names
        # before they are read back.
        if random.random() > epsilon:
            qvalues = self.forward(state).mean(2)  # want "VK003 self.forward\(...\) runs with autograd on in the action selector act\(\)"
            action = qvalues.max(1)[1]
            action = action.data.cpu().numpy()[0]
        else:
            action = random.randrange(self.n_actions)
        return action

    def greedy(self, state):
        # Not named like an action selector, and the output stays a tensor.
        q = self.forward(state).mean(2)
        return q


class Agent:
    def __init__(self, n_in, n_actions):
        self.policy_net = QRDQN(n_in, n_actions, 1)
        self.policy = nn.Linear(n_in, n_actions)
        self.saved_log_probs = []

    def select_action(self, state):
        # argmax of the Q network, through a second name.
        q = self.policy_net(state)  # want "VK003 self.policy_net\(...\) runs with autograd on in the action selector select_action\(\)"
        best = q.squeeze(0)
        return best.argmax().item()

    def getAction(self, state):
        # cleanrl-style greedy action through torch.argmax.
        q_values = self.policy_net(state).mean(2)  # want "VK003 self.policy_net\(...\) runs with autograd on in the action selector getAction\(\)"
        return torch.argmax(q_values, 1).cpu().numpy()

    def get_action(self, state):
        # Clean: under no_grad.
        with torch.no_grad():
            q = self.policy_net(state).mean(2)
            a = q.max(1)[1]
        return a.item()

    def choose_action(self, state):
        # Clean: REINFORCE keeps the log-prob for the policy-gradient loss.
        probs = self.policy_net(state).softmax(-1)
        m = Categorical(probs)
        action = m.sample()
        self.saved_log_probs.append(m.log_prob(action))
        return action.item()

    def sample_action(self, state):
        # Clean: actor-critic returns the log-prob and value it trains on.
        logits = self.policy_net(state).mean(2)
        dist = Categorical(logits=logits)
        action = dist.sample()
        return action.item(), dist.log_prob(action)

    def get_actions(self, state):
        # Clean: the logits go into a distribution (keyword argument) that
        # is kept for the update, though the greedy action is read back too.
        logits = self.policy_net(state).mean(2)
        self.dist = Categorical(logits=logits)
        return logits.argmax().item()

    def take_action(self, state):
        # Clean: the Q values themselves are returned (a caller may train
        # on them).
        q = self.policy_net(state).mean(2)
        action = q.max(1)[1].item()
        return action, q

    def pick_action(self, state, target, optimizer):
        # Clean: this one trains.
        q = self.policy_net(state).mean(2)
        loss = ((q - target) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return q.max(1)[1].item()


def main(env, n_in, n_actions, frames):
    agent = Agent(n_in, n_actions)
    model = QRDQN(n_in, n_actions, 8).cuda()
    state = env.reset()
    for _ in range(frames):
        action = model.act(torch.as_tensor(state).cuda(), 0.1)
        agent.select_action(state)
        agent.get_action(state)
        agent.getAction(state)
        agent.choose_action(state)
        agent.sample_action(state)
        agent.get_actions(state)
        agent.take_action(state)
        model.greedy(state)
        state, reward, done, _ = env.step(action)


if __name__ == "__main__":
    main(None, 4, 2, 10)
