import torch
import torch.nn as nn

# A file that trains: the optimizer state and the gradients of the wrapped
# network pile up on the first GPU.
model = nn.DataParallel(Net()).cuda()  # want "VK014 nn.DataParallel gathers"
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    loss = criterion(model(x.cuda()), y.cuda())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
