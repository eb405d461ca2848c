import torch


def train(model, optimizer, loader):
    for x in loader:
        optimizer.zero_grad(set_to_none=False)  # want "VK005 zero_grad\(set_to_none=False\) keeps every .grad tensor allocated"
        model.zero_grad(False)  # want "VK005"
        optimizer.zero_grad(  # want "VK005"
            set_to_none=False,
        )
        loss = model(x).sum()
        loss.backward()
        optimizer.step()


def clean(model, optimizer, flag):
    optimizer.zero_grad()
    optimizer.zero_grad(set_to_none=True)
    optimizer.zero_grad(set_to_none=flag)
    model.zero_grad(True)
    for p in model.parameters():
        p.grad = None
