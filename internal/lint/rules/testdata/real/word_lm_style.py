# Word-level language model on a text corpus, in the style of the classic
# RNN/Transformer language-model example: corpus dictionary, batchify,
# truncated BPTT with a detached hidden state, manual SGD, annealed learning
# rate. Written for vramkit's tests.
import argparse
import math
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Vocabulary:
    def __init__(self):
        self.index = {}
        self.words = []

    def add(self, word):
        if word not in self.index:
            self.words.append(word)
            self.index[word] = len(self.words) - 1
        return self.index[word]

    def __len__(self):
        return len(self.words)


class TextCorpus:
    def __init__(self, root):
        self.vocab = Vocabulary()
        self.train = self.encode(os.path.join(root, "train.txt"))
        self.valid = self.encode(os.path.join(root, "valid.txt"))
        self.test = self.encode(os.path.join(root, "test.txt"))

    def encode(self, path):
        ids = []
        with open(path, encoding="utf8") as fh:
            for line in fh:
                for w in line.split() + ["<eos>"]:
                    ids.append(self.vocab.add(w))
        return torch.tensor(ids, dtype=torch.int64)


class RecurrentLM(nn.Module):
    def __init__(self, kind, ntoken, ninp, nhid, nlayers, dropout=0.5, tie=False):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.embed = nn.Embedding(ntoken, ninp)
        if kind in ("LSTM", "GRU"):
            self.rnn = getattr(nn, kind)(ninp, nhid, nlayers, dropout=dropout)
        else:
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity="tanh", dropout=dropout)
        self.head = nn.Linear(nhid, ntoken)
        if tie:
            if nhid != ninp:
                raise ValueError("tied weights need nhid == emsize")
            self.head.weight = self.embed.weight
        self.kind, self.nhid, self.nlayers = kind, nhid, nlayers
        nn.init.uniform_(self.embed.weight, -0.1, 0.1)
        nn.init.zeros_(self.head.bias)
        nn.init.uniform_(self.head.weight, -0.1, 0.1)

    def forward(self, tokens, hidden):
        emb = self.drop(self.embed(tokens))
        out, hidden = self.rnn(emb, hidden)
        out = self.drop(out)
        logits = self.head(out).view(-1, self.ntoken)
        return F.log_softmax(logits, dim=1), hidden

    def init_hidden(self, bsz):
        w = next(self.parameters())
        if self.kind == "LSTM":
            return (w.new_zeros(self.nlayers, bsz, self.nhid), w.new_zeros(self.nlayers, bsz, self.nhid))
        return w.new_zeros(self.nlayers, bsz, self.nhid)


parser = argparse.ArgumentParser(description="word language model")
parser.add_argument("--data", type=str, default="./data/wikitext-2")
parser.add_argument("--model", type=str, default="LSTM")
parser.add_argument("--emsize", type=int, default=200)
parser.add_argument("--nhid", type=int, default=200)
parser.add_argument("--nlayers", type=int, default=2)
parser.add_argument("--lr", type=float, default=20)
parser.add_argument("--clip", type=float, default=0.25)
parser.add_argument("--epochs", type=int, default=40)
parser.add_argument("--batch_size", type=int, default=20)
parser.add_argument("--bptt", type=int, default=35)
parser.add_argument("--dropout", type=float, default=0.2)
parser.add_argument("--tied", action="store_true")
parser.add_argument("--seed", type=int, default=1111)
parser.add_argument("--log-interval", type=int, default=200)
parser.add_argument("--save", type=str, default="model.pt")
parser.add_argument("--accel", action="store_true")
args = parser.parse_args()

torch.manual_seed(args.seed)
if args.accel and torch.accelerator.is_available():
    device = torch.accelerator.current_accelerator()
else:
    device = torch.device("cpu")

corpus = TextCorpus(args.data)


def batchify(data, bsz):
    # Trim to a multiple of bsz and lay the stream out as bsz columns.
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous().to(device)


eval_batch_size = 10
train_data = batchify(corpus.train, args.batch_size)
val_data = batchify(corpus.valid, eval_batch_size)
test_data = batchify(corpus.test, eval_batch_size)

ntokens = len(corpus.vocab)
model = RecurrentLM(args.model, ntokens, args.emsize, args.nhid, args.nlayers, args.dropout, args.tied).to(device)
criterion = nn.NLLLoss()


def detach_state(h):
    """Cut the graph at the batch boundary so BPTT stays args.bptt long."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(detach_state(v) for v in h)


def get_batch(source, i):
    seq_len = min(args.bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].view(-1)


def evaluate(source):
    model.eval()
    total = 0.0
    hidden = model.init_hidden(eval_batch_size)
    with torch.no_grad():
        for i in range(0, source.size(0) - 1, args.bptt):
            data, targets = get_batch(source, i)
            output, hidden = model(data, hidden)
            hidden = detach_state(hidden)
            total += len(data) * criterion(output, targets).item()
    return total / (len(source) - 1)


def train(epoch, lr):
    model.train()
    running = 0.0
    start = time.time()
    hidden = model.init_hidden(args.batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
        data, targets = get_batch(train_data, i)
        model.zero_grad()
        hidden = detach_state(hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        with torch.no_grad():
            for p in model.parameters():
                p.add_(p.grad, alpha=-lr)
        running += loss.item()
        if batch % args.log_interval == 0 and batch > 0:
            cur = running / args.log_interval
            ms = (time.time() - start) * 1000 / args.log_interval
            print(f"| epoch {epoch:3d} | {batch:5d}/{len(train_data) // args.bptt:5d} batches | lr {lr:02.2f} "
                  f"| ms/batch {ms:5.2f} | loss {cur:5.2f} | ppl {math.exp(cur):8.2f}")
            running = 0.0
            start = time.time()


lr = args.lr
best_val = None
try:
    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        train(epoch, lr)
        val_loss = evaluate(val_data)
        print("-" * 89)
        print(f"| end of epoch {epoch:3d} | time {time.time() - t0:5.2f}s | valid loss {val_loss:5.2f} | valid ppl {math.exp(val_loss):8.2f}")
        print("-" * 89)
        if best_val is None or val_loss < best_val:
            torch.save(model.state_dict(), args.save)
            best_val = val_loss
        else:
            lr /= 4.0
except KeyboardInterrupt:
    print("stopping early")

model.load_state_dict(torch.load(args.save, map_location=device))
if args.model in ("RNN", "LSTM", "GRU"):
    model.rnn.flatten_parameters()
test_loss = evaluate(test_data)
print(f"| end of training | test loss {test_loss:5.2f} | test ppl {math.exp(test_loss):8.2f}")
