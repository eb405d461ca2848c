"""Session 49: does transformers 5.17 honour tie_word_embeddings false for T5 v1.1 / Flan-T5? dev100's harness built
T5Config(tie_word_embeddings=False, feed_forward_proj="gated-gelu") and the model's config said true, with the tied
parameter count. Prints, for three ways of making the config (keyword, from_dict of google/flan-t5-base's config.json
keys, and PretrainedConfig.from_dict), the config's tie flag, the model's parameter count and whether lm_head shares
the embedding's storage. Runs on the CPU (meta device), one line of JSON each."""
import json
import torch
import transformers as tf

HUB = {"architectures": ["T5ForConditionalGeneration"], "d_ff": 2048, "d_kv": 64, "d_model": 768,
       "decoder_start_token_id": 0, "dense_act_fn": "gelu_new", "dropout_rate": 0.1, "eos_token_id": 1,
       "feed_forward_proj": "gated-gelu", "initializer_factor": 1.0, "is_encoder_decoder": True,
       "is_gated_act": True, "layer_norm_epsilon": 1e-06, "model_type": "t5", "n_positions": 512,
       "num_decoder_layers": 12, "num_heads": 12, "num_layers": 12, "output_past": True, "pad_token_id": 0,
       "relative_attention_max_distance": 128, "relative_attention_num_buckets": 32,
       "tie_word_embeddings": False, "vocab_size": 32128}
ways = {
    "keyword": lambda: tf.T5Config(**{k: v for k, v in HUB.items() if k not in ("architectures", "model_type")}),
    "from_dict": lambda: tf.T5Config.from_dict(dict(HUB)),
    "auto_for_model": lambda: tf.AutoConfig.for_model(**dict(HUB)),
}
for name, make in ways.items():
    try:
        cfg = make()
        with torch.device("meta"):
            m = tf.T5ForConditionalGeneration(cfg)
        n = sum(p.numel() for p in m.parameters())
        shared = m.lm_head.weight is m.shared.weight
        print(json.dumps(dict(way=name, tie=getattr(cfg, "tie_word_embeddings", None), params=n, lm_head_shared=shared,
                              transformers=tf.__version__)))
    except Exception as e:  # noqa: BLE001
        print(json.dumps(dict(way=name, error=repr(e)[:300])))
