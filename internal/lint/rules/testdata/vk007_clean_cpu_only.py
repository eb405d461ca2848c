# A CPU-only script: pinning would not help, so nothing is flagged, even
# though an unrelated helper mentions "cuda".
from torch.utils.data import DataLoader

loader = DataLoader(dataset, batch_size=8, num_workers=2)

for x, y in loader:
    loss = model(x).mean()
    loss.backward()
    optimizer.step()


def describe():
    return "runs on cuda too, one day"
