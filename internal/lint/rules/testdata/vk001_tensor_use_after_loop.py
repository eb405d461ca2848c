# The running total is used as a tensor after the loop (.item(), .cpu()):
# the finding stands, but rewriting loss to loss.item() would make total a
# float and break those lines, so --fix leaves the file alone.
def train_epoch(model, loader, optimizer, criterion, writer):
    total = 0
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss  # want "VK001 total accumulates loss"
    writer.add_scalar("loss", total.item() / len(loader))


def train_epoch_cpu(model, loader, optimizer, criterion):
    running = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        running = running + loss  # want "VK001 running accumulates loss"
    return running.cpu()
