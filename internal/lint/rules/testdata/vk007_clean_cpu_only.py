# A CPU-only script: pinning would not help, so nothing is flagged.
from torch.utils.data import DataLoader

loader = DataLoader(dataset, batch_size=8, num_workers=2)
