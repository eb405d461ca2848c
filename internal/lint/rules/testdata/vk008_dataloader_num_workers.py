from torch.utils.data import DataLoader, TensorDataset
import torch

device = "cuda"
train_loader = DataLoader(dataset, batch_size=32, pin_memory=True)  # want "VK008 DataLoader without num_workers"
# Explicit 0 is a choice (debugging, unpicklable dataset): not flagged.
b = torch.utils.data.DataLoader(dataset, num_workers=0)
ok1 = DataLoader(dataset, num_workers=8)
ok2 = DataLoader(dataset, num_workers=args.workers)
ok3 = DataLoader(dataset, **cfg)
ok4 = SomeOtherLoader(dataset)
# In-memory tensors: workers would only add start-up and copies.
mem = DataLoader(TensorDataset(x, y), batch_size=32)
test_loader = DataLoader(test_set, batch_size=32)

for data, target in train_loader:
    data = data.to(device)
    loss = model(data).sum()
    loss.backward()
for loader in (b, ok1, ok2, ok3, ok4, mem):
    for data, target in loader:
        data = data.to(device)
        model(data).sum().backward()
for data, target in test_loader:
    model(data.to(device))
# A loader whose batches stay on the CPU.
cpu_loader = DataLoader(dataset, batch_size=32)
for data, target in cpu_loader:
    loss = cpu_model(data).sum()
    loss.backward()
