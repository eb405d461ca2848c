"""A second held-out set, captured after the planner had been adjusted on the first
(capture_unseen.py): other shapes and technique mixes of the same families, to measure
vramkit on data nobody tuned against. Same machinery as capture_unseen.py.

usage: python3 capture_blind.py --out DIR [--inproc --iters 8]
"""
import capture as C

C.W.clear()
add = C.add
add("llama-small-s512-b8-bf16", model="llama-small", b=8, seq=512, prec="bf16")
add("llama-small-s1024-b4-bf16-lora16-ckpt", model="llama-small", b=4, seq=1024, prec="bf16", lora=16, ckpt="block")
add("t5-small-s256-b32-bf16-ckpt", model="t5-small", b=32, seq=256, prec="bf16", ckpt="block")
add("gpt2-medium-s512-b8-fp32", model="gpt2-medium", b=8, seq=512)
add("gpt2-s512-b16x2-fp16-accum", model="gpt2", b=16, seq=512, prec="fp16", accum=2)
add("convnext-tiny-b128-bf16", model="convnext_tiny", b=128, prec="bf16")
add("efficientnet-b0-b64-fp16", model="efficientnet_b0", b=64, prec="fp16")
add("vitb16-b128-bf16-ckpt", model="vit_b_16", b=128, prec="bf16", ckpt="block")
add("bert-tiny-s128-b64-fp32", model="bert-tiny", b=64, seq=128)
add("resnet50-b96-bf16-ckpt", model="resnet50", b=96, prec="bf16", ckpt="block")

if __name__ == "__main__":
    C.main()
