# A score-model runner: train() and sample() each build a loader named
# `dataloader`; only train()'s feeds training steps. A toy Dataset of the
# file that only indexes tensors it holds is data already in memory.
import torch
from torch.utils.data import DataLoader, Dataset


class ToyDataset(Dataset):
    def __init__(self, X, y):
        self.features = X
        self.labels = y

    def __getitem__(self, index):
        return self.features[index], self.labels[index]

    def __len__(self):
        return self.labels.shape[0]


class ImageFiles(Dataset):
    def __init__(self, paths, transform):
        self.paths, self.transform = paths, transform

    def __getitem__(self, index):
        return self.transform(Image.open(self.paths[index]))

    def __len__(self):
        return len(self.paths)


class Runner:
    def train(self):
        dataloader = DataLoader(self.dataset, batch_size=128, shuffle=True, num_workers=4)  # want "VK007 DataLoader without pin_memory=True"
        for i, (X, y) in enumerate(dataloader):
            X = X.to(self.device)
            loss = self.score(X).mean()
            loss.backward()
            self.optimizer.step()

    def sample(self):
        dataloader = DataLoader(self.dataset, batch_size=64, shuffle=True, num_workers=4)
        data_iter = iter(dataloader)
        refer_images, _ = next(data_iter)
        return refer_images.to(self.device)


def fit(model, optimizer, device, X_train, y_train, paths):
    toy_loader = DataLoader(ToyDataset(X_train, y_train), batch_size=2, shuffle=True, num_workers=1)
    file_loader = DataLoader(ImageFiles(paths, to_tensor), batch_size=32, num_workers=4)  # want "VK007 DataLoader without pin_memory=True"
    for loader in (toy_loader, file_loader):
        for features, labels in loader:
            features, labels = features.to(device), labels.to(device)
            loss = model(features).mean()
            loss.backward()
            optimizer.step()
    for features, labels in toy_loader:
        features = features.to(device)
        model(features).mean().backward()
    for features, labels in file_loader:
        features = features.to(device)
        model(features).mean().backward()
