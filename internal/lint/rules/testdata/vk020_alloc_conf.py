import os
import subprocess

import torch

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "cuda_memory_pool:True"  # want "VK020 PYTORCH_CUDA_ALLOC_CONF \"cuda_memory_pool:True\" is rejected .*Unrecognized key 'cuda_memory_pool' in CUDA allocator config."
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segment:True"  # want "VK020 .*Unrecognized key 'expandable_segment'"
os.environ.setdefault("PYTORCH_CUDA_ALLOC_CONF", "max_split_size_mb:16")  # want "VK020 .*max_split_size_mb too small, must be >= 20"
os.putenv("PYTORCH_ALLOC_CONF", "expandable_segments:true")  # want "VK020 PYTORCH_ALLOC_CONF .*Expected 'True' or 'False' at index 2"
env = {**os.environ, "PYTORCH_CUDA_ALLOC_CONF": "garbage_collection_threshold:1.5"}  # want "VK020 .*garbage_collect_threshold is invalid"
subprocess.run(["python", "train.py"], env=dict(os.environ, PYTORCH_CUDA_ALLOC_CONF="roundup_power2_divisions:3"))  # want "VK020 .*For roundups, the divisions has to be power of 2"
torch.cuda.memory._set_allocator_settings("backend:cudaMallocAsyn")  # want "VK020 allocator settings .*Unknown allocator backend"

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "max_split_size_mb:128,garbage_collection_threshold:0.6"
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "roundup_power2_divisions:[256:1,>:4]"
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = f"max_split_size_mb:{args.split}"
os.environ["PYTORCH_CUDA_ALLOC_CONF"] = ""
os.environ["OTHER"] = "cuda_memory_pool:True"
torch.cuda.memory._set_allocator_settings("expandable_segments:False")
