import torch
import torch.nn as nn

# A course script that never uses the GPU: evaluating without no_grad costs
# host memory only, so the finding is a hint.


def save_samples(fixed_Y, G_YtoX):
    # CycleGAN's helper: generators passed in as G_YtoX are models.
    fake_X = G_YtoX(fixed_Y)  # want "VK003 G_YtoX\(...\) runs a forward pass with autograd on, and nothing in save_samples\(\) calls backward: .*\(host memory: this script does not use the GPU\)"
    return fake_X


if __name__ == "__main__":
    model = nn.Linear(4, 2)
    model.eval()
    out = model(torch.randn(8, 4))  # want "VK003 model\(...\) runs with autograd on after model.eval\(\) \(line 16\).*\(host memory: this script does not use the GPU\)"
    print(out.sum())
    save_samples(torch.randn(2, 4), model)
