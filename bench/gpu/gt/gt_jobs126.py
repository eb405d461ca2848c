"""Session 45, call 169: GPT-J (EleutherAI/gpt-j-6b's architecture; config.json model_type gptj was sent to gpt2):
attention and MLP in parallel off one LayerNorm, q/k/v/out_proj without biases, 64 rotary dimensions of 256-wide
heads rotated in interleaved pairs (rotate_every_two), GPT-J's own attention (fp32 q·kᵀ), an ungated gelu_new MLP
(fc_in, fc_out), an untied LM head with a bias. "gptj-small" is the same architecture at 1024 hidden, 8 layers,
4 heads.

dev91 (development data, NOT blind; snapshots) and late83 (BLIND memory rows, kept outside the repository until the
model is final, then evaluated once), one call: the device time left this session allowed one."""
from gt_jobs import T, maker


def gptj(n_embd, n_layer, n_head, rotary=64):
    return ("GPTJForCausalLM", "GPTJConfig", dict(
        vocab_size=50400, n_positions=2048, n_embd=n_embd, n_layer=n_layer, n_head=n_head, rotary_dim=rotary,
        activation_function="gelu_new", resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, tie_word_embeddings=False,
        bos_token_id=50256, eos_token_id=50256))


GPTJ_S = gptj(1024, 8, 4)
GPTJ_W = gptj(2048, 12, 8)
GPTJ_6B = gptj(4096, 28, 16)


def call169():
    D = maker("dev91-", "dev91", heldout=False)
    B = maker("late83-", "late83", heldout=True)
    return [
        D("gptj-small-s1024-b4-bf16", dict(T(*GPTJ_S, b=4, seq=1024), snap=True), 25),
        D("gptj-small-s512-b4-fp32", dict(T(*GPTJ_S, b=4, seq=512, prec="fp32"), snap=True), 20),
        D("gptj-small-s1024-b4-bf16-lora16", dict(T(*GPTJ_S, b=4, seq=1024, lora=16), snap=True), 20),
        D("gptj-small-s1024-b4-bf16-ckpt", dict(T(*GPTJ_S, b=4, seq=1024, ckpt="block"), snap=True), 20),
        B("gptj-small-s2048-b4-fp16-ckpt", T(*GPTJ_S, b=4, seq=2048, prec="fp16", ckpt="block"), 25),
        B("gptj-wide-s1024-b4-bf16", T(*GPTJ_W, b=4, seq=1024), 35),
        B("gptj-6b-s512-b2-bf16-lora16", T(*GPTJ_6B, b=2, seq=512, lora=16), 45),
    ]
