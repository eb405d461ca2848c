import torch


def train(model, loader, optimizer, criterion):
    losses = []
    outputs = []
    for x, y in loader:
        optimizer.zero_grad()
        out = model(x)
        loss = criterion(out, y)
        loss.backward()
        optimizer.step()
        losses.append(loss)  # want "VK002 losses keeps loss \(the loss\)"
        outputs.append(out)  # want "VK002 outputs keeps out \(a model output the loss is computed from\)"
        outputs += [out.logits]  # want "VK002 outputs keeps out.logits"
    return losses, outputs


def train_tuple(net, batches, opt):
    history = {"loss": []}
    all_logits = []
    for X, Y in batches:
        logits, loss = net(X, Y)
        loss.backward()
        opt.step()
        history["loss"].append(loss)  # want "VK002 history..loss.. keeps loss"
        all_logits.extend([logits])  # want "VK002 all_logits keeps logits \(an output of the forward pass"


def clean(model, loader, optimizer, criterion):
    losses, preds, targets_seen, lrs = [], [], [], []
    for x, y in loader:
        optimizer.zero_grad()
        out = model(x)
        loss = criterion(out, y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        losses.append(loss.detach())
        preds.append(out.argmax(1))
        preds.append(out.detach().cpu())
        targets_seen.append(y)
        lrs.append(optimizer.param_groups[0]["lr"])
        step_parts = []
        step_parts.append(loss)


def clean_data_fetch(model, get_batch, steps):
    inputs = []
    for _ in range(steps):
        X, Y = get_batch("train")
        logits, loss = model(X, Y)
        loss.backward()
        inputs.append(X)
        inputs.append(Y)


@torch.no_grad()
def clean_eval(model, loader, criterion):
    outs = []
    for x, y in loader:
        out = model(x)
        loss = criterion(out, y)
        outs.append(out)
        outs.append(loss)
    return outs


def clean_no_backward(model, loader):
    outs = []
    for x in loader:
        outs.append(model(x))
    return outs


def eval_after_train(model, train_loader, eval_dataloader, accelerator):
    for epoch in range(3):
        for batch in train_loader:
            outputs = model(**batch)
            loss = outputs.loss
            accelerator.backward(loss)
        losses = []
        for batch in eval_dataloader:
            with torch.no_grad():
                outputs = model(**batch)
            loss = outputs.loss
            losses.append(loss)
