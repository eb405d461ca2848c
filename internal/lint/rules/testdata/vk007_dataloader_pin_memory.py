import torch
from torch.utils.data import DataLoader as DL
import torch.utils.data as tud

device = torch.device("cuda")

train = DL(dataset, batch_size=64, shuffle=True, num_workers=4)  # want "VK007 DataLoader without pin_memory=True"
val = tud.DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=False)  # want "VK007"

ok1 = DL(dataset, batch_size=64, num_workers=4, pin_memory=True)
ok2 = DL(dataset, **loader_kwargs)
ok3 = DL(dataset, num_workers=4, pin_memory=args.pin)
ok4 = MyLoader(dataset)

for x, y in train:
    x = x.to(device, non_blocking=True)
