import torch
from torch.utils.data import DataLoader as DL
import torch.utils.data as tud

device = torch.device("cuda")

train_loader = DL(dataset, batch_size=64, shuffle=True, num_workers=4)  # want "VK007 DataLoader without pin_memory=True"
loaders = {
    "train": tud.DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=False),  # want "VK007"
    "val": tud.DataLoader(val_set, batch_size=64, num_workers=4),
}
# Missing num_workers as well: VK008 reports this loader, once.
other = DL(dataset, batch_size=64)

ok1 = DL(dataset, batch_size=64, num_workers=4, pin_memory=True)
ok2 = DL(dataset, **loader_kwargs)
ok3 = DL(dataset, num_workers=4, pin_memory=args.pin)
ok4 = MyLoader(dataset)
# Evaluation loader: one pass, not the training hot loop.
val_loader = DL(val_set, batch_size=64, num_workers=4)
# One batch for a summary or a plot.
images, labels = next(iter(DL(dataset, batch_size=16, num_workers=2)))

for epoch in range(10):
    for x, y in train_loader:
        x = x.to(device, non_blocking=True)
        loss = model(x).mean()
        loss.backward()
        optimizer.step()
    for x, y in loaders["train"]:
        x = x.cuda()
        model(x).mean().backward()
    for x, y in other:
        x = x.to(device)
        model(x).mean().backward()
    for x, y in ok1:
        x = x.to(device)
        model(x).mean().backward()
    for x, y in val_loader:
        x = x.to(device)
