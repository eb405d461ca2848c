# Sequence classification fine-tune with the Hugging Face Trainer: datasets,
# tokenizer with dynamic padding, TrainingArguments, metrics, a manual
# inference pass at the end. Written for vramkit's tests.
import logging
import os
import sys
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import torch
from datasets import load_dataset
from transformers import (
    AutoConfig,
    AutoModelForSequenceClassification,
    AutoTokenizer,
    DataCollatorWithPadding,
    EvalPrediction,
    HfArgumentParser,
    Trainer,
    TrainingArguments,
    set_seed,
)

# Fragmentation from dynamic padding: let segments grow instead.
os.environ.setdefault("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")

log = logging.getLogger(__name__)


@dataclass
class ModelArgs:
    model_name_or_path: str = field(default="distilbert-base-uncased")
    cache_dir: Optional[str] = field(default=None)


@dataclass
class DataArgs:
    dataset_name: str = field(default="glue")
    dataset_config: str = field(default="sst2")
    max_seq_length: int = field(default=128)
    max_train_samples: Optional[int] = field(default=None)


def main():
    parser = HfArgumentParser((ModelArgs, DataArgs, TrainingArguments))
    if len(sys.argv) == 2 and sys.argv[1].endswith(".json"):
        model_args, data_args, training_args = parser.parse_json_file(json_file=os.path.abspath(sys.argv[1]))
    else:
        model_args, data_args, training_args = parser.parse_args_into_dataclasses()

    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=logging.INFO)
    log.info("training arguments %s", training_args)
    set_seed(training_args.seed)

    raw = load_dataset(data_args.dataset_name, data_args.dataset_config, cache_dir=model_args.cache_dir)
    labels = raw["train"].features["label"].names

    config = AutoConfig.from_pretrained(model_args.model_name_or_path, num_labels=len(labels))
    tokenizer = AutoTokenizer.from_pretrained(model_args.model_name_or_path, use_fast=True)
    model = AutoModelForSequenceClassification.from_pretrained(
        model_args.model_name_or_path,
        config=config,
        torch_dtype=torch.bfloat16 if training_args.bf16 else None,
    )

    def tokenize(batch):
        return tokenizer(batch["sentence"], truncation=True, max_length=data_args.max_seq_length)

    encoded = raw.map(tokenize, batched=True, desc="tokenizing")
    train_ds = encoded["train"]
    if data_args.max_train_samples is not None:
        train_ds = train_ds.select(range(min(len(train_ds), data_args.max_train_samples)))
    eval_ds = encoded["validation"]

    def compute_metrics(p: EvalPrediction):
        logits = p.predictions[0] if isinstance(p.predictions, tuple) else p.predictions
        preds = np.argmax(logits, axis=1)
        return {"accuracy": float((preds == p.label_ids).mean())}

    collator = DataCollatorWithPadding(tokenizer, pad_to_multiple_of=8 if training_args.fp16 else None)

    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=train_ds if training_args.do_train else None,
        eval_dataset=eval_ds if training_args.do_eval else None,
        processing_class=tokenizer,
        data_collator=collator,
        compute_metrics=compute_metrics,
    )

    if training_args.do_train:
        result = trainer.train(resume_from_checkpoint=training_args.resume_from_checkpoint)
        trainer.save_model()
        metrics = result.metrics
        metrics["train_samples"] = len(train_ds)
        trainer.log_metrics("train", metrics)
        trainer.save_metrics("train", metrics)
        trainer.save_state()

    if training_args.do_eval:
        metrics = trainer.evaluate()
        trainer.log_metrics("eval", metrics)
        trainer.save_metrics("eval", metrics)

    # A quick look at a few predictions.
    samples = ["a gorgeous, witty, seductive movie.", "the plot is nowhere near as clever as it thinks"]
    model.eval()
    batch = tokenizer(samples, padding=True, truncation=True, return_tensors="pt").to(model.device)
    with torch.inference_mode():
        logits = model(**batch).logits
    for text, row in zip(samples, logits.softmax(-1).tolist()):
        print(f"{labels[int(np.argmax(row))]:>8}  {max(row):.3f}  {text}")


if __name__ == "__main__":
    main()
