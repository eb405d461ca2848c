# Vocoder models (ParallelWaveGAN style): inference() of a module class is
# run by decode scripts in other files, under no_grad there. Inside this
# file only another object's inference() is called, which says nothing
# about this class's callers. A class whose own method calls
# self.sample_audio() here shows its callers, and is reported.
import torch


class HiFiGANGenerator(torch.nn.Module):
    def __init__(self, channels=512):
        super().__init__()
        self.conv = torch.nn.Conv1d(80, channels, 7, padding=3)
        self.duration_predictor = DurationPredictor(channels)

    def forward(self, c):
        return self.conv(c)

    def inference(self, c, normalize_before=False):
        c = self.forward(c.transpose(1, 0).unsqueeze(0))
        return c.squeeze(0).transpose(1, 0)

    def synthesis(self, c):
        ds_out = self.duration_predictor.inference(c.transpose(1, 2))
        return self.forward(c), ds_out


class MelGANGenerator(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv1d(80, 1, 7, padding=3)

    def forward(self, c):
        return self.conv(c)

    def sample_audio(self, c):
        return self.forward(c.unsqueeze(0))  # want "VK003 self.forward\(...\) runs a forward pass with autograd on, and nothing in sample_audio\(\) calls backward"

    def preview(self, c):
        return self.sample_audio(c).squeeze(0)
