# Image classification trainer in the style of the classic ImageNet example:
# argparse flags, one worker function per GPU, DataParallel fallback,
# AverageMeter bookkeeping, checkpoint resume. Written for vramkit's tests.
import argparse
import os
import random
import shutil
import time
import warnings
from enum import Enum

import torch
import torch.backends.cudnn as cudnn
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.optim
import torch.utils.data
import torch.utils.data.distributed
import torchvision.datasets as datasets
import torchvision.models as models
import torchvision.transforms as transforms
from torch.optim.lr_scheduler import StepLR

arch_names = sorted(n for n in models.__dict__ if n.islower() and not n.startswith("__") and callable(models.__dict__[n]))

cli = argparse.ArgumentParser(description="image classifier training")
cli.add_argument("data", nargs="?", default="imagenet", help="dataset root")
cli.add_argument("-a", "--arch", default="resnet50", choices=arch_names)
cli.add_argument("-j", "--workers", default=8, type=int)
cli.add_argument("--epochs", default=90, type=int)
cli.add_argument("--start-epoch", default=0, type=int)
cli.add_argument("-b", "--batch-size", default=256, type=int)
cli.add_argument("--lr", "--learning-rate", default=0.1, type=float, dest="lr")
cli.add_argument("--momentum", default=0.9, type=float)
cli.add_argument("--wd", "--weight-decay", default=1e-4, type=float, dest="weight_decay")
cli.add_argument("-p", "--print-freq", default=10, type=int)
cli.add_argument("--resume", default="", type=str)
cli.add_argument("-e", "--evaluate", action="store_true")
cli.add_argument("--pretrained", action="store_true")
cli.add_argument("--world-size", default=-1, type=int)
cli.add_argument("--rank", default=-1, type=int)
cli.add_argument("--dist-url", default="tcp://127.0.0.1:23456", type=str)
cli.add_argument("--dist-backend", default="nccl", type=str)
cli.add_argument("--seed", default=None, type=int)
cli.add_argument("--gpu", default=None, type=int)
cli.add_argument("--multiprocessing-distributed", action="store_true")
cli.add_argument("--dummy", action="store_true", help="use synthetic data")

top1_best = 0


def main():
    opts = cli.parse_args()
    if opts.seed is not None:
        random.seed(opts.seed)
        torch.manual_seed(opts.seed)
        cudnn.deterministic = True
        warnings.warn("seeded training turns on deterministic cuDNN and can be slow")
    if opts.dist_url == "env://" and opts.world_size == -1:
        opts.world_size = int(os.environ["WORLD_SIZE"])
    opts.distributed = opts.world_size > 1 or opts.multiprocessing_distributed
    gpus_per_node = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if opts.multiprocessing_distributed:
        opts.world_size = gpus_per_node * opts.world_size
        mp.spawn(worker, nprocs=gpus_per_node, args=(gpus_per_node, opts))
    else:
        worker(opts.gpu, gpus_per_node, opts)


def worker(gpu, gpus_per_node, opts):
    global top1_best
    opts.gpu = gpu
    if opts.distributed:
        if opts.multiprocessing_distributed:
            opts.rank = opts.rank * gpus_per_node + gpu
        dist.init_process_group(backend=opts.dist_backend, init_method=opts.dist_url,
                                world_size=opts.world_size, rank=opts.rank)

    net = models.__dict__[opts.arch](weights="DEFAULT" if opts.pretrained else None)

    if not torch.cuda.is_available():
        print("no GPU found, training on the CPU will be slow")
    elif opts.distributed:
        if opts.gpu is not None:
            torch.cuda.set_device(opts.gpu)
            net.cuda(opts.gpu)
            opts.batch_size = int(opts.batch_size / gpus_per_node)
            opts.workers = int((opts.workers + gpus_per_node - 1) / gpus_per_node)
            net = torch.nn.parallel.DistributedDataParallel(net, device_ids=[opts.gpu])
        else:
            net.cuda()
            net = torch.nn.parallel.DistributedDataParallel(net)
    elif opts.gpu is not None:
        torch.cuda.set_device(opts.gpu)
        net = net.cuda(opts.gpu)
    else:
        net = torch.nn.DataParallel(net).cuda()  # want "VK014 nn.DataParallel gathers"

    if torch.cuda.is_available():
        device = torch.device("cuda", opts.gpu) if opts.gpu is not None else torch.device("cuda")
    else:
        device = torch.device("cpu")

    loss_fn = nn.CrossEntropyLoss().to(device)
    optimizer = torch.optim.SGD(net.parameters(), opts.lr, momentum=opts.momentum, weight_decay=opts.weight_decay)
    scheduler = StepLR(optimizer, step_size=30, gamma=0.1)

    if opts.resume:
        if os.path.isfile(opts.resume):
            print(f"loading checkpoint {opts.resume!r}")
            if opts.gpu is None:
                # Without a GPU index DataParallel keeps its master copy on
                # cuda:0 anyway; the other branch shows the author chose.
                ckpt = torch.load(opts.resume)
            else:
                ckpt = torch.load(opts.resume, map_location=f"cuda:{opts.gpu}")
            opts.start_epoch = ckpt["epoch"]
            top1_best = ckpt["best_acc1"]
            if opts.gpu is not None:
                top1_best = top1_best.to(opts.gpu)
            net.load_state_dict(ckpt["state_dict"])
            optimizer.load_state_dict(ckpt["optimizer"])
            scheduler.load_state_dict(ckpt["scheduler"])
        else:
            print(f"no checkpoint at {opts.resume!r}")

    cudnn.benchmark = True

    if opts.dummy:
        train_set = datasets.FakeData(1281167, (3, 224, 224), 1000, transforms.ToTensor())
        val_set = datasets.FakeData(50000, (3, 224, 224), 1000, transforms.ToTensor())
    else:
        normalize = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
        train_set = datasets.ImageFolder(os.path.join(opts.data, "train"), transforms.Compose([
            transforms.RandomResizedCrop(224),
            transforms.RandomHorizontalFlip(),
            transforms.ToTensor(),
            normalize,
        ]))
        val_set = datasets.ImageFolder(os.path.join(opts.data, "val"), transforms.Compose([
            transforms.Resize(256),
            transforms.CenterCrop(224),
            transforms.ToTensor(),
            normalize,
        ]))

    if opts.distributed:
        train_sampler = torch.utils.data.distributed.DistributedSampler(train_set)
        val_sampler = torch.utils.data.distributed.DistributedSampler(val_set, shuffle=False, drop_last=True)
    else:
        train_sampler = None
        val_sampler = None

    train_loader = torch.utils.data.DataLoader(
        train_set, batch_size=opts.batch_size, shuffle=(train_sampler is None),
        num_workers=opts.workers, pin_memory=True, sampler=train_sampler)
    val_loader = torch.utils.data.DataLoader(
        val_set, batch_size=opts.batch_size, shuffle=False,
        num_workers=opts.workers, pin_memory=True, sampler=val_sampler)

    if opts.evaluate:
        validate(val_loader, net, loss_fn, device, opts)
        return

    for epoch in range(opts.start_epoch, opts.epochs):
        if opts.distributed:
            train_sampler.set_epoch(epoch)
        train_one_epoch(train_loader, net, loss_fn, optimizer, epoch, device, opts)
        acc1 = validate(val_loader, net, loss_fn, device, opts)
        scheduler.step()
        is_best = acc1 > top1_best
        top1_best = max(acc1, top1_best)
        if not opts.multiprocessing_distributed or opts.rank % gpus_per_node == 0:
            save_checkpoint({
                "epoch": epoch + 1,
                "arch": opts.arch,
                "state_dict": net.state_dict(),
                "best_acc1": top1_best,
                "optimizer": optimizer.state_dict(),
                "scheduler": scheduler.state_dict(),
            }, is_best)


def train_one_epoch(loader, net, loss_fn, optimizer, epoch, device, opts):
    t_batch = Meter("Time", ":6.3f")
    t_data = Meter("Data", ":6.3f")
    losses = Meter("Loss", ":.4e")
    top1 = Meter("Acc@1", ":6.2f")
    top5 = Meter("Acc@5", ":6.2f")
    progress = Progress(len(loader), [t_batch, t_data, losses, top1, top5], prefix=f"Epoch: [{epoch}]")

    net.train()
    tick = time.time()
    for i, (images, target) in enumerate(loader):
        t_data.update(time.time() - tick)
        images = images.to(device, non_blocking=True)
        target = target.to(device, non_blocking=True)

        output = net(images)
        loss = loss_fn(output, target)

        acc1, acc5 = accuracy(output, target, topk=(1, 5))
        losses.update(loss.item(), images.size(0))
        top1.update(acc1[0], images.size(0))
        top5.update(acc5[0], images.size(0))

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        t_batch.update(time.time() - tick)
        tick = time.time()
        if i % opts.print_freq == 0:
            progress.display(i + 1)


def validate(loader, net, loss_fn, device, opts):
    t_batch = Meter("Time", ":6.3f", Summary.NONE)
    losses = Meter("Loss", ":.4e", Summary.NONE)
    top1 = Meter("Acc@1", ":6.2f", Summary.AVERAGE)
    top5 = Meter("Acc@5", ":6.2f", Summary.AVERAGE)
    progress = Progress(len(loader), [t_batch, losses, top1, top5], prefix="Test: ")

    net.eval()
    with torch.no_grad():
        tick = time.time()
        for i, (images, target) in enumerate(loader):
            images = images.to(device, non_blocking=True)
            target = target.to(device, non_blocking=True)
            output = net(images)
            loss = loss_fn(output, target)
            acc1, acc5 = accuracy(output, target, topk=(1, 5))
            losses.update(loss.item(), images.size(0))
            top1.update(acc1[0], images.size(0))
            top5.update(acc5[0], images.size(0))
            t_batch.update(time.time() - tick)
            tick = time.time()
            if i % opts.print_freq == 0:
                progress.display(i + 1)
    if opts.distributed:
        top1.all_reduce()
        top5.all_reduce()
    progress.display_summary()
    return top1.avg


def save_checkpoint(state, is_best, filename="checkpoint.pth.tar"):
    torch.save(state, filename)
    if is_best:
        shutil.copyfile(filename, "model_best.pth.tar")


class Summary(Enum):
    NONE = 0
    AVERAGE = 1
    SUM = 2
    COUNT = 3


class Meter:
    """Keeps the latest value and the running average of one statistic."""

    def __init__(self, name, fmt=":f", summary=Summary.AVERAGE):
        self.name, self.fmt, self.summary = name, fmt, summary
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def all_reduce(self):
        device = "cuda" if torch.cuda.is_available() else "cpu"
        total = torch.tensor([self.sum, self.count], dtype=torch.float32, device=device)
        dist.all_reduce(total, dist.ReduceOp.SUM, async_op=False)
        self.sum, self.count = total.tolist()
        self.avg = self.sum / self.count

    def __str__(self):
        return ("{name} {val" + self.fmt + "} ({avg" + self.fmt + "})").format(**self.__dict__)


class Progress:
    def __init__(self, num_batches, meters, prefix=""):
        width = len(str(num_batches))
        self.batch_fmt = "[{:" + str(width) + "d}/" + str(num_batches) + "]"
        self.meters = meters
        self.prefix = prefix

    def display(self, batch):
        print("\t".join([self.prefix + self.batch_fmt.format(batch)] + [str(m) for m in self.meters]))

    def display_summary(self):
        print(" ".join(f"{m.name} {m.avg:.3f}" for m in self.meters))


def accuracy(output, target, topk=(1,)):
    """Top-k accuracy in percent for each k."""
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


if __name__ == "__main__":
    main()
