"""Session 6. Call 19, mid-session: the first captures of QLoRA (bitsandbytes NF4 base weights with double
quantisation, bf16 compute, peft's prepare_model_for_kbit_training, as people run it) and of bitsandbytes'
AdamW8bit — bitsandbytes built on the machine from its source for sm_90 — plus contrast snapshots for the
reserved-memory mechanisms (Gemma 2 without LoRA, with checkpointing; SGD on a Llama). The "late9q" rows
are blind: kept outside the repository until the session's models are final."""
from gt_jobs import J, T, LLAMA_SMALL, GPT2_MEDIUM, maker
from gt_jobs7 import LL1B
from gt_jobs9 import QW05, MI, GE, P3, Q3, tv
import gt_jobs10

L = ("LlamaForCausalLM", "LlamaConfig", LLAMA_SMALL)
GM = ("GPT2LMHeadModel", "GPT2Config", GPT2_MEDIUM)
G2G = gt_jobs10.G2
ALL = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


D = maker("dev6-", "dev6", heldout=False, timeout=200)
Bq = maker("late9q-", "late9q", heldout=True)


def contrast():
    return [
        D("gemma2-g-s1024-b4-bf16-snap", T(*G2G, b=4, seq=1024, iters=2, snap=True, family="gemma2")),
        D("gemma2-g-s1024-b4-bf16-ckpt-snap", T(*G2G, b=4, seq=1024, ckpt="block", iters=2, snap=True,
                                                family="gemma2")),
        D("llama-small-s1024-b4-bf16-sgd-snap", T(*L, b=4, seq=1024, opt="sgd", iters=2, snap=True)),
    ]


def qlora():
    return [
        D("qlora-llama32-1b-s1024-b4-r16-ckpt", T(*LL1B, b=4, seq=1024, lora=16, quant="nf4", ckpt="block",
                                                  family="llama")),
        D("qlora-qwen25-05b-s2048-b2-r16", T(*QW05, b=2, seq=2048, lora=16, quant="nf4", family="qwen2")),
        D("qlora-mistral-e-s1024-b4-r16-all-ckpt", T(*MI, b=4, seq=1024, lora=16, quant="nf4", ckpt="block",
                                                     lora_targets=ALL, family="mistral")),
        D("qlora-llama32-1b-s512-b2-r16-snap", T(*LL1B, b=2, seq=512, lora=16, quant="nf4", iters=2, snap=True,
                                                 family="llama")),
        D("adamw8bit-gpt2-medium-s1024-b8-bf16", T(*GM, b=8, seq=1024, opt="adamw8bit")),
        D("adamw8bit-llama-small-s1024-b4-bf16", T(*L, b=4, seq=1024, opt="adamw8bit")),
        Bq("qlora-gemma-e-s1024-b4-r8-ckpt", T(*GE, b=4, seq=1024, lora=8, quant="nf4", ckpt="block", family="gemma")),
        Bq("qlora-phi3-f-s1024-b4-r16", T(*P3, b=4, seq=1024, lora=16, quant="nf4", lora_targets=["qkv_proj"],
                                         family="phi3")),
        Bq("qlora-qwen3-g-s2048-b2-r16-all", T(*Q3, b=2, seq=2048, lora=16, quant="nf4", lora_targets=ALL,
                                              family="qwen3")),
        Bq("adamw8bit-qwen25-05b-s1024-b8-bf16", T(*QW05, b=8, seq=1024, opt="adamw8bit", family="qwen2")),
        Bq("adamw8bit-resnet50-b128-bf16", tv("resnet50", 128, opt="adamw8bit")),
    ]


def calib():
    """Call 20 (dev data): the default SDPA backend (cuDNN attention on the H200 under torch 2.11) timed
    beside flash and efficient, and kernel profiles of the two diffusion models (step time 15-20% fast)."""
    from gt_jobs11 import df
    return [J("calibration-sdpa-backends", "calibration", 40, exclusive=True, timeout=200,
              cmd=["python3", "@HERE/gt_calib.py", "@OUT/calibration-sdpa-backends.json", "--budget", "150",
                   "--sdpa-backends"]),
            D("prof-sd15-unet-b8-bf16", df("sd15-unet", 8, iters=4, profile=True, family="unet"), mem=40),
            D("prof-dit-xl-2-b32-bf16", df("dit-xl-2", 32, iters=4, profile=True, family="dit"), mem=40)]
