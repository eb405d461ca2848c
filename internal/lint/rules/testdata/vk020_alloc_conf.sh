#!/usr/bin/env bash
export PYTORCH_CUDA_ALLOC_CONF=cuda_memory_pool:True  # want "VK020 .*Unrecognized key 'cuda_memory_pool'"
export PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True,max_split_size_mb:10"  # want "VK020 .*max_split_size_mb too small"
PYTORCH_CUDA_ALLOC_CONF='max_split_szie_mb:128' python train.py  # want "VK020 .*Unrecognized key 'max_split_szie_mb'"

export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True
PYTORCH_CUDA_ALLOC_CONF="$CONF" torchrun --nproc_per_node 8 train.py
echo "PYTORCH_CUDA_ALLOC_CONF is $PYTORCH_CUDA_ALLOC_CONF"
