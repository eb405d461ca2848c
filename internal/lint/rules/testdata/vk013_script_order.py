import torch

# A script that loads a checkpoint another script saved from the GPU,
# before it builds its own model: nothing here says it was saved on the CPU.
ckpt = torch.load(args.ckpt)  # want "VK013"
g = Generator(args.size).to(device)
g.load_state_dict(ckpt["g_ema"])
