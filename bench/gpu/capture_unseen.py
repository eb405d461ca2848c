"""Ground truth for workloads vramkit was not built on: other model families and sizes,
LoRA, and the same H200 + torch 2.11 set-up as ../shared/fixtures.

It reuses capture.py (a verbatim copy of ../shared/fixtures/capture/capture.py, so the
device machine, which only receives this repository, has it) and only adds workloads.

usage: python3 capture_unseen.py --out DIR [--inproc] [--only SUBSTR ...]
"""
import sys

import capture as C

C.W.clear()
add = C.add
add("gpt2-medium-s1024-b4-bf16", model="gpt2-medium", b=4, seq=1024, prec="bf16")
add("gpt2-medium-s1024-b4-bf16-ckpt", model="gpt2-medium", b=4, seq=1024, prec="bf16", ckpt="block")
add("llama-small-s1024-b4-bf16", model="llama-small", b=4, seq=1024, prec="bf16")
add("llama-small-s1024-b4-bf16-ckpt", model="llama-small", b=4, seq=1024, prec="bf16", ckpt="block")
add("llama-small-s1024-b4-bf16-lora16", model="llama-small", b=4, seq=1024, prec="bf16", lora=16)
add("t5-small-s512-b16-fp32", model="t5-small", b=16, seq=512)
add("t5-small-s512-b16-bf16", model="t5-small", b=16, seq=512, prec="bf16")
add("convnext-tiny-b64-fp32", model="convnext_tiny", b=64)
add("convnext-tiny-b64-bf16", model="convnext_tiny", b=64, prec="bf16")
add("efficientnet-b0-b64-fp32", model="efficientnet_b0", b=64)
add("efficientnet-b0-b128-bf16", model="efficientnet_b0", b=128, prec="bf16")
add("vitb16-b64-fp32", model="vit_b_16", b=64)
add("vitb16-b64-fp32-sgd", model="vit_b_16", b=64, opt="sgd")
add("bert-base-s384-b24-fp16", model="bert-base", b=24, seq=384, prec="fp16")

if __name__ == "__main__":
    C.main()
