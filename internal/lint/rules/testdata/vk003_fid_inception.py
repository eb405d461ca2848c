# FID code vendored from pytorch-fid: its InceptionV3(output_blocks) sets
# requires_grad=False on every parameter unless told otherwise, so the
# feature extraction records no graph without no_grad. An Inception built
# with requires_grad=True does.
import numpy as np
import torch

from .inception import InceptionV3


def get_activations(files, model, batch_size=50, dims=2048, cuda=False):
    model.eval()
    pred_arr = np.empty((len(files), dims))
    for i in range(0, len(files), batch_size):
        batch = torch.from_numpy(load(files[i : i + batch_size])).type(torch.FloatTensor)
        if cuda:
            batch = batch.cuda()
        pred = model(batch)[0]
        pred_arr[i : i + batch_size] = pred.cpu().data.numpy().reshape(pred.size(0), -1)
    return pred_arr


def calculate_fid_given_paths(paths, batch_size, cuda, dims):
    block_idx = InceptionV3.BLOCK_INDEX_BY_DIM[dims]
    model = InceptionV3([block_idx])
    if cuda:
        model.cuda()
    return [get_activations(p, model, batch_size, dims, cuda) for p in paths]


def tuned_features(images, dims=2048):
    net = InceptionV3([InceptionV3.BLOCK_INDEX_BY_DIM[dims]], requires_grad=True).cuda()
    net.eval()
    return net(images.cuda())[0]  # want "VK003 net\(...\) runs with autograd on after net.eval\(\)"
