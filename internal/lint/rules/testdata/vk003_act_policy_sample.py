# Soft actor-critic style: select_action() samples from the policy network
# once per environment step and hands back NumPy; update_parameters()
# trains through the same sample() with autograd, as it must.
import torch
import torch.nn.functional as F

from model import GaussianPolicy, QNetwork


class SAC:
    def __init__(self, num_inputs, action_space, args):
        self.device = torch.device("cuda" if args.cuda else "cpu")
        self.critic = QNetwork(num_inputs, action_space.shape[0], args.hidden_size).to(self.device)
        self.policy = GaussianPolicy(num_inputs, action_space.shape[0], args.hidden_size).to(self.device)
        self.policy_optim = torch.optim.Adam(self.policy.parameters(), lr=args.lr)

    def select_action(self, state, evaluate=False):
        state = torch.FloatTensor(state).to(self.device).unsqueeze(0)
        if evaluate is False:
            action, _, _ = self.policy.sample(state)  # want "VK003 self.policy.sample\(...\) runs with autograd on in the action selector select_action\(\)"
        else:
            _, _, action = self.policy.sample(state)
        return action.detach().cpu().numpy()[0]

    def get_action(self, state):
        # Clean: the log-probability goes back to the caller, which may
        # train through it.
        action, log_pi, _ = self.policy.sample(state)
        return action.detach().cpu().numpy()[0], log_pi

    def act(self, state, noise):
        # Clean: a distribution's sample() is not a network.
        dist = torch.distributions.Normal(self.policy(state), noise)
        action = dist.sample()
        return action.cpu().numpy()

    def update_parameters(self, state_batch):
        pi, log_pi, _ = self.policy.sample(state_batch)
        qf1_pi, qf2_pi = self.critic(state_batch, pi)
        policy_loss = ((0.2 * log_pi) - torch.min(qf1_pi, qf2_pi)).mean()
        self.policy_optim.zero_grad()
        policy_loss.backward()
        self.policy_optim.step()
        return policy_loss.item()
