package main

import "github.com/vramkit/vramkit/internal/memmodel"

// The capture sets the tables are built from: training memory (sets),
// step time (timingFiles) and generate (genSets), each with how far it was
// held out from the model when it was captured. A new blind set is
// registered here once it has been evaluated (its RESULTS.md written).

// sets are the capture sets the memory table is built from, and how far
// each was held out from the model when it was captured.
//
// late8, late9 and late9q (session 6's blind sets) derive the allowance as
// every blind set does: with them the rule picks what it picks without
// them (18 MiB + 0.75% on the models of session 7), so adding them moved
// no prediction. (On session 6's models it would have moved 28 MiB + 1.25%
// to 36 MiB + 1.50%.)
var sets = []memmodel.BandSource{
	{Dir: "testdata/unseen", HeldOut: "captured after the model was written; used to adjust it since"},
	{Dir: "testdata/blind", HeldOut: "captured after the model was adjusted on unseen; used to adjust it since"},
	{Dir: "testdata/captures/optim", HeldOut: "captured 2026-12-01; development set (models tuned on it)"},
	{Dir: "testdata/captures/families", HeldOut: "captured 2026-12-01; development set of the families work"},
	{Dir: "testdata/captures/sharded1", HeldOut: "captured 2026-12-01; development set of the sharding work"},
	{Dir: "testdata/captures/oom", HeldOut: "captured 2026-12-01 (ViT script, the rows that ran)"},
	{Dir: "testdata/captures/compile", HeldOut: "captured 2026-12-01 (eager rows)"},
	{Dir: "testdata/heldout/optim", HeldOut: "held out of model building; evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/heldout/families", HeldOut: "held out of model building; evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/heldout/sharded1", HeldOut: "held out of model building; evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/heldout/oom", HeldOut: "held out of model building; evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/heldout/compile", HeldOut: "held out of model building; evaluated once (eager row), then band data", AllowanceRows: true},
	{Dir: "testdata/late/families", HeldOut: "late blind set: captured after the models were final, evaluated once", AllowanceRows: true},
	{Dir: "testdata/late/oom", HeldOut: "late blind set: captured after the models were final, evaluated once", AllowanceRows: true},
	{Dir: "testdata/late2/families", HeldOut: "second blind set: evaluated once (session 3), then band data", AllowanceRows: true},
	{Dir: "testdata/late2/oom", HeldOut: "second blind set: evaluated once (session 3), then band data", AllowanceRows: true},
	{Dir: "testdata/late3/families", HeldOut: "third blind set: evaluated once (session 3), then band data", AllowanceRows: true},
	{Dir: "testdata/late3/oom", HeldOut: "third blind set: evaluated once (session 3), then band data", AllowanceRows: true},
	{Dir: "testdata/late4/families", HeldOut: "fourth blind set: evaluated once at first sight (session 4; three misses fixed since), then band data", AllowanceRows: true},
	{Dir: "testdata/late4/oom", HeldOut: "fourth blind set: evaluated once at first sight (session 4), then band data", AllowanceRows: true},
	{Dir: "testdata/late5/families", HeldOut: "fifth blind set: evaluated once (session 4), then band data", AllowanceRows: true},
	{Dir: "testdata/late5/oom", HeldOut: "fifth blind set: evaluated once (session 4), then band data", AllowanceRows: true},
	{Dir: "testdata/late6/families", HeldOut: "sixth blind set: evaluated at first sight and with session 5's final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late7/families", HeldOut: "seventh blind set: evaluated once with session 5's final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late8/families", HeldOut: "eighth blind set: evaluated at first sight and with session 6's final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late9/families", HeldOut: "ninth blind set: evaluated once with session 6's final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late9q/families", HeldOut: "blind QLoRA and AdamW8bit rows: evaluated once with session 6's final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late10/families", HeldOut: "tenth blind set: evaluated with session 7's start and final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late10q/families", HeldOut: "blind QLoRA and AdamW8bit rows: evaluated with session 7's start and final models, then band data", AllowanceRows: true},
	// late11, late11q, late12, late12q, late13 .. late19 are band rows but do
	// not derive the allowance: with them the rule picks 12 MiB + 0.50%
	// instead of 22 MiB + 0.50% (session 10's models; with late11 alone
	// it picked 18 MiB on session 9's), which would lower every training
	// prediction by 10 MiB and move check.py's plan figures; bands do not
	// move predictions, so that change is left to the model's owners
	{Dir: "testdata/late11/families", HeldOut: "eleventh blind set: evaluated with session 8's start and final models, then band data"},
	{Dir: "testdata/late11q/families", HeldOut: "blind QLoRA and AdamW8bit rows: evaluated with session 8's start and final models, then band data"},
	{Dir: "testdata/late12/families", HeldOut: "twelfth blind set: evaluated with session 9's start and final models, then band data"},
	{Dir: "testdata/late12q/families", HeldOut: "blind QLoRA and AdamW8bit rows: evaluated with session 9's start and final models, then band data"},
	{Dir: "testdata/pick3", HeldOut: "plan --fit's candidates of session 9 (ViT-L, Qwen2.5-1.5B, ResNet-101), captured for step time; memory never evaluated blind"},
	{Dir: "testdata/late13/families", HeldOut: "thirteenth blind set: evaluated with session 10's start and final models, then band data"},
	{Dir: "testdata/pick4", HeldOut: "plan --fit's candidates of session 10 (EfficientNet-B3, Qwen3-0.6B, ResNet-152), captured for step time; memory never evaluated blind"},
	{Dir: "testdata/late14/families", HeldOut: "fourteenth blind set: evaluated with session 11's start and final models, then band data"},
	{Dir: "testdata/pick5", HeldOut: "plan --fit's candidates of session 11 (OLMo 2 1B, T5-base, ConvNeXt-S), captured for step time; memory never evaluated blind"},
	{Dir: "testdata/late15/families", HeldOut: "fifteenth blind set: evaluated with session 12's start and first-round final models, then band data"},
	{Dir: "testdata/late16/families", HeldOut: "sixteenth blind set: evaluated with session 13's start models (its final ones, for memory), then band data"},
	{Dir: "testdata/pick6", HeldOut: "plan --fit's candidates of session 13 (Llama 3.2 3B, ViT-L/16, DiT-XL/2), captured for step time; memory never evaluated blind"},
	{Dir: "testdata/late17/families", HeldOut: "seventeenth blind set: evaluated with session 14's start models (its final ones, for memory), then band data"},
	{Dir: "testdata/late19/families", HeldOut: "nineteenth blind set: evaluated with session 15's start models, then band data"},
	{Dir: "testdata/late20/families", HeldOut: "twentieth blind set (ViT rows): evaluated once with session 15's ViT patch-conv workspaces, then band data"},
	{Dir: "testdata/late22/families", HeldOut: "twenty-second blind set: evaluated with session 16's start models, then band data"},
	{Dir: "testdata/late26/families", HeldOut: "twenty-sixth blind set (kinds without a blind row): evaluated with session 17's start models, then band data"},
	{Dir: "testdata/late26/sharded", HeldOut: "twenty-sixth blind set (world-size-1 FSDP2, ZeRO-1, TP, DDP on new decoders): evaluated with session 17's start models, then band data"},
	{Dir: "testdata/late30/families", HeldOut: "thirtieth blind set (kinds with rows but no blind row, new sizes of known families): evaluated with its capture commit's models (de48888), then band data"},
	{Dir: "testdata/late30/sharded", HeldOut: "thirtieth blind set (world-size-1 FSDP2, TP and DDP with checkpointing on Llama 3.2 1B and TinyLlama): evaluated with its capture commit's models (de48888), then band data"},
	{Dir: "testdata/late30b/sharded", HeldOut: "late30's two GPT-2 world-size-1 rows (DDP, FSDP2) captured again: evaluated with its capture commit's models (cb42e40), then band data"},
	{Dir: "testdata/late31/sharded", HeldOut: "thirty-first blind set (world-size-1 TP on new decoders, DDP checkpointed): evaluated with its capture commit's models (ae14292), then band data"},
	{Dir: "testdata/late33/families", HeldOut: "thirty-third blind set (eager channels-last CNNs): evaluated with the models it was captured to test (9efb315), then band data"},
	{Dir: "testdata/late34/families", HeldOut: "thirty-fourth blind set (channels-last CNNs): evaluated with the models it was captured to test (6934c31), then band data"},
	{Dir: "testdata/late35/families", HeldOut: "thirty-fifth blind set (channels-last CNNs, float32 among them): evaluated with the models it was captured to test (0840771), then band data"},
	{Dir: "testdata/late36/families", HeldOut: "thirty-sixth blind set (the capture script's models): evaluated with the models it was captured to test (5842a75), then band data"},
	{Dir: "testdata/late37/families", HeldOut: "thirty-seventh blind set (BERT variants, channels-last CNNs): evaluated with the models it was captured to test (882b1b7), then band data"},
	{Dir: "testdata/late92/families", HeldOut: "ninety-second blind set (encoder-decoders under LoRA, most checkpointed: T5-large, Flan-T5 fp16, Whisper medium and base, BART-large, Marian, mBART-50, Pegasus; T5-small float32; distill-Pegasus): evaluated once at 9f1ac3d, then band data"},
	{Dir: "testdata/late89/families", HeldOut: "eighty-ninth blind set (CLIP B/32 float32 LoRA, Wav2Vec2 large float32, ELECTRA base fp16, Marian float32 checkpointed, small mBART LoRA): evaluated once at 7802d5d, then band data"},
	{Dir: "testdata/late88/families", HeldOut: "eighty-eighth blind set (MarianMT: wide fp16 checkpointed, opus-mt-en-de LoRA; mBART: small bf16, large-50 checkpointed): evaluated once after fam-mbart's merge (36253d6), then band data"},
	{Dir: "testdata/late87/families", HeldOut: "eighty-seventh blind set (ELECTRA: small QA float32, large checkpointed, at e09d7f0; CLIP: L/14 bf16, B/16 fp16 checkpointed, L/14 LoRA checkpointed, at d35021a; Wav2Vec2: large CTC checkpointed, base classification, base CTC fp16, at 0dba189): evaluated once, then band data"},
	{Dir: "testdata/late84/families", HeldOut: "eighty-fourth blind set (ModernBERT: large bf16, base token classification fp16 checkpointed, base masked LM float32, large LoRA, evaluated once at 3f10dc3; DeBERTa-v3: large bf16, base token classification fp16 checkpointed, base QA LoRA, at bf5eb64; Swin: base bf16, small fp16 checkpointed, tiny float32 LoRA, at 91310f8), then band data"},
	{Dir: "testdata/late83/families", HeldOut: "eighty-third blind set (GPT-J: small fp16 checkpointed, wide bf16, 6B LoRA): evaluated once with the models of ee0825c, then band data"},
	{Dir: "testdata/late82/families", HeldOut: "eighty-second blind set (DINOv2 L bf16, S fp16, B checkpointed; two rows' measured peaks seen before the model was final, see its RESULTS.md): evaluated once with the models of c197ba3, then band data"},
	{Dir: "testdata/late81/families", HeldOut: "eighty-first blind set (Falcon: 7b LoRA, a small one fp16 checkpointed, a wide one bf16): evaluated once with the models of dfb94da, then band data"},
	{Dir: "testdata/late80/families", HeldOut: "eightieth blind set (BLOOM 560m fp16, 1b1 checkpointed, 1b7 LoRA; transformers' ConvNeXt-B bf16, ConvNeXt-T fp16): evaluated once with the models of 0499245, then band data"},
	{Dir: "testdata/late79/families", HeldOut: "seventy-ninth blind set (transformers' ViT: L/16 bf16, B/16 fp16 checkpointed, B/16 LoRA; BART: large s1024, base fp16 checkpointed, large LoRA): evaluated once with the models of eb0fb6e, then band data"},
	{Dir: "testdata/late78/families", HeldOut: "seventy-eighth blind set (OPT 2.7b checkpointed, 6.7b LoRA, 350m float32, 125m fp16 checkpointed; DistilBERT multilingual, token classification float32, fp16 checkpointed, LoRA): evaluated once with the models of 9140a1d, then band data"},
	{Dir: "testdata/late77/families", HeldOut: "seventy-seventh blind set (BERT-family token-classification and question-answering heads: RoBERTa-large, BERT-large float32 checkpointed, XLM-R base float32): evaluated once with the models of 0ac2575, then band data"},
	{Dir: "testdata/late76/families", HeldOut: "seventy-sixth blind set (StarCoder2: 3b checkpointed, 7b LoRA, a small one at its 4096 window, 3b LoRA checkpointed past it): evaluated once with the models of 32ee144, then band data"},
	{Dir: "testdata/late75/families", HeldOut: "seventy-fifth blind set (GPT-NeoX and Phi: Pythia-1b checkpointed, Pythia-160m float32, Pythia-2.8b LoRA, phi-1.5 checkpointed, phi-2 AMP): evaluated once with the models of 7bc1ffd, then band data"},
	{Dir: "testdata/late74/families", HeldOut: "seventy-fourth blind set (decoders' sequence-classification heads: TinyLlama, Llama-3.2-1B, Qwen3-0.6B checkpointed): evaluated once with the models of 3e1c04c, then band data"},
	{Dir: "testdata/late73/families", HeldOut: "seventy-third blind set (masked-LM heads: XLM-R base and large, BERT-large checkpointed, RoBERTa float32): evaluated once with the models of c62c726, then band data"},
	{Dir: "testdata/late72/families", HeldOut: "seventy-second blind set (XLM-RoBERTa: AMP, float32 checkpointed, LoRA on large): evaluated once with the models of 2486a8b, then band data"},
	{Dir: "testdata/late38/families", HeldOut: "thirty-eighth blind set (channels-last CNNs, AMP BERTs): evaluated with the models it was captured to test (874aa6a), then band data"},
	{Dir: "testdata/late39/families", HeldOut: "thirty-ninth blind set (float32 transformers): evaluated with the models it was captured to test (ba72579), then band data"},
	{Dir: "testdata/late40/families", HeldOut: "fortieth blind set (ViTs, Whisper small): evaluated with the models it was captured to test (a0afabb), then band data"},
	{Dir: "testdata/late41/families", HeldOut: "forty-first blind set (float32 ViTs, Whisper, the capture script's models): evaluated with the models it was captured to test (b2a0eb0), then band data"},
	{Dir: "testdata/late42/families", HeldOut: "forty-second blind set (decoders after the autograd-order changes, T5 checkpointed): evaluated with the models it was captured to test (105d802), then band data"},
	{Dir: "testdata/late43/families", HeldOut: "forty-third blind set (selective checkpointing as the attention call, Phi-3, float32 math-path attention, T5 checkpointed): evaluated with the models it was captured to test (9cc4fda), then band data"},
	{Dir: "testdata/late44/sharded", HeldOut: "forty-fourth blind set (two GPUs: DDP, FSDP2, TP, ZeRO-1 on GPT-2 medium and TinyLlama, every rank): evaluated with the models it was captured to test (e458df8), then band data"},
	{Dir: "testdata/late42/sharded", HeldOut: "forty-second blind set (world-size-1 FSDP2 on Qwen3-0.6B, DDP checkpointed on TinyLlama): evaluated with the models it was captured to test (105d802), then band data"},
	{Dir: "testdata/late46/families", HeldOut: "forty-sixth blind set (families at sizes no set captured): evaluated with the models it was captured to test (6486b50), then band data"},
	{Dir: "testdata/late47/families", HeldOut: "forty-seventh blind set (the capture script's models at new shapes): evaluated with the models it was captured to test (bdc7106), then band data"},
	{Dir: "testdata/late48/families", HeldOut: "forty-eighth blind set (the capture script's models at new technique pairs): evaluated with the models of its session (d6ef284), then band data"},
	{Dir: "testdata/late49/families", HeldOut: "forty-ninth blind set (T5, BERT-large, RoBERTa-large and GPT-2 on the session-25 attention changes): evaluated with the models it was captured to test (fb0fa94), then band data"},
	{Dir: "testdata/late50/families", HeldOut: "fiftieth blind set (NCHW half-precision ResNets at batches no set ran): evaluated with the models of dev54's workspace rules (2a12793), then band data"},
	{Dir: "testdata/late45/sharded", HeldOut: "forty-fifth blind set (two GPUs: FSDP2, DDP, ZeRO-1, TP on GPT-2 large, Qwen2.5-0.5B and the small Llama, every rank; listed in session 23, captured in session 26): evaluated with the models of 6971daa, then band data"},
	{Dir: "testdata/late51/sharded", HeldOut: "fifty-first blind set (two GPUs: the first pipeline-parallel runs, 1F1B and GPipe, every stage): evaluated with the models of a9fa7be, then band data"},
	{Dir: "testdata/pick10/families", HeldOut: "plan --fit's first picks under a memory budget (pick10): evaluated with the models that ranked them (5b57fe3), then band data"},
	{Dir: "testdata/late56/families", HeldOut: "fifty-sixth blind set (fourteen families and techniques at sizes no set captured): evaluated with the models of 66b1cb8, then band data"},
	{Dir: "testdata/late52/families", HeldOut: "fifty-second blind set (NCHW half-precision ResNets at batches and models the workspace rules were not read off): evaluated with the models of da1bdfa, then band data"},
	{Dir: "testdata/late46/sharded", HeldOut: "forty-sixth blind set (world-size-1 DDP across the watchdog release rule): evaluated with the models it was captured to test (6486b50), then band data"},
}

// timingFiles are the step-time sets (bench/measured.ReadTimed layouts).
var timingFiles = []memmodel.BandSource{
	{Dir: "testdata/unseen/timing.jsonl", HeldOut: "timed after the step-time model was written"},
	{Dir: "testdata/blind/timing.jsonl", HeldOut: "timed after the step-time model was adjusted on unseen"},
	{Dir: "testdata/captures/timing/timing.jsonl", HeldOut: "captured 2026-12-01; development set of the step-time work"},
	{Dir: "testdata/captures/compile/timing.jsonl", HeldOut: "captured 2026-12-01 (eager rows)"},
	{Dir: "testdata/heldout/timing/timing.jsonl", HeldOut: "held out of the step-time model; evaluated once, then band data"},
	{Dir: "testdata/late/pick/results.jsonl", HeldOut: "late blind set: --fit candidates timed alone, evaluated once"},
	{Dir: "testdata/late6/timing/results.jsonl", HeldOut: "sixth blind set: timed alone, evaluated once, then band data"},
	{Dir: "testdata/late7/timing/results.jsonl", HeldOut: "seventh blind set: timed alone, evaluated once, then band data"},
	{Dir: "testdata/late8/timing/results.jsonl", HeldOut: "eighth blind set: timed alone, evaluated at first sight and with session 6's final models, then band data"},
	{Dir: "testdata/late9/timing/results.jsonl", HeldOut: "ninth blind set: timed alone, evaluated once, then band data"},
	{Dir: "testdata/late10/timing/results.jsonl", HeldOut: "tenth blind set: timed alone, evaluated with session 7's start and final models, then band data"},
	{Dir: "testdata/late11/timing/results.jsonl", HeldOut: "eleventh blind set: timed alone, evaluated with session 8's start and final models, then band data"},
	{Dir: "testdata/late12/timing/results.jsonl", HeldOut: "twelfth blind set: timed alone, evaluated with session 9's start and final models, then band data"},
	{Dir: "testdata/pick3/results.jsonl", HeldOut: "plan --fit's candidates timed alone after session 9's step-time model was final, evaluated once, then band data"},
	{Dir: "testdata/late13/timing/results.jsonl", HeldOut: "thirteenth blind set: timed alone, evaluated with session 10's start and final models, then band data"},
	{Dir: "testdata/pick4/results.jsonl", HeldOut: "plan --fit's candidates timed alone after session 10's step-time model was final, evaluated once, then band data"},
	{Dir: "testdata/late14/timing/results.jsonl", HeldOut: "fourteenth blind set: timed alone, evaluated with session 11's start and final models, then band data"},
	{Dir: "testdata/pick5/results.jsonl", HeldOut: "plan --fit's candidates timed alone after session 11's step-time model was final, evaluated once, then band data"},
	{Dir: "testdata/late15/timing/results.jsonl", HeldOut: "fifteenth blind set: timed alone, evaluated with session 12's start and first-round final models, then band data"},
	{Dir: "testdata/late16/timing/results.jsonl", HeldOut: "sixteenth blind set: timed alone, evaluated with session 13's start models, then band data"},
	{Dir: "testdata/pick6/results.jsonl", HeldOut: "plan --fit's candidates timed alone with session 12's final step-time model, evaluated once, then band data"},
	{Dir: "testdata/late17/timing/results.jsonl", HeldOut: "seventeenth blind set: timed alone, evaluated with session 14's start models, then band data"},
	{Dir: "testdata/late18/timing/results.jsonl", HeldOut: "eighteenth blind set (MoE steps): timed alone after session 14's MoE pricing, evaluated once with it, then band data"},
	{Dir: "testdata/pick7/results.jsonl", HeldOut: "plan --fit's candidates timed alone with session 14's step-time model, evaluated once, then band data"},
	{Dir: "testdata/late19/timing/results.jsonl", HeldOut: "nineteenth blind set: timed alone, evaluated with session 15's start models, then band data"},
	{Dir: "testdata/pick8/results.jsonl", HeldOut: "plan --fit's bf16-base LoRA candidates timed alone with session 15's start models, evaluated once, then band data"},
	{Dir: "testdata/late22/timing/results.jsonl", HeldOut: "twenty-second blind set: timed alone, evaluated with session 16's start models, then band data"},
	{Dir: "testdata/late26/timing/results.jsonl", HeldOut: "twenty-sixth blind set: timed alone, evaluated with session 17's start models, then band data"},
	{Dir: "testdata/late28/timing/results.jsonl", HeldOut: "twenty-eighth blind set (compiled ResNet-34/18; its compiled steps are not band rows): timed alone, evaluated with the models it was captured to test (b0ef7d0), then band data"},
	{Dir: "testdata/late27/timing/results.jsonl", HeldOut: "twenty-seventh blind set (host-bound checkpointed CNNs; its compiled steps are not band rows): timed alone, evaluated with the models it was captured to test (c4b991c), then band data"},
	{Dir: "testdata/late29/timing/results.jsonl", HeldOut: "twenty-ninth blind set (small-batch CNNs): timed alone, evaluated with the models it was captured to test (58c85e4), then band data"},
	{Dir: "testdata/late30/timing/results.jsonl", HeldOut: "thirtieth blind set (technique pairs on GPU-bound models): timed alone, evaluated with its capture commit's models (de48888), then band data"},
	{Dir: "testdata/late31/timing/results.jsonl", HeldOut: "thirty-first blind set (GPU-bound CNNs in fp16 and bf16): timed alone, evaluated with its capture commit's models (ae14292), then band data"},
	{Dir: "testdata/late33/timing/results.jsonl", HeldOut: "thirty-third blind set (NCHW and channels-last CNN twins): timed alone, evaluated with the models it was captured to test (9efb315), then band data"},
	{Dir: "testdata/late34/timing/results.jsonl", HeldOut: "thirty-fourth blind set (channels-last CNNs and NCHW twins): timed alone, evaluated with the models it was captured to test (6934c31), then band data"},
	{Dir: "testdata/late35/timing/results.jsonl", HeldOut: "thirty-fifth blind set (channels-last CNNs, float32 among them): timed alone, evaluated with the models it was captured to test (0840771), then band data"},
	{Dir: "testdata/late36/timing/results.jsonl", HeldOut: "thirty-sixth blind set (the capture script's models): timed alone, evaluated with the models it was captured to test (5842a75), then band data"},
	{Dir: "testdata/late37/timing/results.jsonl", HeldOut: "thirty-seventh blind set (BERT variants, channels-last CNNs): timed alone, evaluated with the models it was captured to test (882b1b7), then band data"},
	{Dir: "testdata/late39/timing/results.jsonl", HeldOut: "thirty-ninth blind set (float32 transformers): timed alone, evaluated with the models it was captured to test (ba72579), then band data"},
	{Dir: "testdata/late40/timing/results.jsonl", HeldOut: "fortieth blind set (ViTs): timed alone, evaluated with the models it was captured to test (a0afabb), then band data"},
	{Dir: "testdata/late43/timing/results.jsonl", HeldOut: "forty-third blind set (selective checkpointing pairs): timed alone, evaluated with the models it was captured to test (9cc4fda), then band data"},
	{Dir: "testdata/late42/timing/results.jsonl", HeldOut: "forty-second blind set (decoder and T5 technique pairs): timed alone, evaluated with the models it was captured to test (105d802), then band data"},
	{Dir: "testdata/late46/timing/results.jsonl", HeldOut: "forty-sixth set (technique pairs on GPT-2 large, Llama 3.2 1B, ViT-L/16, ConvNeXt-S; five of eight repeat earlier timed configurations): timed alone, evaluated with the models it was captured to test (6486b50), then band data"},
	{Dir: "testdata/late47/timing/results.jsonl", HeldOut: "forty-seventh blind set (pairs of the capture script's models): timed alone, evaluated with the models it was captured to test (bdc7106), then band data"},
	{Dir: "testdata/late48/timing/results.jsonl", HeldOut: "forty-eighth blind set (technique pairs of the capture script's models): timed alone, evaluated with the models of its session (d6ef284), then band data"},
	{Dir: "testdata/late49/timing/results.jsonl", HeldOut: "forty-ninth blind set (T5, BERT-large and GPT-2 pairs): timed alone, evaluated with the models it was captured to test (fb0fa94), then band data"},
	{Dir: "testdata/late53/timing/results.jsonl", HeldOut: "fifty-third blind set (GELU- and bias-heavy ViT, ConvNeXt, BERT, Whisper and GPT-2 steps): timed alone, evaluated with the models it was captured to test (63a8a65), then band data"},
	{Dir: "testdata/late54/timing/results.jsonl", HeldOut: "fifty-fourth blind set (ConvNeXt, ViT and two controls): timed alone, evaluated with the models it was captured to test (e632319), then band data"},
	{Dir: "testdata/late55/timing/results.jsonl", HeldOut: "fifty-fifth blind set (ResNet-18/34 and BERT-family encoders): timed alone, evaluated once with the models of e632319, then band data"},
	{Dir: "testdata/pick10/results.jsonl", HeldOut: "plan --fit's top three under a memory budget timed alone with the models that ranked them (5b57fe3), evaluated once, then band data"},
	{Dir: "testdata/pick9/results.jsonl", HeldOut: "plan --fit's channels-last candidates timed alone with the models that ranked them (05cccd2), evaluated once, then band data"},
	{Dir: "testdata/late32/timing/results.jsonl", HeldOut: "thirty-second blind set (compiled steps against eager; its compiled steps are not band rows): timed alone, evaluated with the models it was captured to test (0592c44), then band data"},
	{Dir: "testdata/late59/timing/results.jsonl", HeldOut: "fifty-ninth blind set (compiled CNN steps against eager; its compiled steps are not band rows): timed alone, evaluated once with the models of 8de0941, then band data"},
	{Dir: "testdata/late61/timing/results.jsonl", HeldOut: "sixty-first blind set (the first steps timed on an H100, each re-running an H200-timed workload; its compiled steps are not band rows): timed alone, evaluated once with the models of 66a49a1, then band data"},
	{Dir: "testdata/late62/timing/results.jsonl", HeldOut: "sixty-second blind set (compiled CNN steps against eager, one compiled model per process; its compiled steps are not band rows): timed alone, evaluated once with the models of e9fd692, then band data"},
	{Dir: "testdata/late60/timing/results.jsonl", HeldOut: "sixtieth blind set (compiled CNN steps against eager on an H100; its compiled steps are not band rows): timed alone, evaluated once with the models of da1ab13, then band data"},
	// late63's H100 part is step-time evaluation only (bench/steptime,
	// TestStepTimeLate63H100), not band data: its three eager rows with
	// late60's six make gpu=h100 a class of two capture sets when late61 is
	// left out, whose nine host-bound CNN rows then set the centre that
	// late61's 89 mostly GPU-bound H100 rows are scored against; the
	// GPU-bound level's first-sight coverage fell from 362 to 332 of 378
	// (96% to 88%) and the shared low quantile from -1.95 to -4.08. Requiring
	// three sets per class instead kept the quantile but not the coverage
	// (329 of 378). It joins when an H100 set of GPU-bound rows does.
	// late64 to late67 (H100, twelve to fifteen host-bound rows each) are
	// likewise evaluation only (TestStepTimeLate64 to 67), for the same
	// reason, and late68 (H100, seventeen rows, GPU-bound to balanced, on a
	// fast host; TestStepTimeLate68), and late69 (H100, seventeen rows of
	// the newer decoder families and encoder pairs; TestStepTimeLate69),
	// and late92 (H100, six host-bound T5/BART LoRA rows; as band data they
	// made gpu=h100 a measured class and its first-sight coverage fell
	// from 95 of 95 rows to 74 of 101), and late99 (H100, six host-bound
	// eager/compiled CNN rows on a fast host; bench/steptime), and late100
	// (H100, thirty host-bound to GPU-bound rows of five models, the
	// blind test of --host-scale; TestLate100HostScaleBlind), and late101
	// to late103 (H100, host-bound technique pairs alternated step by step
	// in one process; TestLate101AlternatedBlind, TestLate102RefitBlind,
	// TestLate103Blind), and late104 and late105 (H100, a fast and a slow
	// host: blind compiled/eager CNN pairs alternated in one process;
	// TestLate104Blind, TestLate105Blind), and late106 (H200, the same
	// kind of pairs, five ResNets and an EfficientNet; TestLate106Blind),
	// and late107 (two H100 hosts, a slow one and the fastest probed:
	// checkpointing pairs of six models; TestLate107Blind).
	{Dir: "testdata/late63/h200/results.jsonl", HeldOut: "sixty-third blind set, H200 part (the same kind of pairs on a slow lent host; its compiled steps are not band rows): timed alone, evaluated once with the models of 4ecda6f, then band data"},
	// late60 became step band data in session 35, once step-time classes
	// held by one capture set stopped setting a class centre
	// (dropOneSetClasses): before, with late61 left out its six eager rows
	// formed gpu=h100 alone and moved the shared GPU-bound quantile from
	// -1.99 to -4.16; now the quantiles stay -1.95..+3.02.
	{Dir: "testdata/dev13/timing/results.jsonl", HeldOut: "session 11's development set (not held out): host-bound rows timed in three processes on one host, the spread between processes"},
	{Dir: "testdata/dev19/results.jsonl", HeldOut: "session 13's development set (not held out): the five worst host-bound checkpointing pairs in three processes on one host, the spread between processes and hosts"},
}

// genSets are the generate sets of the inference planner.
var genSets = []memmodel.BandSource{
	{Dir: "testdata/captures/generate", HeldOut: "development set of the inference planner"},
	{Dir: "testdata/heldout/generate", HeldOut: "held out of the inference planner; evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/late/generate", HeldOut: "late blind set: captured after the planner was final, evaluated once", AllowanceRows: true},
	{Dir: "testdata/late2/generate", HeldOut: "second blind set: evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/late3/generate", HeldOut: "third blind set: evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/late4/generate", HeldOut: "fourth blind set: evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/late5/generate", HeldOut: "fifth blind set: evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/late6/generate", HeldOut: "sixth blind set: evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/late8/generate", HeldOut: "eighth blind set: evaluated at first sight and once more, then band data", AllowanceRows: true},
	{Dir: "testdata/late9/generate", HeldOut: "ninth blind set: evaluated once, then band data", AllowanceRows: true},
	{Dir: "testdata/late10/generate", HeldOut: "tenth blind set: evaluated with session 7's start and final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late11/generate", HeldOut: "eleventh blind set: evaluated with session 8's start and final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late12/generate", HeldOut: "twelfth blind set: evaluated with session 9's start and final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late13/generate", HeldOut: "thirteenth blind set: evaluated with session 10's start and final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late14/generate", HeldOut: "fourteenth blind set: evaluated with session 11's start and final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late15/generate", HeldOut: "fifteenth blind set: evaluated with session 12's start and first-round final models, then band data", AllowanceRows: true},
	{Dir: "testdata/late16/generate", HeldOut: "sixteenth blind set: evaluated with session 13's start models, then band data", AllowanceRows: true},
	{Dir: "testdata/late17/generate", HeldOut: "seventeenth blind set: evaluated with session 14's start models, then band data", AllowanceRows: true},
	// late19's points are band rows but do not derive the allowance: with
	// them the rule picks 0 B + 0.25% instead of 2 MiB, which would raise
	// every generate prediction by about 0.2% (its five points are within
	// 0.21% without); bands do not move predictions, as for training's
	// late11 .. late19
	{Dir: "testdata/late19/generate", HeldOut: "nineteenth blind set: evaluated with session 15's start models, then band data"},
	{Dir: "testdata/late21/generate", HeldOut: "twenty-first blind set (Phi-3 DynamicCache): evaluated once with session 15's final models, then band data"},
	{Dir: "testdata/late22/generate", HeldOut: "twenty-second blind set: evaluated with session 16's start models, then band data"},
	{Dir: "testdata/late26/generate", HeldOut: "twenty-sixth blind set: evaluated with session 17's start models, then band data"},
	{Dir: "testdata/late30/generate", HeldOut: "thirtieth blind set: evaluated with its capture commit's models (de48888), then band data"},
	{Dir: "testdata/late42/generate", HeldOut: "forty-second blind set: evaluated with the models of its registering commit (105d802), then band data"},
	{Dir: "testdata/late46/generate", HeldOut: "forty-sixth blind set: evaluated with the models of its registering commit (6486b50), then band data"},
	{Dir: "testdata/late57/generate", HeldOut: "fifty-seventh blind set (long generate calls, 880-3000 new tokens): evaluated with the models of 0d29e6d, then band data"},
	// late70 is the first blind generate set of OLMo, OLMo 2 and Granite
	// (their development set, dev71, stays out: in-sample, as dev72)
	{Dir: "testdata/late70/generate", HeldOut: "seventieth blind set (OLMo-2-7B- and Granite-8B-like, OLMo 1B): evaluated once with session 41's final replay, then band data"},
	// late71 is the first blind generate set of the Gemma family. Its
	// development sets (dev72, dev73) stay out: the replay was fitted to
	// them, so their in-sample errors (within the allowance at 14 of 17)
	// narrowed the shared band until the earlier sets' first-sight
	// errors fell below 90% inside
	{Dir: "testdata/late71/generate", HeldOut: "seventy-first blind set (Gemma 3 1B static b24, Gemma-2-9B- and Gemma-3-4B-like): evaluated once with eda280a's replay, then band data"},
	{Dir: "testdata/late72/generate", HeldOut: "seventy-second blind set (Gemma 2 2B and Gemma 3 1B StaticCache past their windows, Gemma 2 2B DynamicCache): evaluated once with 2486a8b's replay, then band data"},
	{Dir: "testdata/late75/generate", HeldOut: "seventy-fifth blind set (Pythia-1b DynamicCache, phi-2 StaticCache, Pythia-410m float32): evaluated once with 7bc1ffd's replay, then band data"},
	{Dir: "testdata/late81/generate", HeldOut: "eighty-first blind set (falcon-7b StaticCache no_grad): evaluated once with dfb94da's replay, then band data"},
	{Dir: "testdata/late90/generate", HeldOut: "ninetieth blind set (timed encoder-decoder generate: Whisper small and large-v3, BART-large, T5-base, mBART-50, opus-mt): evaluated once at e5558e9, then band data"},
	{Dir: "testdata/late97/generate", HeldOut: "ninety-seventh blind set (min_p: TinyLlama b96 min_p 0.1, GPT-2 medium b64 min_p 0.05 beside top_k 50, Qwen2.5-1.5B b48 top_k 20 + top_p 0.95 + min_p 0.02): evaluated once at ef62a69, then band data"},
	{Dir: "testdata/late98/generate", HeldOut: "ninety-eighth blind set (GPU-bound decode: Pythia-410m 128 x p1024, Phi-3 mini 64 x p1024, GPT-2 medium 160 x p768, a multi-head Llama 1B 128 x p2048): evaluated once at 6bbbd12b, then band data"},
	{Dir: "testdata/late96/generate", HeldOut: "ninety-sixth blind set (timed greedy/sampled twins: Llama 3.2 1B, Qwen2.5-1.5B, GPT-2 medium at 192 rows, TinyLlama at 256, BART-large, Mistral 7B): evaluated once at f2e68ed, then band data"},
	{Dir: "testdata/late95/generate", HeldOut: "ninety-fifth blind set (decode-peaked sampling: Llama 3.2 1B at 256 rows, TinyLlama top_p long and StaticCache, Qwen2.5-1.5B with Qwen2.5 Instruct's warpers, GPT-2 medium float32 top_p with two sequences a prompt, BART-large top_p, Mistral 7B's default top_k, Llama 3.2 3B with Llama 3 Instruct's over 1024 tokens; output_scores and output_logits): evaluated once at 1154da7, then band data"},
	{Dir: "testdata/late94/generate", HeldOut: "ninety-fourth blind set (sampling: Qwen2.5 1.5B and 0.5B with Qwen2.5 Instruct's warpers, GPT-2 medium top_p with three sequences a prompt, T5-base, Llama 3.2 3B with Llama 3 Instruct's, TinyLlama top_k 40, Mistral 7B's default top_k): evaluated once at 221ea7e, then band data"},
	{Dir: "testdata/late93/generate", HeldOut: "ninety-third blind set (timed beam search: Pegasus at 8 beams, T5-base and Llama 3.2 1B at 4): evaluated once with the beam band of dev101, then band data"},
	{Dir: "testdata/late92/generate", HeldOut: "ninety-second blind set (Pegasus and distill-Pegasus greedy; beam search at 8 beams on Pegasus, 4 on T5-base and Llama 3.2 1B): evaluated once at 9f1ac3d, then band data"},
	{Dir: "testdata/late91/generate", HeldOut: "ninety-first blind set (timed generate with a breakdown: Whisper medium, large-v3-turbo and base fp32, BART-large and base, T5-large, Flan-T5 base fp32, Marian big, small mBART, Llama 3.2 1B): evaluated once at ea9fa33, then band data"},
	{Dir: "testdata/late88/generate", HeldOut: "eighty-eighth blind set (Marian wide float32 b16 p256 n128, mbart-large-50 bf16 b8 p512 n128): evaluated once with 0251131's replay, then band data"},
	{Dir: "testdata/late87/generate", HeldOut: "eighty-seventh blind set (Whisper medium bf16 b16 n128, large-v3 fp16 b8 n96, one 30 s window): evaluated once with a06b0d3's replay, then band data"},
	{Dir: "testdata/late86/generate", HeldOut: "eighty-sixth blind set (BART large bf16 b8 p1024 n128 at 7603317; T5-large b4 p768 n192 and flan-T5-base b16 p384 n96 at 58cf6b4): evaluated once, then band data"},
	{Dir: "testdata/late85/generate", HeldOut: "eighty-fifth blind set (GPT-J small StaticCache b4 p1536, wide DynamicCache no_grad b16 p768): evaluated once with c95dbfb's replay, then band data"},
	{Dir: "testdata/late84/generate", HeldOut: "eighty-fourth blind set (GPT-J small DynamicCache, wide StaticCache no_grad): evaluated once with 73e1ab1's replay, then band data"},
	{Dir: "testdata/late80/generate", HeldOut: "eightieth blind set (BLOOM 1b1 StaticCache no_grad): evaluated once with 0499245's replay, then band data"},
	{Dir: "testdata/late78/generate", HeldOut: "seventy-eighth blind set (OPT 2.7b StaticCache no_grad, 350m DynamicCache): evaluated once with 9140a1d's replay, then band data"},
	{Dir: "testdata/late76/generate", HeldOut: "seventy-sixth blind set (StarCoder2 3b StaticCache, 7b DynamicCache): evaluated once with 32ee144's replay, then band data"},
}
