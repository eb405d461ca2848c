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
