import torch
import torch.nn.functional as F


def train_epoch(model, loader, optimizer, criterion):
    model.train()
    total_loss = 0.0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total_loss += loss  # want "VK001 total_loss accumulates loss with its autograd graph"
    print(f"epoch loss {total_loss / len(loader):.4f}")


def train_weighted(model, loader, optimizer):
    running = 0
    seen = 0
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        running = running + loss * x.size(0)  # want "VK001 running accumulates loss"
        seen += x.size(0)
    print("avg", running / seen)


def train_returns_total(model, loader, optimizer, scaler):
    # Flagged, but not fixed: the total is returned and may be used as a tensor.
    total = 0.0
    for x, y in loader:
        with torch.autocast("cuda"):
            loss = model(x, y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        total += loss  # want "VK001 total accumulates loss"
    return total


class Trainer:
    def fit(self, loader):
        for epoch in range(10):
            for batch in loader:
                loss = self.step(batch)
                self.accelerator.backward(loss)
                self.stats["loss"] += loss  # want "VK001 self.stats..loss.. accumulates loss"
                self.epoch_loss += loss  # want "VK001 self.epoch_loss accumulates"


def gradient_accumulation(model, loader, optimizer, accum):
    # The sum is reset every iteration of the inner loop's parent: building
    # the loss of one optimizer step is fine.
    for step, batches in enumerate(loader):
        loss = 0
        for x, y in batches:
            loss += model(x, y) / accum
        loss.backward()
        optimizer.step()


def clean_item(model, loader, optimizer, criterion):
    total_loss = 0.0
    n = 0
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        n += float(loss)
        total_loss += loss.detach() * 2
    return total_loss


def clean_aux_loss(model, loader, optimizer):
    for x, y in loader:
        loss, aux = model(x, y)
        loss += 0.01 * aux
        loss = loss + aux
        loss.backward()


@torch.no_grad()
def clean_eval(model, loader, criterion):
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)
        total += loss
    return total


def clean_no_backward(model, loader, criterion):
    # No backward in the loop: nothing says loss holds a graph.
    total = 0.0
    for x, y in loader:
        total += criterion(model(x), y)
    return total


def clean_outside_loop(model, x, y, criterion):
    total = 0.0
    loss = criterion(model(x), y)
    loss.backward()
    total += loss
    return total


def train_retained(model, loader, optimizer, criterion):
    # retain_graph=True keeps each step's saved activations alive, and the
    # total holds every step's graph: GPU memory grows (a warning).
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward(retain_graph=True)
        total += loss  # want "VK001 total accumulates loss with its autograd graph: every iteration's graph and saved activations stay alive"
        optimizer.step()
    return total
