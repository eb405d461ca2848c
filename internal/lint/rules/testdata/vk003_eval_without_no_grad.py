import torch
from torch import no_grad


def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        out = model(x)  # want "VK003 model\(...\) runs with autograd on after model.eval\(\) \(line 6\)"
        out2 = model(x)
        correct += (out.argmax(1) == y).sum().item()
    return correct


class Runner:
    def validate(self, batch):
        self.net.eval()
        return self.net(batch)  # want "VK003 self.net\(...\) runs with autograd on"


def clean_with(model, loader):
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            out = model(x)
    return out


def clean_inference_mode(model, x):
    model.eval()
    with torch.inference_mode():
        return model(x)


@torch.no_grad()
def clean_decorated(model, x):
    model.eval()
    return model(x)


@no_grad()
def clean_decorated_import(model, x):
    model.eval()
    return model(x)


def clean_set_grad_enabled(model, x):
    torch.set_grad_enabled(False)
    model.eval()
    return model(x)


def clean_back_to_train(model, loader, val_x):
    for x in loader:
        model.eval()
        model.train()
        out = model(x)


def clean_finetune_frozen_bn(model, loader, optimizer):
    model.eval()  # freeze batch norm statistics while fine-tuning
    for x, y in loader:
        loss = model(x).sum()
        loss.backward()
        optimizer.step()


def clean_forward_before_eval(model, x):
    out = model(x)
    model.eval()
    return out


def clean_other_object(model, metric, x):
    metric.eval()
    return model(x)


def clean_grad_mode_off(model, x):
    model.eval()
    with torch.set_grad_enabled(False):
        return model(x)
