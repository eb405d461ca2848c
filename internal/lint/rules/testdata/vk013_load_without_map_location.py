import torch

model = Net().cuda()
model.load_state_dict(torch.load("model.pt"))  # want "VK013 torch.load without map_location"
state = torch.load(args.resume, weights_only=True)  # want "VK013"

ok1 = torch.load("model.pt", map_location="cpu")
ok2 = torch.load("model.pt", "cpu")
ok3 = torch.load("model.pt", map_location=lambda s, loc: s)
ok4 = torch.load(path, **load_kwargs)
ok5 = np.load("x.npy")

if args.gpu is None:
    ok6 = torch.load(args.resume)  # the other branch maps: a choice
else:
    ok6 = torch.load(args.resume, map_location="cuda:%d" % args.gpu)
if args.pretrained:
    weights = torch.load(args.pretrained)  # want "VK013"

# How the result is used names the pattern: read by key or handed to
# load_state_dict, it is a checkpoint the run saved from its GPU; used as
# is, it is a whole pickled object or data, often written from the CPU.
ckpt = torch.load(args.ckpt)  # want "VK013"
net.load_state_dict(ckpt["model"])
opt_state = torch.load(args.opt).get("optimizer")  # want "VK013"
generator = torch.load("generator.pth")  # want "VK013"
vectors = torch.load(".vector_cache/glove.pt")  # want "VK013"
