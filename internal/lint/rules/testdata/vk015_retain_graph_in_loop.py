import torch


def train(model, loader, optimizer):
    hidden = model.init_hidden()
    for x, y in loader:
        out, hidden = model(x, hidden)
        loss = criterion(out, y)
        loss.backward(retain_graph=True)  # want "VK015 backward\(retain_graph=True\) is the last backward"
        optimizer.step()


def train_scaled(model, loader, optimizer, scaler):
    for x in loader:
        loss = model(x)
        scaler.scale(loss).backward(retain_graph=True)  # want "VK015"


def clean_two_losses(gen, disc, loader):
    for z in loader:
        fake = gen(z)
        d_loss = disc(fake).mean()
        d_loss.backward(retain_graph=True)
        g_loss = -disc(fake).mean()
        g_loss.backward()


def clean(model, x):
    loss = model(x)
    loss.backward(retain_graph=True)
    loss.backward()
    for x in loader:
        loss = model(x)
        loss.backward(retain_graph=False)
