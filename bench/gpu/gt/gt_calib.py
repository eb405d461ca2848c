"""Achieved rates of the H200 for a step-time model: GEMM TFLOP/s over M,N,K, SDPA forward /
forward+backward, convolutions, pointwise/normalisation bandwidth, kernel launch floor and
optimizer step time per parameter. Run ALONE on the GPU (nothing else), no history.

usage: python3 gt_calib.py OUT.json [--budget SECONDS] [--conv16|--conv256|--conv-kernels|--sdpa-mask|--sdpa-compiled|--sdpa-wide|--norm|--unaligned|--sdpa-backends|--broadcast|--reduce-act]
--unaligned times GEMMs whose vocabulary dimension is not a multiple of 8, in its three roles, beside
the same shapes padded to a multiple of 64 (session 5).
--conv16 times only the launch floor and the fp16/bf16 convolutions of CONV16 (round 3).
--norm times the launch floor, training BatchNorm at ResNet-50's shapes (batch 256; fp32, fp16 and
bf16, fp32 affine parameters as under autocast) and ResNet-50's convolutions at batch 256 in fp32
(TF32), the two figures round 4 had to fit or extrapolate.
Each timing: CUDA events around n repetitions after 3 warm-ups; n grows until a batch takes
>= 20 ms; the median of 5 batches, per repetition, is kept (seconds).
"""
import json, sys, time, traceback

import torch
import torch.nn.functional as F

T0 = time.time()
BUDGET = float(sys.argv[sys.argv.index("--budget") + 1]) if "--budget" in sys.argv else 90


def timeit(fn):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    n = 1
    while True:
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(n):
            fn()
        e.record()
        e.synchronize()
        ms = s.elapsed_time(e)
        if ms >= 20 or n >= 4096:
            break
        n *= 2 if ms > 5 else 8
    per = []
    for _ in range(5):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(n):
            fn()
        e.record()
        e.synchronize()
        per.append(s.elapsed_time(e) / 1000 / n)
    return sorted(per)[2], n


def over():
    return time.time() - T0 > BUDGET


def gemm(res):
    rows = []
    sizes = [(256, 256, 256), (512, 512, 512), (1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096),
             (8192, 8192, 8192), (16, 4096, 4096), (128, 4096, 4096), (1024, 4096, 4096), (4096, 1024, 4096),
             (4096, 4096, 1024), (8192, 1024, 1024), (32768, 1024, 4096), (32768, 4096, 1024),
             (8192, 50304, 768), (4096, 32000, 1024), (4096, 151936, 1024), (16384, 2816, 1024),
             (16384, 1024, 2816), (1024, 1024, 16384)]
    for name, dt, tf32 in (("bf16", torch.bfloat16, False), ("fp16", torch.float16, False),
                           ("fp32", torch.float32, False), ("tf32", torch.float32, True)):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        for M, N, K in sizes:
            if over():
                break
            if dt == torch.float32 and M * N * K > 2 ** 36:
                continue
            a = torch.randn(M, K, device="cuda", dtype=dt)
            b = torch.randn(K, N, device="cuda", dtype=dt)
            t, n = timeit(lambda: torch.mm(a, b))
            rows.append(dict(dtype=name, M=M, N=N, K=K, s=t, reps=n, tflops=2 * M * N * K / t / 1e12))
            del a, b
    torch.backends.cuda.matmul.allow_tf32 = False
    res["gemm"] = rows


def gemm_small(res):
    """Session 12 (dev16): fp32 (no TF32, PyTorch's default for matmul) and bf16 GEMMs at the shapes of
    small models' Linears, in the forward orientation (M = tokens) and the weight-gradient one (K =
    tokens); the large-shape table left the SD 1.5 UNet's fp32 GEMMs 13% under."""
    rows = []
    nk = ((320, 320), (640, 640), (1280, 1280), (2560, 320), (320, 1280), (768, 768), (3072, 768),
          (768, 3072), (1024, 1024), (4096, 1024), (5120, 640), (640, 768))
    shapes = []
    for tokens in (256, 1024, 4096, 16384, 65536):
        for n, k in nk:
            shapes += [(tokens, n, k, "fwd"), (n, k, tokens, "wgrad")]
    torch.backends.cuda.matmul.allow_tf32 = False
    for name, dt in (("fp32", torch.float32), ("bf16", torch.bfloat16)):
        for M, N, K, role in shapes:
            if over():
                break
            a = torch.randn(M, K, device="cuda", dtype=dt)
            b = torch.randn(K, N, device="cuda", dtype=dt)
            t, n = timeit(lambda: torch.mm(a, b))
            rows.append(dict(dtype=name, M=M, N=N, K=K, role=role, s=t, reps=n, tflops=2 * M * N * K / t / 1e12))
            del a, b
    res["gemm_small"] = rows


def gemm_unaligned(res):
    """GEMMs with one dimension not a multiple of 8 (odd vocabularies: GPT-2 50,257, Granite 49,155,
    Whisper 51,865) in each of the three roles a Linear's vocabulary plays: forward N, input-gradient
    K, weight-gradient M; with the aligned neighbour (vocabulary padded to a multiple of 64) beside
    each, in every dtype the step-time model prices."""
    rows = []
    shapes = []
    for V, H, T in ((50257, 768, 8192), (50257, 1024, 16384), (49155, 1536, 4096), (51865, 512, 3072),
                    (32001, 2048, 4096)):
        Va = (V + 63) // 64 * 64
        for v, aligned in ((V, False), (Va, True)):
            shapes += [(T, v, H, "fwd", aligned), (T, H, v, "dgrad", aligned), (v, H, T, "wgrad", aligned)]
    for name, dt, tf32 in (("bf16", torch.bfloat16, False), ("fp16", torch.float16, False),
                           ("fp32", torch.float32, False)):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        for M, N, K, role, aligned in shapes:
            if over():
                break
            a = torch.randn(M, K, device="cuda", dtype=dt)
            b = torch.randn(K, N, device="cuda", dtype=dt)
            t, n = timeit(lambda: torch.mm(a, b))
            rows.append(dict(dtype=name, M=M, N=N, K=K, role=role, aligned=aligned, s=t, reps=n,
                             tflops=2 * M * N * K / t / 1e12))
            del a, b
    res["gemm_unaligned"] = rows


def sdpa(res):
    from torch.nn.attention import sdpa_kernel, SDPBackend
    rows = []
    shapes = [(8, 12, 1024, 64), (16, 12, 512, 64), (4, 16, 1024, 64), (4, 32, 2048, 128), (2, 16, 4096, 128),
              (1, 32, 8192, 128), (32, 16, 256, 64)]
    for bname, be in (("flash", SDPBackend.FLASH_ATTENTION), ("efficient", SDPBackend.EFFICIENT_ATTENTION),
                      ("math", SDPBackend.MATH)):
        for (B, H, S, D) in shapes:
            for causal in (True, False):
                if over():
                    break
                if bname == "math" and S > 2048:
                    continue
                try:
                    q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16, requires_grad=True)
                               for _ in range(3))
                    g = torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16)
                    with sdpa_kernel(be):
                        tf, _ = timeit(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))

                        def fb():
                            o = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                            o.backward(g)
                        tfb, _ = timeit(fb)
                    fl = 4 * B * H * S * S * D * (0.5 if causal else 1.0)
                    rows.append(dict(backend=bname, B=B, H=H, S=S, D=D, causal=causal, fwd_s=tf, fwdbwd_s=tfb,
                                     fwd_tflops=fl / tf / 1e12, fwdbwd_tflops=3.5 * fl / tfb / 1e12,
                                     flops_fwd=fl))
                    del q, k, v, g
                except Exception as e:
                    rows.append(dict(backend=bname, B=B, H=H, S=S, D=D, causal=causal, error=repr(e)[:200]))
    res["sdpa"] = rows
    res["sdpa_note"] = "fwdbwd_tflops counts 3.5x forward FLOPs (forward + 2.5x for backward)"


def sdpa_backends(res):
    """Session 6: which backend torch 2.11 picks by default for each shape and dtype (the kernel names of
    one profiled call), and the cuDNN backend's times beside flash and efficient, bf16 and fp16, causal and
    not, on the shapes of the families' attention (head dims 64, 128, and diffusion's 40/80/160)."""
    from torch.nn.attention import sdpa_kernel, SDPBackend
    from torch.profiler import profile, ProfilerActivity
    rows = []
    shapes = [(8, 12, 1024, 64), (16, 12, 512, 64), (4, 16, 1024, 64), (4, 32, 2048, 128), (2, 16, 4096, 128),
              (1, 32, 8192, 128), (32, 16, 256, 64), (4, 8, 1024, 128), (16, 8, 4096, 40), (16, 8, 1024, 80),
              (16, 8, 256, 160), (32, 16, 256, 72), (64, 12, 256, 64)]
    backends = (("default", None), ("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash", SDPBackend.FLASH_ATTENTION),
                ("efficient", SDPBackend.EFFICIENT_ATTENTION))
    for dname, dt in (("bf16", torch.bfloat16), ("fp16", torch.float16)):
        for (B, H, S, D) in shapes:
            for causal in (True, False):
                if dname == "fp16" and not causal and S > 1024:
                    continue
                q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=dt, requires_grad=True) for _ in range(3))
                g = torch.randn(B, H, S, D, device="cuda", dtype=dt)
                fl = 4 * B * H * S * S * D * (0.5 if causal else 1.0)
                for bname, be in backends:
                    if over():
                        break
                    row = dict(backend=bname, dtype=dname, B=B, H=H, S=S, D=D, causal=causal, flops_fwd=fl)
                    try:
                        import contextlib
                        ctx = sdpa_kernel(be) if be is not None else contextlib.nullcontext()
                        with ctx:
                            def fwd():
                                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

                            def fb():
                                fwd().backward(g)
                            tf, _ = timeit(fwd)
                            tfb, _ = timeit(fb)
                            if bname == "default":
                                with profile(activities=[ProfilerActivity.CUDA]) as p:
                                    fb()
                                    torch.cuda.synchronize()
                                row["kernels"] = sorted({e.name[:90] for e in p.events()
                                                         if getattr(e, "device_type", None) ==
                                                         torch.autograd.DeviceType.CUDA})[:8]
                        row.update(fwd_s=tf, fwdbwd_s=tfb, fwd_tflops=fl / tf / 1e12,
                                   fwdbwd_tflops=3.5 * fl / tfb / 1e12)
                    except Exception as e:
                        row["error"] = repr(e)[:200]
                    rows.append(row)
                del q, k, v, g
    res["sdpa_backends"] = rows
    res["sdpa_backends_note"] = "fwdbwd_tflops counts 3.5x forward FLOPs; default = no sdpa_kernel context"


def conv(res):
    rows = []
    shapes = [  # N, Cin, Cout, H, k, stride, groups
        (64, 3, 64, 224, 7, 2, 1), (64, 64, 64, 56, 3, 1, 1), (64, 64, 256, 56, 1, 1, 1), (64, 256, 64, 56, 1, 1, 1),
        (64, 128, 128, 28, 3, 1, 1), (64, 256, 256, 14, 3, 1, 1), (64, 512, 512, 7, 3, 1, 1),
        (64, 96, 96, 56, 7, 1, 96), (64, 192, 192, 28, 7, 1, 192), (64, 384, 384, 14, 7, 1, 384),
        (64, 3, 96, 224, 4, 4, 1), (128, 32, 32, 112, 3, 1, 32), (128, 96, 24, 56, 1, 1, 1)]
    torch.backends.cudnn.benchmark = False
    for name, dt in (("bf16", torch.bfloat16), ("fp32", torch.float32)):
        for (N, Ci, Co, Hh, k, s, g) in shapes:
            if over():
                break
            for cl in (False, True):
                try:
                    x = torch.randn(N, Ci, Hh, Hh, device="cuda", dtype=dt, requires_grad=True)
                    w = torch.randn(Co, Ci // g, k, k, device="cuda", dtype=dt, requires_grad=True)
                    if cl:
                        x = x.detach().to(memory_format=torch.channels_last).requires_grad_()
                        w = w.detach().to(memory_format=torch.channels_last).requires_grad_()
                    tf, _ = timeit(lambda: F.conv2d(x, w, stride=s, padding=k // 2, groups=g))
                    y = F.conv2d(x, w, stride=s, padding=k // 2, groups=g)
                    gy = torch.randn_like(y)

                    def fb():
                        yy = F.conv2d(x, w, stride=s, padding=k // 2, groups=g)
                        yy.backward(gy)
                    tfb, _ = timeit(fb)
                    Ho = y.shape[2]
                    fl = 2 * N * Co * Ho * Ho * (Ci // g) * k * k
                    rows.append(dict(dtype=name, channels_last=cl, N=N, Cin=Ci, Cout=Co, H=Hh, k=k, stride=s,
                                     groups=g, fwd_s=tf, fwdbwd_s=tfb, flops_fwd=fl, fwd_tflops=fl / tf / 1e12,
                                     fwdbwd_tflops=3 * fl / tfb / 1e12))
                    del x, w, y, gy
                except Exception as e:
                    rows.append(dict(dtype=name, N=N, Cin=Ci, Cout=Co, H=Hh, k=k, error=repr(e)[:200]))
    res["conv"] = rows
    res["conv_note"] = "fwdbwd_tflops counts 3x forward FLOPs"


# conv16: the convolutions the step-time model looks up for ResNet-50, EfficientNet-B0 and
# ConvNeXt-T, in fp16 and bf16 (round 3: the full run timed no fp16 convolution, and no NCHW
# depthwise 5x5 or stride-2 one). Memory format as the models run: torchvision's ResNet and
# EfficientNet NCHW; ConvNeXt's stem NCHW and every later conv channels_last (LayerNorm2d permutes).
# Padding k//2, as in conv(). Shapes are tried in this order, both dtypes each, until the budget.
CONV16 = [  # N, Cin, Cout, H, k, stride, groups, channels_last
    # EfficientNet-B0 depthwise (NCHW), stride 1 and 2, 3x3 and 5x5
    (64, 32, 32, 112, 3, 1, 32, False), (64, 96, 96, 112, 3, 2, 96, False), (64, 144, 144, 56, 3, 1, 144, False),
    (64, 144, 144, 56, 5, 2, 144, False), (64, 240, 240, 28, 5, 1, 240, False), (64, 240, 240, 28, 3, 2, 240, False),
    (64, 480, 480, 14, 3, 1, 480, False), (64, 480, 480, 14, 5, 1, 480, False), (64, 672, 672, 14, 5, 2, 672, False),
    (64, 1152, 1152, 7, 5, 1, 1152, False), (64, 1152, 1152, 7, 3, 1, 1152, False),
    # ResNet-50 (NCHW): stem, 3x3 stride 1 and 2, 1x1 (bottleneck and stride-2 downsample)
    (64, 3, 64, 224, 7, 2, 1, False), (64, 64, 64, 56, 3, 1, 1, False), (64, 128, 128, 56, 3, 2, 1, False),
    (64, 128, 128, 28, 3, 1, 1, False), (64, 256, 256, 28, 3, 2, 1, False), (64, 256, 256, 14, 3, 1, 1, False),
    (64, 512, 512, 14, 3, 2, 1, False), (64, 512, 512, 7, 3, 1, 1, False),
    (64, 64, 256, 56, 1, 1, 1, False), (64, 256, 64, 56, 1, 1, 1, False), (64, 256, 128, 56, 1, 1, 1, False),
    (64, 256, 512, 56, 1, 2, 1, False), (64, 512, 128, 28, 1, 1, 1, False), (64, 128, 512, 28, 1, 1, 1, False),
    (64, 1024, 256, 14, 1, 1, 1, False), (64, 256, 1024, 14, 1, 1, 1, False), (64, 512, 1024, 28, 1, 2, 1, False),
    (64, 2048, 512, 7, 1, 1, 1, False), (64, 512, 2048, 7, 1, 1, 1, False), (64, 1024, 2048, 14, 1, 2, 1, False),
    # EfficientNet-B0 stem and 1x1 (NCHW)
    (64, 3, 32, 224, 3, 2, 1, False), (64, 16, 96, 112, 1, 1, 1, False), (64, 144, 24, 56, 1, 1, 1, False),
    (64, 240, 40, 28, 1, 1, 1, False), (64, 80, 480, 14, 1, 1, 1, False), (64, 672, 192, 7, 1, 1, 1, False),
    (64, 320, 1280, 7, 1, 1, 1, False),
    # ConvNeXt-T: stem NCHW, depthwise 7x7 and downsampling 2x2 channels_last
    (64, 3, 96, 224, 4, 4, 1, False), (64, 96, 96, 56, 7, 1, 96, True), (64, 192, 192, 28, 7, 1, 192, True),
    (64, 384, 384, 14, 7, 1, 384, True), (64, 768, 768, 7, 7, 1, 768, True), (64, 96, 192, 56, 2, 2, 1, True),
    (64, 384, 768, 14, 2, 2, 1, True),
]


# conv256: the ResNet-50 rows of CONV16 at batch 256 (round 4: is a batch-64 calibration, whose
# inputs may stay in L2, too fast for the batch-256 steps --fit ranks?)
CONV256 = [(256,) + r[1:] for r in CONV16[11:30]]


def conv_inputs(N, Ci, Co, Hh, k, g, cl, dt):
    """A random N x Ci x Hh x Hh input and Co x Ci/g x k x k weight of dtype dt on the GPU, channels-last when
    cl, both requiring grad."""
    x = torch.randn(N, Ci, Hh, Hh, device="cuda", dtype=dt)
    w = torch.randn(Co, Ci // g, k, k, device="cuda", dtype=dt)
    if cl:
        x = x.to(memory_format=torch.channels_last)
        w = w.to(memory_format=torch.channels_last)
    return x.requires_grad_(), w.requires_grad_()


def conv16(res, out=None, shapes=None, dtypes=(("fp16", torch.float16), ("bf16", torch.bfloat16))):
    rows = res.setdefault("conv", [])  # a second call (--conv-extra) adds to the first's rows
    res["conv_note"] = "fwdbwd_tflops counts 3x forward FLOPs"
    torch.backends.cudnn.benchmark = False
    for (N, Ci, Co, Hh, k, s, g, cl) in (shapes or CONV16):
        for name, dt in dtypes:
            if over():
                return
            try:
                x, w = conv_inputs(N, Ci, Co, Hh, k, g, cl, dt)
                tf, _ = timeit(lambda: F.conv2d(x, w, stride=s, padding=k // 2, groups=g))
                y = F.conv2d(x, w, stride=s, padding=k // 2, groups=g)
                gy = torch.randn_like(y)

                def fb():
                    yy = F.conv2d(x, w, stride=s, padding=k // 2, groups=g)
                    yy.backward(gy)
                tfb, _ = timeit(fb)
                Ho = y.shape[2]
                fl = 2 * N * Co * Ho * Ho * (Ci // g) * k * k
                rows.append(dict(dtype=name, channels_last=cl, N=N, Cin=Ci, Cout=Co, H=Hh, k=k, stride=s,
                                 groups=g, fwd_s=tf, fwdbwd_s=tfb, flops_fwd=fl, fwd_tflops=fl / tf / 1e12,
                                 fwdbwd_tflops=3 * fl / tfb / 1e12))
                del x, w, y, gy
            except Exception as e:
                rows.append(dict(dtype=name, N=N, Cin=Ci, Cout=Co, H=Hh, k=k, stride=s, error=repr(e)[:200]))
        save_partial(res, out)


# conv_extra (session 17, dev28): EfficientNet-B0's stem and 1x1 convolutions at batch 256 in fp16 and bf16
# (their batch-64 rows timed a backward bound by Python and cuDNN's per-call setup, 0.13-0.23 ms for 0.02-0.03 ms
# forward, which the model used for want of a larger batch: testdata/dev27), and ResNet-50's convolutions
# channels_last at batch 256 in bf16, as Inductor's layout optimisation runs a compiled CNN's (testdata/dev27).
CONV_EFF256 = [(256,) + r[1:] for r in CONV16[30:37]]
CONV_RN_CL256 = [(256,) + r[1:7] + (True,) for r in CONV16[11:30]]


# conv_kernels (session 18, dev29): every convolution shape above timed again by its kernels alone, read from
# torch.profiler's CUDA activity (CUPTI): forward, and forward then torch.autograd.grad for input and weight (no
# .grad accumulation), so that no Python backward() call, cuDNN per-call setup or other host time is in it
# (testdata/dev27: EfficientNet's batch-64 1x1 backward timed 0.13-0.23 ms for 0.02-0.03 ms forward). Each row
# carries the eager timing of the same shape on the same host (eager_fwd_s, eager_fwdbwd_s, as conv16 times it).
# CUDA-graph replay was tried first: capturing cuDNN's backward invalidated the capture. CONV16's slices: [:11]
# EfficientNet depthwise, [11:31] ResNet-50, [31:38] EfficientNet stem and 1x1, [38:] ConvNeXt-T.
CONV_KERNELS = ([(64,) + r[1:] for r in CONV16[31:38]] + [(256,) + r[1:] for r in CONV16[31:38]] + CONV16[:11]
                + CONV16[38:] + CONV16[11:31] + [(256,) + r[1:] for r in CONV16[11:31]]
                + [(256,) + r[1:7] + (True,) for r in CONV16[11:31]])


def kernel_time(fn, n=10):
    """Per call: the summed duration of the CUDA kernels fn launched (3 warm-up calls, then n under the
    profiler), the kernels per call and the three longest kernels' names."""
    from torch.profiler import profile, ProfilerActivity
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
    tot, cnt, names = 0.0, 0, {}
    for e in p.events():
        if getattr(e, "device_type", None) == torch.autograd.DeviceType.CUDA:
            d = e.time_range.end - e.time_range.start
            tot += d
            cnt += 1
            names[e.name] = names.get(e.name, 0.0) + d
    top = sorted(names, key=lambda k: -names[k])[:3]
    return tot / n / 1e6, cnt / n, [k[:80] for k in top]


# sdpa_mask: decoder attention shapes (B, H, S, D) of the compiled runs and their neighbours.
SDPA_MASK = [(8, 14, 1024, 64), (8, 12, 1024, 64), (4, 16, 1024, 64), (16, 12, 512, 64), (4, 32, 2048, 64),
             (4, 32, 1024, 128), (2, 16, 4096, 128), (8, 16, 1024, 128), (4, 9, 2048, 64)]


def sdpa_inputs(B, H, S, D, dt):
    """q, k, v (leaves), an output gradient, and a materialised causal bool mask (B, 1, S, S)."""
    q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=dt, requires_grad=True) for _ in range(3))
    g = torch.randn(B, H, S, D, device="cuda", dtype=dt)
    tri = torch.ones(S, S, device="cuda", dtype=torch.bool).tril().expand(B, 1, S, S).contiguous()
    return q, k, v, g, tri


def save_partial(res, out):
    """Writes what a run has so far, so that a run cut short by its budget or a crash keeps its rows."""
    if out:
        with open(out, "w") as fo:
            json.dump(res, fo, indent=1)


def time_fwd_bwd(row, f, ins, g):
    """Kernel-summed times of f() and of f() then torch.autograd.grad for ins, into row."""
    def fb():
        torch.autograd.grad(f(), ins, g)
    kf, nf, topf = kernel_time(f)
    kfb, nfb, top = kernel_time(fb)
    row.update(fwd_s=kf, fwdbwd_s=kfb, fwd_kernels=nf, fwdbwd_kernels=nfb, top_fwd=topf, top=top)


def sdpa_mask(res, out=None):
    """Session 19: SDPA with the default backend as Hugging Face calls it under torch.compile (a materialised
    causal mask, is_causal=False: masking_utils takes no is_causal shortcut while Dynamo traces), beside
    is_causal=True and no mask at all. bf16; the mask (B, 1, S, S), boolean and additive (dtype min above the
    diagonal). Kernel-summed times (torch.profiler): forward, and forward then torch.autograd.grad for q, k, v."""
    rows = res.setdefault("sdpa_mask", [])
    res["sdpa_mask_note"] = "fwd_s, fwdbwd_s: summed kernel durations per call; flops_full = 4*B*H*S*S*D"
    dt = torch.bfloat16
    for (B, H, S, D) in SDPA_MASK:
        q, k, v, g, boolm = sdpa_inputs(B, H, S, D, dt)
        addm = torch.zeros(B, 1, S, S, device="cuda", dtype=dt).masked_fill(~boolm, torch.finfo(dt).min)
        for mname, kw in (("causal", dict(is_causal=True)), ("none", {}), ("bool", dict(attn_mask=boolm)),
                          ("additive", dict(attn_mask=addm))):
            if over():
                return
            row = dict(mask=mname, B=B, H=H, S=S, D=D, dtype="bf16", flops_full=4 * B * H * S * S * D)
            try:
                time_fwd_bwd(row, lambda: F.scaled_dot_product_attention(q, k, v, **kw), (q, k, v), g)
            except Exception as e:
                row["error"] = repr(e)[:300]
            rows.append(row)
        del q, k, v, g, boolm, addm
        torch.cuda.empty_cache()
        save_partial(res, out)


# sdpa_bias (session 25, dev50): the fused attention calls of T5 and of the encoders/decoders that train with
# attention dropout, in eager bf16: T5's cross-attention takes a zero bias (1, H, S, S) with dropout 0.1, constant in
# a plain step (its k and v contiguous from the cache) and a leaf that requires grad under gradient checkpointing;
# BERT and GPT-2 run dropout 0.1 with no mask and causal. Shapes of T5-small/base/large and of BERT-base / GPT-2.
SDPA_BIAS = [(16, 8, 1024, 64), (32, 8, 512, 64), (64, 8, 256, 64), (4, 8, 2048, 64), (16, 12, 512, 64),
             (8, 16, 512, 64), (32, 12, 512, 64), (8, 12, 1024, 64)]


def sdpa_bias(res, out=None):
    """Session 25: kernel-summed forward and forward+backward times (torch.autograd.grad for q, k, v and a bias
    that requires grad) per call of F.scaled_dot_product_attention with the default backend, for: no mask with
    dropout 0 and 0.1, is_causal with 0.1, a constant zero bias (1, H, S, S) with 0 and 0.1 (k and v contiguous, and
    as strided views of a (B, S, H, D) projection), the same bias as a leaf that requires grad (0.1), and, forced to
    the memory-efficient backend, no mask and the constant bias at 0.1. The top kernels' names say which backend
    ran each."""
    from torch.nn.attention import sdpa_kernel, SDPBackend
    rows = res.setdefault("sdpa_bias", [])
    res["sdpa_bias_note"] = ("fwd_s, fwdbwd_s: summed kernel durations per call; flops_full = 4*B*H*S*S*D; "
                             "backend: '' default, else forced")
    dt = torch.bfloat16
    for (B, H, S, D) in SDPA_BIAS:
        q, k, v, g, _ = sdpa_inputs(B, H, S, D, dt)
        ks = torch.randn(B, S, H, D, device="cuda", dtype=dt).transpose(1, 2).requires_grad_(True)
        vs = torch.randn(B, S, H, D, device="cuda", dtype=dt).transpose(1, 2).requires_grad_(True)
        bias = torch.zeros(1, H, S, S, device="cuda", dtype=dt)
        gbias = torch.zeros(1, H, S, S, device="cuda", dtype=dt, requires_grad=True)
        cases = (("none", 0.0, None, False, (q, k, v), ""), ("none", 0.1, None, False, (q, k, v), ""),
                 ("causal", 0.1, None, True, (q, k, v), ""), ("bias", 0.0, bias, False, (q, k, v), ""),
                 ("bias", 0.1, bias, False, (q, k, v), ""), ("bias-strided", 0.1, bias, False, (q, ks, vs), ""),
                 ("bias-grad", 0.1, gbias, False, (q, k, v), ""),
                 ("none", 0.1, None, False, (q, k, v), "efficient"), ("bias", 0.1, bias, False, (q, k, v), "efficient"))
        for mname, p, m, causal, qkv, forced in cases:
            if over():
                return
            row = dict(mask=mname, dropout=p, backend=forced, B=B, H=H, S=S, D=D, dtype="bf16",
                       flops_full=4 * B * H * S * S * D)
            ins = tuple(qkv) + ((m,) if m is not None and m.requires_grad else ())
            try:
                def f(qkv=qkv, m=m, p=p, causal=causal):
                    return F.scaled_dot_product_attention(*qkv, attn_mask=m, dropout_p=p, is_causal=causal)
                if forced:
                    with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION]):
                        time_fwd_bwd(row, f, ins, g)
                else:
                    time_fwd_bwd(row, f, ins, g)
            except Exception as e:
                row["error"] = repr(e)[:300]
            rows.append(row)
        del q, k, v, g, ks, vs, bias, gbias
        torch.cuda.empty_cache()
        save_partial(res, out)


# sdpa_wide (session 64, late110): the default backend's fused attention at the batch x heads a large micro-batch
# gives, past the widest the calibration timed (768 for the plain rows, 512 for the dropout rows at 256 tokens): the
# plan interpolates its rates among the nearest calibrated shapes in log batch*heads, sequence and head dim, and far
# past the widest shape the short-sequence rows pull the rate down (Llama-style 32 heads x 2048 x 128 causal: 474
# TFLOP/s at 4 samples, 200 at 128 in the plan). Each series keeps sequence, head dim, causality and dropout and
# widens the batch, its first point a shape the calibration timed or one near it: BERT-base's 12 x 512 x 64 with
# dropout 0 and 0.1, GPT-2's 12 x 1024 x 64 causal with 0 and 0.1, Llama's 32 x 2048 x 128 and 32 x 2048 x 64
# causal, ViT-B/16's 12 x 197 x 64, DINOv2-L's 16 x 1370 x 64; and in float32 (the memory-efficient kernel)
# Whisper-base's encoder 8 x 1500 x 64 and BERT-base's 12 x 512 x 64.
SDPA_WIDE = ([((B, 12, 512, 64), False, p, "bf16") for p in (0.0, 0.1) for B in (16, 32, 64, 128, 256)] +
             [((B, 12, 1024, 64), True, p, "bf16") for p in (0.0, 0.1) for B in (8, 16, 32, 64)] +
             [((B, 32, 2048, 128), True, 0.0, "bf16") for B in (4, 8, 16, 32)] +
             [((B, 32, 2048, 64), True, 0.0, "bf16") for B in (4, 8, 16)] +
             [((B, 12, 197, 64), False, 0.0, "bf16") for B in (64, 128, 256, 512)] +
             [((B, 16, 1370, 64), False, 0.0, "bf16") for B in (8, 16, 32, 64)] +
             [((B, 8, 1500, 64), False, 0.0, "fp32") for B in (2, 8, 32, 128)] +
             [((B, 12, 512, 64), False, 0.0, "fp32") for B in (8, 32, 128)])


def sdpa_wide(res, out=None):
    """Session 64: kernel-summed forward and forward+backward (torch.autograd.grad for q, k, v) per call of
    F.scaled_dot_product_attention with the default backend, no mask, at SDPA_WIDE's shapes and dtypes."""
    rows = res.setdefault("sdpa_wide", [])
    res["sdpa_wide_note"] = "fwd_s, fwdbwd_s: summed kernel durations per call; flops_full = 4*B*H*S*S*D"
    for (B, H, S, D), causal, p, dname in SDPA_WIDE:
        if over():
            return
        dt = torch.bfloat16 if dname == "bf16" else torch.float32
        row = dict(B=B, H=H, S=S, D=D, causal=causal, dropout=p, dtype=dname, flops_full=4 * B * H * S * S * D)
        try:
            q, k, v, g, _ = sdpa_inputs(B, H, S, D, dt)
            time_fwd_bwd(row, lambda: F.scaled_dot_product_attention(q, k, v, dropout_p=p, is_causal=causal),
                         (q, k, v), g)
            del q, k, v, g
        except Exception as e:
            row["error"] = repr(e)[:300]
        rows.append(row)
        torch.cuda.empty_cache()
        save_partial(res, out)


# gemm_kernels (session 25, dev52): a Linear's three GEMMs (forward x·Wᵀ through F.linear, data gradient g·W,
# weight gradient gᵀ·x) at the shapes of Qwen2.5-0.5B (8,192 tokens), BERT-base (16,384) and the small Llama
# (8,192), bf16, timed by their kernels: back to back (the calibration's warm L2) and after a 256 MB write that
# evicts the L2 (a step's GEMM reads operands other kernels wrote long before). The Qwen2.5-0.5B profile (dev50) ran
# its GEMMs 9% (8192x4864x896) to 2x (128-wide) longer than the calibration prices them.
GEMM_KERNELS = [(8192, 4864, 896), (8192, 896, 4864), (8192, 896, 896), (8192, 128, 896), (16384, 768, 768),
                (16384, 3072, 768), (16384, 768, 3072), (8192, 1024, 1024), (8192, 2816, 1024), (8192, 1024, 2816)]


# gemm_kernels_wide (session 25, dev53): the same three GEMMs warm at 8,192 tokens over the Linear widths of the
# catalog's families: hidden h in 768 (BERT, GPT-2), 896 (Qwen2.5-0.5B), 1024, 1536, 2048, 3072, 4096, each with
# h×h, h→FFN, FFN→h and the grouped-query k/v widths 128, 256 and 512; the FFN of the family with that hidden size.
GEMM_WIDE_FFN = {768: 3072, 896: 4864, 1024: 2816, 1536: 8960, 2048: 8192, 3072: 8192, 4096: 14336}
GEMM_KERNELS_WIDE = sorted({(8192, n, k) for h, f in GEMM_WIDE_FFN.items()
                            for (n, k) in ((h, h), (f, h), (h, f), (128, h), (256, h), (512, h))})


def gemm_kernels(res, out=None, shapes=None, colds=(False, True)):
    """Per (T, N, K) Linear of T tokens, K in and N out features: forward, data gradient and weight gradient GEMMs,
    warm and cold, kernel-summed per call (torch.profiler), the flush's fill kernel left out."""
    from torch.profiler import profile, ProfilerActivity
    rows = res.setdefault("gemm_kernels", [])
    res["gemm_kernels_note"] = "s: summed GEMM kernel durations per call; cold: after a 256 MB fill"
    dt = torch.bfloat16
    flush = torch.empty(256 * 1024 * 1024 // 4, device="cuda", dtype=torch.float32)

    def timed(fn, cold, n=10):
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as p:
            for _ in range(n):
                if cold:
                    flush.fill_(1.0)
                fn()
            torch.cuda.synchronize()
        tot, names = 0.0, {}
        for e in p.events():
            if getattr(e, "device_type", None) == torch.autograd.DeviceType.CUDA and "ill" not in e.name:
                d = e.time_range.end - e.time_range.start
                tot += d
                names[e.name] = names.get(e.name, 0.0) + d
        return tot / n / 1e6, [k[:80] for k in sorted(names, key=lambda k: -names[k])[:2]]

    for (T, N, K) in (shapes or GEMM_KERNELS):
        x = torch.randn(T, K, device="cuda", dtype=dt)
        w = torch.randn(N, K, device="cuda", dtype=dt)
        g = torch.randn(T, N, device="cuda", dtype=dt)
        for role, fn in (("fwd", lambda: F.linear(x, w)), ("dgrad", lambda: torch.mm(g, w)),
                         ("wgrad", lambda: torch.mm(g.t(), x))):
            for cold in colds:
                if over():
                    return
                row = dict(T=T, N=N, K=K, role=role, cold=cold, dtype="bf16", flops=2 * T * N * K)
                try:
                    row["s"], row["top"] = timed(fn, cold)
                except Exception as e:
                    row["error"] = repr(e)[:300]
                rows.append(row)
        del x, w, g
        save_partial(res, out)


# sdpa_compiled: (B, H, S, D) of compiled encoders' and GPT-2's attention and their neighbours.
SDPA_COMPILED = [(32, 12, 512, 64), (8, 12, 1024, 64), (64, 12, 256, 64), (16, 16, 512, 64), (8, 16, 1024, 64),
                 (4, 12, 2048, 64)]


def sdpa_compiled(res, out=None):
    """Session 19: F.scaled_dot_product_attention inside torch.compile as Hugging Face calls it in training
    (bf16 q, k, v): an additive float32 padding mask (B, 1, S, S) of zeros (BERT), a materialised causal bool
    mask, and is_causal=True, each with dropout_p 0.1 and without. Kernel-summed times per call (forward, and
    forward then torch.autograd.grad for q, k, v) and the kernels' names, which say what Inductor ran."""
    import torch._dynamo
    torch._dynamo.config.cache_size_limit = 256
    rows = res.setdefault("sdpa_compiled", [])
    res["sdpa_compiled_note"] = "fwd_s, fwdbwd_s: summed kernel durations per call of the compiled function"
    dt = torch.bfloat16
    for (B, H, S, D) in SDPA_COMPILED:
        q, k, v, g, tri = sdpa_inputs(B, H, S, D, dt)
        pad = torch.zeros(B, 1, S, S, device="cuda", dtype=torch.float32)
        for mname, mask, causal in (("pad-float32", pad, False), ("causal-bool", tri, False),
                                    ("is_causal", None, True)):
            for p in (0.1, 0.0):
                if over():
                    return
                row = dict(mask=mname, dropout=p, B=B, H=H, S=S, D=D, dtype="bf16",
                           flops_full=4 * B * H * S * S * D)
                try:
                    def att(q, k, v, m, p=p, causal=causal):
                        return F.scaled_dot_product_attention(q, k, v, attn_mask=m, dropout_p=p, is_causal=causal)
                    cf = torch.compile(att, dynamic=False)

                    def f():
                        return cf(q, k, v, mask)
                    t0 = time.time()
                    torch.autograd.grad(f(), (q, k, v), g)
                    row["compile_s"] = round(time.time() - t0, 1)
                    time_fwd_bwd(row, f, (q, k, v), g)
                except Exception as e:
                    row["error"] = repr(e)[:300]
                rows.append(row)
        del q, k, v, g, pad, tri
        torch.cuda.empty_cache()
        save_partial(res, out)


def conv_kernels(res, out=None, shapes=None, dtypes=None):
    """Times shapes (CONV_KERNELS) by their kernels; dtypes(shape) names the dtypes of each (fp16 and bf16)."""
    rows = res.setdefault("conv", [])
    res["conv_note"] = ("kernel rows: fwd_s and fwdbwd_s are summed kernel durations (torch.profiler; forward; "
                        "forward then torch.autograd.grad for input and weight), eager_* the shape timed as conv16 does")
    torch.backends.cudnn.benchmark = False
    for (N, Ci, Co, Hh, k, s, g, cl) in (shapes or CONV_KERNELS):
        dts = (("fp16", torch.float16), ("bf16", torch.bfloat16))
        if dtypes:
            dts = dtypes((N, Ci, Co, Hh, k, s, g, cl))
        elif cl and N == 256 and g == 1 and k in (1, 3, 7) and Co != 96:  # ResNet-50 channels-last: bf16 as dev28
            dts = (("bf16", torch.bfloat16),)
        for name, dt in dts:
            if over():
                return
            try:
                x, w = conv_inputs(N, Ci, Co, Hh, k, g, cl, dt)

                def f():
                    return F.conv2d(x, w, stride=s, padding=k // 2, groups=g)
                y = f()
                gy = torch.randn_like(y)

                def fb_eager():
                    f().backward(gy)

                def fb_grad():
                    torch.autograd.grad(f(), (x, w), gy)
                ef, _ = timeit(f)
                efb, _ = timeit(fb_eager)
                x.grad = None
                w.grad = None
                kf, nf, _ = kernel_time(f)
                kfb, nfb, top = kernel_time(fb_grad)
                Ho = y.shape[2]
                fl = 2 * N * Co * Ho * Ho * (Ci // g) * k * k
                rows.append(dict(dtype=name, channels_last=cl, N=N, Cin=Ci, Cout=Co, H=Hh, k=k, stride=s, groups=g,
                                 kernels=True, fwd_s=kf, fwdbwd_s=kfb, eager_fwd_s=ef, eager_fwdbwd_s=efb,
                                 fwd_kernels=nf, fwdbwd_kernels=nfb, top=top, flops_fwd=fl))
                del x, w, y, gy
            except Exception as e:
                rows.append(dict(dtype=name, N=N, Cin=Ci, Cout=Co, H=Hh, k=k, stride=s, kernels=True,
                                 error=repr(e)[:300]))
        save_partial(res, out)


# conv_cl (session 20): eager channels-last CNNs (model.to(memory_format=torch.channels_last), the input too),
# which plan --channels-last prices: every ResNet-50 and EfficientNet-B0 shape of CONV16 channels-last at batch 128,
# fp16 and bf16 (the bf16 ResNet-50 ones at 256 are dev29's), fp32 (TF32) for ResNet-50's; timed by their kernels.
CONV_CL = [(128,) + r[1:7] + (True,) for r in CONV16[:38]]


# conv_cl_fp32 (session 20, call 77): the depthwise shapes of CONV16 (EfficientNet-B0's at batch 128, ConvNeXt-T's 7x7
# at 64) channels-last in float32, which late34's EfficientNet-B0 fp32 channels-last step ran and no row timed.
CONV_CL_FP32 = [(128,) + r[1:7] + (True,) for r in CONV16[:11]] + [r for r in CONV16[38:] if r[6] > 1]


def conv_cl_dtypes(shape):
    half = (("fp16", torch.float16), ("bf16", torch.bfloat16))
    if shape[6] == 1 and shape[4] in (1, 3, 7) and shape[1] >= 64 or shape[4] == 7:  # ResNet-50's dense shapes
        return half + (("fp32", torch.float32),)
    return half


# norm: ResNet-50's BatchNorm inputs at batch 256 (C, H): the stem's, then each stage's.
BN256 = [(64, 112), (64, 56), (256, 56), (128, 56), (128, 28), (512, 28), (256, 28), (256, 14), (1024, 14),
         (512, 14), (512, 7), (2048, 7)]


def norm(res, out=None, cl=False):
    """Training F.batch_norm, NCHW (channels-last when cl), forward alone and forward+backward
    (torch.autograd.grad, so nothing accumulates into .grad), per dtype: PyTorch runs fp32 and fp16
    NCHW through cuDNN and bf16 through ATen's kernels. bytes counts the input and output once each."""
    rows = res.setdefault("norm", [])
    for C, H in BN256:
        for name, dt in (("fp32", torch.float32), ("fp16", torch.float16), ("bf16", torch.bfloat16)):
            if over():
                return
            try:
                x = torch.randn(256, C, H, H, device="cuda", dtype=dt)
                if cl:
                    x = x.contiguous(memory_format=torch.channels_last)
                x.requires_grad_()
                w = torch.ones(C, device="cuda", requires_grad=True)
                b = torch.zeros(C, device="cuda", requires_grad=True)
                rm, rv = torch.zeros(C, device="cuda"), torch.ones(C, device="cuda")
                tf, _ = timeit(lambda: F.batch_norm(x, rm, rv, w, b, training=True))
                gy = torch.randn_like(x)

                def fb():
                    y = F.batch_norm(x, rm, rv, w, b, training=True)
                    torch.autograd.grad(y, (x, w, b), gy)
                tfb, _ = timeit(fb)
                nb = 2 * x.numel() * x.element_size()
                rows.append(dict(op="batch_norm", dtype=name, N=256, C=C, H=H, fwd_s=tf, fwdbwd_s=tfb, bytes=nb,
                                 fwd_gbps=nb / tf / 1e9, channels_last=cl))
                del x, gy
            except Exception as e:
                rows.append(dict(op="batch_norm", dtype=name, N=256, C=C, H=H, error=repr(e)[:200]))
        save_partial(res, out)


def pointwise(res):
    rows = []
    for name, dt in (("bf16", torch.bfloat16), ("fp32", torch.float32)):
        es = torch.finfo(dt).bits // 8
        for p in range(14, 30, 2):
            if over():
                break
            n = 2 ** p
            x = torch.randn(n, device="cuda", dtype=dt)
            y = torch.randn(n, device="cuda", dtype=dt)
            xr = x.view(-1, 1024) if n >= 1024 else x.view(1, -1)
            lw = torch.ones(xr.shape[1], device="cuda", dtype=dt)
            ops = {"add": (lambda: x + y, 3), "mul_": (lambda: x.mul_(1.0), 2), "gelu": (lambda: F.gelu(x), 2),
                   "copy": (lambda: x.clone(), 2),
                   "layer_norm": (lambda: F.layer_norm(xr, (xr.shape[1],), lw, lw), 2),
                   "softmax": (lambda: torch.softmax(xr, -1), 2), "sum": (lambda: x.sum(), 1)}
            for op, (fn, nb) in ops.items():
                t, reps = timeit(fn)
                rows.append(dict(dtype=name, op=op, numel=n, s=t, bytes=nb * n * es, gbps=nb * n * es / t / 1e9))
            del x, y, xr
    res["pointwise"] = rows


def launch(res):
    x = torch.zeros(1, device="cuda")
    t_gpu, _ = timeit(lambda: x.add_(1))
    torch.cuda.synchronize()
    n = 2000
    t = time.perf_counter()
    for _ in range(n):
        x.add_(1)
    cpu = (time.perf_counter() - t) / n
    torch.cuda.synchronize()
    res["launch"] = dict(per_kernel_events_s=t_gpu, per_kernel_cpu_enqueue_s=cpu,
                         note="events: back-to-back tiny add_ kernels (max of launch and GPU floor)")


def optim(res):
    rows = []
    for total in (10_000_000, 100_000_000, 400_000_000):
        for ntens in (50, 300):
            if over():
                break
            per = total // ntens
            ps = [torch.zeros(per, device="cuda", requires_grad=True) for _ in range(ntens)]
            for p in ps:
                p.grad = torch.randn_like(p)
            for impl in ("fused", "foreach", "forloop"):
                if impl == "forloop" and total > 100_000_000:
                    continue
                kw = {"fused": dict(fused=True), "foreach": dict(foreach=True), "forloop": dict(foreach=False)}[impl]
                for oname, cls in (("adamw", torch.optim.AdamW), ("sgd_momentum", torch.optim.SGD)):
                    okw = dict(kw, lr=1e-4)
                    if oname == "sgd_momentum":
                        okw["momentum"] = 0.9
                    try:
                        opt = cls(ps, **okw)
                        opt.step()
                        torch.cuda.synchronize()
                        ts = []
                        for _ in range(7):
                            t = time.perf_counter()
                            opt.step()
                            torch.cuda.synchronize()
                            ts.append(time.perf_counter() - t)
                        tt = sorted(ts)[3]
                        rows.append(dict(optimizer=oname, impl=impl, params=per * ntens, tensors=ntens, s=tt,
                                         s_per_param=tt / (per * ntens)))
                        del opt
                    except Exception as e:
                        rows.append(dict(optimizer=oname, impl=impl, params=total, error=repr(e)[:200]))
            del ps
            torch.cuda.empty_cache()
    res["optimizer"] = rows


def broadcast(res):
    """Session 7: the elementwise kernels a decoder's step runs that are not contiguous same-shape ops:
    float32 upcasts of bf16 activations, RMSNorm's square/mean/rsqrt-scale with a [T,1] and a [H] operand,
    rotary q*cos + rotate_half(q)*sin with cos broadcast over heads, mixed-dtype products, SiLU-gate, and
    each composite forward+backward under autograd. bytes = every operand read once plus the output."""
    rows = []
    for T in (2048, 8192, 32768):
        for H in (1024, 4096):
            if over():
                break
            for dn, dt in (("bf16", torch.bfloat16), ("fp32", torch.float32)):
                es = torch.finfo(dt).bits // 8
                x = torch.randn(T, H, device="cuda", dtype=dt)
                x32 = x.float()
                v = torch.randn(T, 1, device="cuda", dtype=torch.float32)
                w = torch.randn(H, device="cuda", dtype=dt)
                nh, hd = H // 64, 64
                q = torch.randn(1, nh, T, hd, device="cuda", dtype=dt)
                cos = torch.randn(1, 1, T, hd, device="cuda", dtype=dt)
                n = T * H
                ops = {
                    "to_fp32": (lambda: x.to(torch.float32), n * (es + 4)),
                    "pow2": (lambda: x32.pow(2), n * 8),
                    "mean_lastdim": (lambda: x32.mean(-1, keepdim=True), n * 4),
                    "mul_rowbcast": (lambda: x32 * v, n * 8 + T * 4),
                    "mul_colbcast": (lambda: w * x, n * 2 * es + H * es),
                    "mixed_mul": (lambda: x * v, n * (es + 4) + T * 4),
                    "add_same": (lambda: x + x, n * 3 * es),
                    "rope_mul": (lambda: q * cos, n * 2 * es + T * hd * es),
                    "rotate_half": (lambda: torch.cat((-q[..., hd // 2:], q[..., :hd // 2]), -1), n * 2 * es),
                    "silu_mul": (lambda: F.silu(x) * x, n * 3 * es),
                }
                for op, (fn, nb) in ops.items():
                    t, _ = timeit(fn)
                    rows.append(dict(op=op, dtype=dn, T=T, H=H, numel=n, s=t, bytes=nb, gbps=nb / t / 1e9))
                xg = x.detach().clone().requires_grad_(True)
                wg = w.detach().clone().requires_grad_(True)
                qg = q.detach().clone().requires_grad_(True)
                gx = torch.randn_like(x)
                gq = torch.randn_like(q)

                def rms():
                    h = xg.to(torch.float32)
                    var = h.pow(2).mean(-1, keepdim=True)
                    h = h * torch.rsqrt(var + 1e-6)
                    return wg * h.to(dt)

                def rope():
                    r = torch.cat((-qg[..., hd // 2:], qg[..., :hd // 2]), -1)
                    return qg * cos + r * cos
                for op, fn, g, nb in (("rmsnorm", rms, gx, n * es), ("rope", rope, gq, n * es)):
                    tf, _ = timeit(fn)
                    tfb, _ = timeit(lambda: fn().backward(g))
                    rows.append(dict(op=op + "_fwd", dtype=dn, T=T, H=H, numel=n, s=tf, bytes_act=nb))
                    rows.append(dict(op=op + "_fwdbwd", dtype=dn, T=T, H=H, numel=n, s=tfb, bytes_act=nb))
                del x, x32, v, w, q, cos, xg, wg, qg, gx, gq
    res["broadcast"] = rows
    res["broadcast_note"] = "bytes counts each operand read once and the output written once"


# reduce_act (session 27): the bias gradients' reductions and the activations' own kernels.
COLSUM_C = (64, 96, 128, 192, 256, 320, 384, 512, 640, 768, 1024, 1280, 1536, 2048, 3072, 4096, 5120, 8192)
BIAS_NCHW = ((128, 96, 56, 56), (128, 192, 28, 28), (128, 384, 14, 14), (128, 768, 7, 7), (8, 320, 64, 64),
             (8, 640, 32, 32), (8, 1280, 16, 16), (8, 1280, 8, 8), (256, 64, 112, 112), (32, 128, 128, 128))
ACT_NUMEL = (1 << 22, 1 << 24, 1 << 26, 1 << 28)


def reduce_act(res, out=None):
    """Session 27: kernel-summed times per call of (1) a Linear's bias gradient, x[M, C].sum(0) (autograd's
    sum_to_size over the rows of a 2-D or flattened 3-D output gradient), at 2^22 and 2^25 elements for each C of
    COLSUM_C; (2) a convolution's bias gradient, x[N, C, H, W].sum((0, 2, 3)) on contiguous NCHW and on
    channels-last tensors, at BIAS_NCHW; (3) GELU (exact and tanh), SiLU and ReLU forward and their backward
    kernels (aten gelu_backward, silu_backward, threshold_backward) at ACT_NUMEL elements; in bf16, fp16 and fp32.
    bytes: what the kernel must read and write at least (the input once, the output once)."""
    rows = res.setdefault("reduce_act", [])
    res["reduce_act_note"] = "s: summed kernel durations per call (torch.profiler); bytes: input read once + output"
    for dn, dt in (("bf16", torch.bfloat16), ("fp16", torch.float16), ("fp32", torch.float32)):
        es = torch.finfo(dt).bits // 8
        for numel in (1 << 22, 1 << 25):
            for C in COLSUM_C:
                if over():
                    return
                M = numel // C
                x = torch.randn(M, C, device="cuda", dtype=dt)
                s, k, top = kernel_time(lambda: x.sum(0))
                rows.append(dict(op="colsum", dtype=dn, M=M, C=C, s=s, kernels=k, bytes=(M * C + C) * es, top=top))
                del x
        save_partial(res, out)
        for shp in BIAS_NCHW:
            for layout in ("nchw", "nhwc"):
                if over():
                    return
                x = torch.randn(*shp, device="cuda", dtype=dt)
                if layout == "nhwc":
                    x = x.contiguous(memory_format=torch.channels_last)
                s, k, top = kernel_time(lambda: x.sum((0, 2, 3)))
                n = x.numel()
                rows.append(dict(op="convbias", layout=layout, dtype=dn, shape=list(shp), s=s, kernels=k,
                                 bytes=(n + shp[1]) * es, top=top))
                del x
        save_partial(res, out)
        for numel in ACT_NUMEL:
            if over():
                return
            x = torch.randn(numel, device="cuda", dtype=dt)
            g = torch.randn(numel, device="cuda", dtype=dt)
            acts = (("gelu", lambda: F.gelu(x), lambda: torch.ops.aten.gelu_backward(g, x)),
                    ("gelu_tanh", lambda: F.gelu(x, approximate="tanh"),
                     lambda: torch.ops.aten.gelu_backward(g, x, approximate="tanh")),
                    ("silu", lambda: F.silu(x), lambda: torch.ops.aten.silu_backward(g, x)),
                    ("relu", lambda: F.relu(x), lambda: torch.ops.aten.threshold_backward(g, x, 0)))
            for op, f, b in acts:
                s, k, top = kernel_time(f)
                rows.append(dict(op=op, dtype=dn, numel=numel, s=s, kernels=k, bytes=2 * numel * es, top=top))
                s, k, top = kernel_time(b)
                rows.append(dict(op=op + "_backward", dtype=dn, numel=numel, s=s, kernels=k, bytes=3 * numel * es,
                                 top=top))
            del x, g
        save_partial(res, out)


def gap(res, out=None):
    """Session 27: the GPU time between dependent kernels of one stream. For each op and size, the same call timed
    two ways: CUDA events around n back-to-back calls (timeit: what the event-timed calibration rows hold) and the
    summed durations of the kernels it launched (kernel_time: what kernel-timed rows hold); gap_s is the first less
    the second, per kernel."""
    rows = res.setdefault("gap", [])
    for dn, dt in (("bf16", torch.bfloat16), ("fp32", torch.float32)):
        for numel in (1 << 14, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26):
            if over():
                return
            x = torch.randn(numel, device="cuda", dtype=dt)
            y = torch.randn(numel, device="cuda", dtype=dt)
            for op, f in (("add", lambda: x + y), ("mul_", lambda: x.mul_(1.0)), ("copy", lambda: x.clone())):
                ev, _ = timeit(f)
                k, nk, top = kernel_time(f)
                rows.append(dict(op=op, dtype=dn, numel=numel, event_s=ev, kernel_s=k, kernels=nk,
                                 gap_s=(ev - k) / max(nk, 1), top=top))
            del x, y
        save_partial(res, out)
    for m in (1024, 2048, 4096, 8192):
        if over():
            return
        a = torch.randn(m, m, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(m, m, device="cuda", dtype=torch.bfloat16)
        ev, _ = timeit(lambda: a @ b)
        k, nk, top = kernel_time(lambda: a @ b)
        rows.append(dict(op="mm", dtype="bf16", numel=m * m, event_s=ev, kernel_s=k, kernels=nk,
                         gap_s=(ev - k) / max(nk, 1), top=top))
        del a, b
    save_partial(res, out)


# Modes that run one function, which saves its rows as it goes (fn(res, out)), after the launch floor.
SAVING_MODES = {"--sdpa-compiled": sdpa_compiled,  # session 19
                "--sdpa-mask": sdpa_mask,  # session 19
                "--sdpa-bias": sdpa_bias,  # session 25
                "--sdpa-wide": sdpa_wide,  # session 64
                "--gap": gap,  # session 27
                "--reduce-act": reduce_act}  # session 27


def saving(fn, out):
    """fn(res, out) as a one-argument step named after fn."""
    def step(res):
        return fn(res, out)
    step.__name__ = fn.__name__
    return step


def main():
    out = sys.argv[1]
    p = torch.cuda.get_device_properties(0)
    res = dict(device=p.name, sm_count=p.multi_processor_count, total_memory=p.total_memory,
               torch=torch.__version__, cuda=torch.version.cuda, cudnn=torch.backends.cudnn.version())
    fns = (launch, gemm, sdpa, pointwise, conv, optim)
    if "--conv16" in sys.argv:  # round 3: launch (for enqueue_s) and the fp16/bf16 convolutions only
        fns = (launch, lambda r: conv16(r, out))
        fns[1].__name__ = "conv16"
    if "--conv256" in sys.argv:
        fns = (launch, lambda r: conv16(r, out, CONV256))
        fns[1].__name__ = "conv256"
    if "--conv-extra" in sys.argv:  # session 17: see CONV_EFF256, CONV_RN_CL256
        fns = (launch, lambda r: conv16(r, out, CONV_EFF256),
               lambda r: conv16(r, out, CONV_RN_CL256, (("bf16", torch.bfloat16),)))
        fns[1].__name__, fns[2].__name__ = "conv_eff256", "conv_rn_cl256"
    if "--conv-kernels" in sys.argv:  # session 18: see CONV_KERNELS
        fns = (launch, lambda r: conv_kernels(r, out))
        fns[1].__name__ = "conv_kernels"
    if "--conv-cl-fp32" in sys.argv:  # session 20: see CONV_CL_FP32
        fns = (launch, lambda r: conv_kernels(r, out, CONV_CL_FP32, lambda s: (("fp32", torch.float32),)))
        fns[1].__name__ = "conv_cl_fp32"
    elif "--conv-cl" in sys.argv:  # session 20: see CONV_CL
        fns = (launch, lambda r: conv_kernels(r, out, CONV_CL, conv_cl_dtypes), lambda r: norm(r, out, cl=True))
        fns[1].__name__, fns[2].__name__ = "conv_cl", "norm_cl"
    if "--gemm-kernels-wide" in sys.argv:  # session 25: see GEMM_KERNELS_WIDE
        fns = (launch, lambda r: gemm_kernels(r, out, GEMM_KERNELS_WIDE, (False,)))
        fns[1].__name__ = "gemm_kernels"
    elif "--gemm-kernels" in sys.argv:  # session 25: see gemm_kernels
        fns = (launch, lambda r: gemm_kernels(r, out))
        fns[1].__name__ = "gemm_kernels"
    if "--norm" in sys.argv:  # round 4's fitted BatchNorm factors and batch-64-only TF32 convolutions
        fns = (launch, lambda r: norm(r, out), lambda r: conv16(r, out, CONV256, (("fp32", torch.float32),)))
        fns[1].__name__, fns[2].__name__ = "norm", "conv256_fp32"
    if "--unaligned" in sys.argv:  # session 5: odd-vocabulary GEMMs and their aligned neighbours
        fns = (launch, gemm_unaligned)
    if "--sdpa-backends" in sys.argv:  # session 6: the default SDPA backend (cuDNN on the H200) timed
        fns = (launch, sdpa_backends)
    if "--small-gemm" in sys.argv:  # session 12: small-shape fp32 / bf16 GEMMs (dev16)
        fns = (launch, gemm_small)
    if "--broadcast" in sys.argv:  # session 7: broadcast / mixed-dtype elementwise kernels of decoders
        fns = (launch, broadcast)
    for flag, fn in SAVING_MODES.items():
        if flag in sys.argv:
            fns = (launch, saving(fn, out))
    for fn in fns:
        t = time.time()
        try:
            fn(res)
        except Exception:
            res[fn.__name__ + "_error"] = traceback.format_exc()[-1500:]
        res[fn.__name__ + "_wall_s"] = round(time.time() - t, 1)
        print(f"calib {fn.__name__}: {res[fn.__name__ + '_wall_s']}s", flush=True)
        torch.cuda.empty_cache()
        save_partial(res, out)
    print("RESULT " + json.dumps(dict(name="calibration", status="ok", file=out,
                                      wall_s=round(time.time() - T0, 1))), flush=True)


if __name__ == "__main__":
    main()
