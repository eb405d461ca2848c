import torch
from torch.cuda import empty_cache


def train(model, loader, optimizer):
    for step, (x, y) in enumerate(loader):
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        torch.cuda.empty_cache()  # want "VK011 torch.cuda.empty_cache\(\) on every training step"


def train_nested(model, loader, optimizer):
    for epoch in range(3):
        for x in loader:
            with torch.autocast("cuda"):
                loss = model(x).sum()
            loss.backward()
            empty_cache()  # want "VK011"


def clean(model, loader, optimizer, models):
    for epoch in range(3):
        for step, x in enumerate(loader):
            loss = model(x).sum()
            loss.backward()
            if step % 1000 == 0:
                torch.cuda.empty_cache()
            try:
                optimizer.step()
            except RuntimeError:
                torch.cuda.empty_cache()
        torch.cuda.empty_cache()  # once per epoch, outside the step loop: not flagged
    for m in models:
        m(torch.zeros(1))
        torch.cuda.empty_cache()
    torch.cuda.empty_cache()
