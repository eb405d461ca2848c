import torch


def train_then_validate(model, train_loader, val_loader, optimizer, criterion):
    model.train()
    for x, y in train_loader:
        out = model(x)  # want "VK012 out \(a model output\) stays referenced after the loop ends"
        loss = criterion(out, y)
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        for x, y in val_loader:
            pred = model(x).argmax(1)


def clean_deleted(model, train_loader, val_loader, optimizer):
    for x, y in train_loader:
        out = model(x)
        out.sum().backward()
    del out
    for x, y in val_loader:
        model(x)


def clean_nothing_after(model, loader, optimizer):
    for x, y in loader:
        out = model(x)
        out.sum().backward()
    return None


def clean_used_after(model, loader):
    for x in loader:
        logits = model(x)
    model(x)
    return logits


class UNet(nn.Module):
    def __init__(self, dims):
        # Submodules built in a loop: constructors, not model outputs.
        for d in dims:
            enc = Encoder(d, d)
            dec = Decoder(d, d)
            self.downs.append(enc)
            self.ups.append(dec)
        self.mid = model(dims)


class GANTrainer:
    def train(self, loader):
        for images in loader:
            outputs = self.D(images)
            loss = outputs.mean()
            loss.backward()
        # save_model() writes files: no GPU work follows the loop.
        self.save_model()
