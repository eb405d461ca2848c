from torch.utils.data import DataLoader
import torch

a = DataLoader(dataset, batch_size=32, pin_memory=True)  # want "VK008 DataLoader without num_workers"
b = torch.utils.data.DataLoader(dataset, num_workers=0)  # want "VK008 DataLoader with num_workers=0"

ok1 = DataLoader(dataset, num_workers=8)
ok2 = DataLoader(dataset, num_workers=args.workers)
ok3 = DataLoader(dataset, **cfg)
ok4 = SomeOtherLoader(dataset)
