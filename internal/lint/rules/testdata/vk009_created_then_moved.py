import torch
import torch as th

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def make(n, model, args):
    a = torch.zeros(n, n).cuda()  # want "VK009 torch.zeros\(...\) is built in host memory"
    b = torch.arange(n).to(device)  # want "VK009 torch.arange"
    c = th.randn(n, 3, dtype=torch.float16).to(device=args.device, non_blocking=True)  # want "VK009 th.randn"
    d = torch.tensor([1, 2, 3]).to("cuda:0")  # want "VK009"
    e = torch.ones(()).to(torch.device("cuda"))  # want "VK009"
    f = torch.empty(n).cuda(1)  # want "VK009"
    g = torch.zeros(n, **kw).cuda()  # want "VK009"
    h = torch.eye(n).to(self.device, torch.float16)  # want "VK009"
    i = torch.full(  # want "VK009"
        (n,), 7,
    ).cuda()
    return a, b, c, d, e, f, g, h, i


def clean(n, x, rank):
    a = torch.zeros(n, device=device)
    b = torch.zeros(n).to(torch.float16)
    c = torch.zeros(n).to(x)
    d = torch.from_numpy(x).cuda()
    e = x.cuda()
    f = torch.zeros(n).to(rank)
    g = torch.zeros(n, device="cpu").cuda()
    h = torch.zeros(n).float().cuda()
    return a, b, c, d, e, f, g, h
