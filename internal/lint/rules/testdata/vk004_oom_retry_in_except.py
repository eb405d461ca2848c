import torch
import torch as T


def forward_with_fallback(model, x):
    try:
        out = model(x)
    except torch.cuda.OutOfMemoryError:
        torch.cuda.empty_cache()
        out = model(x[: len(x) // 2])  # want "VK004 model is called again inside the except"
    return out


def step(batch, bs):
    try:
        return run_batch(batch, bs)
    except RuntimeError as e:
        if "out of memory" in str(e):
            print("OOM, halving the batch")
            return step(batch, bs // 2)  # want "VK004 step is called again"
        raise


class Trainer:
    def train_step(self, batch):
        try:
            loss = self.compute_loss(batch)
        except (ValueError, T.OutOfMemoryError):
            self.optimizer.zero_grad()
            loss = self.compute_loss(batch)  # want "VK004 self.compute_loss is called again"
        return loss


def clean_flag_then_retry(model, x):
    oom = False
    try:
        out = model(x)
    except torch.cuda.OutOfMemoryError:
        oom = True
    if oom:
        torch.cuda.empty_cache()
        out = model(x[: len(x) // 2])
    return out


def clean_other_runtime_error(model, x):
    try:
        out = model(x)
    except RuntimeError:
        out = model(x.float())
    return out


def clean_cleanup_only(model, x, optimizer):
    try:
        out = model(x)
    except torch.OutOfMemoryError:
        optimizer.zero_grad()
        torch.cuda.empty_cache()
        print(torch.cuda.memory_summary())
        raise
    return out


def clean_loop_continue(model, loader):
    for x in loader:
        try:
            model(x)
        except RuntimeError as e:
            if "out of memory" not in str(e):
                raise
            torch.cuda.empty_cache()
            continue
