#!/usr/bin/env python3
"""Regenerates synthetic/*.pickle (+ .json summaries) and hostile/*.pickle.

    cd internal/snapshot/testdata && python3 gen.py

synthetic/: snapshots in shapes the real fixtures do not cover (legacy
formats, several devices, unknown keys, other protocols, extreme values);
each NAME.json is the summary testdata/snapshots/summarize.py computes
with CPython's pickle, which the Go test compares Load against.
hostile/: pickles that are not valid snapshots; the Go test lists the
error each must give.
"""
import collections
import copy
import os
import pickle
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "testdata", "snapshots"))
import summarize  # noqa: E402

GiB, MiB = 1 << 30, 1 << 20
BASE = 0x7F0000000000


def fr(name, line, filename="/home/user/train.py"):
    return {"name": name, "filename": filename, "line": line}


def settings(**kw):
    st = {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1,
          "garbage_collection_threshold": 0.0, "expandable_segments": False,
          "pinned_num_register_threads": 1, "release_lock_on_cudamalloc": False,
          "pinned_use_cuda_host_register": False, "graph_capture_record_stream_reuse": False,
          "roundup_power2_divisions": {str(1 << i): 0 for i in range(16)}}
    st.update(kw)
    return st


def ev(action, addr, size, t, frames=None, stream=0, **kw):
    e = {"action": action, "device_free" if action == "oom" else "addr": addr, "size": size,
         "stream": stream, "time_us": t, "compile_context": "N/A", "user_metadata": ""}
    if frames is not None:
        e["frames"] = frames
    e.update(kw)
    return e


def seg(device, addr, blocks, **kw):
    s = {"device": device, "address": addr, "total_size": sum(b["size"] for b in blocks),
         "allocated_size": sum(b["size"] for b in blocks if b["state"] == "active_allocated"),
         "active_size": sum(b["size"] for b in blocks if b["state"] != "inactive"),
         "requested_size": sum(b["requested_size"] for b in blocks if b["state"] != "inactive"),
         "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0),
         "is_expandable": False, "frames": [], "blocks": blocks}
    s.update(kw)
    return s


def blk(addr, size, req, state, frames=()):
    return {"address": addr, "size": size, "requested_size": req, "state": state,
            "frames": list(frames)}


def trace(device, n, t0, stack):
    """n alloc/free pairs in one 20 MiB segment of device."""
    base = BASE + device * 0x100000000
    out = [ev("segment_alloc", base, 20 * MiB, t0, stack)]
    for i in range(n):
        out.append(ev("alloc", base + i * 512, 100 + i, t0 + 2 * i + 1, stack))
    for i in range(n):
        out.append(ev("free_requested", base + i * 512, 100 + i, t0 + 2 * n + i, stack))
        out.append(ev("free_completed", base + i * 512, 100 + i, t0 + 2 * n + i, []))
    return out


def snapshot(segments, traces, st=None, ann=()):
    return {"segments": segments, "device_traces": traces,
            "allocator_settings": st or settings(), "external_annotations": list(ann)}


synthetic, hostile = {}, {}
main = [fr("forward", 10), fr("step", 20), fr("<module>", 30)]

# Several devices, one without a trace; segments on three of them.
synthetic["multi-device"] = snapshot(
    [seg(d, BASE + d * 0x100000000, [blk(BASE + d * 0x100000000, 2 * MiB, 0, "inactive")])
     for d in (0, 2, 3)],
    [trace(0, 3, 1000, main), [], trace(2, 2, 2000, main[1:]), trace(3, 1, 3000, [])])
# Eight devices each with a trace, as on an 8-GPU node.
synthetic["eight-devices"] = snapshot(
    [], [trace(d, d + 1, 1000 * d, main[d % 3:]) for d in range(8)])

# Legacy: a bare list of segments; blocks without address and with
# history [{addr, real_size, frames}] instead of frames/requested_size.
legacy_segments = [
    {"device": 0, "address": BASE, "total_size": 6 * MiB, "allocated_size": 2 * MiB,
     "active_size": 2 * MiB, "stream": 0, "segment_type": "large",
     "blocks": [
         {"size": 2 * MiB, "state": "active_allocated",
          "history": [{"addr": BASE, "real_size": 1000, "frames": main[:1]},
                      {"addr": BASE, "real_size": 2 * MiB - 5, "frames": main}]},
         {"size": 1 * MiB, "state": "inactive"},
         {"size": 3 * MiB, "state": "active_awaiting_free",
          "history": [{"addr": BASE + 3 * MiB, "real_size": 3 * MiB, "frames": main[1:]}]}]},
    {"device": 0, "address": BASE + GiB, "total_size": 2 * MiB, "allocated_size": 0,
     "active_size": 0, "stream": 0, "segment_type": "small",
     "blocks": [{"size": 512, "state": "inactive", "history": []},
                {"size": 2 * MiB - 512, "state": "inactive"}]},
]
synthetic["legacy-list"] = legacy_segments
# Legacy history blocks inside a dict, and user_defined trace entries.
synthetic["legacy-history"] = snapshot(
    copy.deepcopy(legacy_segments),
    [[ev("user_defined", 0, 0, 5, [], user_metadata="epoch 1"),
      ev("alloc", BASE, 2 * MiB - 5, 6, main),
      ev("user_defined", 0, 0, 7, [], user_metadata="epoch 2")]])
del synthetic["legacy-history"]["allocator_settings"]
del synthetic["legacy-history"]["external_annotations"]

# Unknown keys everywhere are ignored.
uk = snapshot([seg(0, BASE, [blk(BASE, 2 * MiB, 100, "active_allocated", main)],
                   future_key=[1, 2, {"x": None}])],
              [trace(0, 2, 100, [dict(f, fx_node_op="call", fx_node_name="n") for f in main])],
              settings(future_setting=3.5, roundup_power2_divisions={"1": 2, "2": 2, "64": 8}),
              [{"device": 0, "time_us": 5, "name": "fwd", "stage": "START", "extra": "x", "n": 3}])
uk["segments"][0]["blocks"][0]["future_block_key"] = (1, 2)
for e in uk["device_traces"][0]:
    e["pool_id"] = (0, 0)
uk["trace_alloc_max_entries"] = [2000000]
uk["trace_alloc_overflowed"] = [False]
uk["future"] = {"a": b"bytes", "b": 1.5}
synthetic["unknown-keys"] = uk

# Allocator settings with values set; SIZE_MAX written unsigned (9 bytes).
rd = {str(1 << i): (1 if (1 << i) <= 256 else 4) for i in range(16)}
synthetic["settings"] = snapshot([], [[]], settings(
    PYTORCH_CUDA_ALLOC_CONF="roundup_power2_divisions:[256:1,>:4],max_split_size_mb:128,"
                            "garbage_collection_threshold:0.8",
    max_split_size=128 * MiB, garbage_collection_threshold=0.8, release_lock_on_cudamalloc=True,
    roundup_power2_divisions=rd))
synthetic["settings-sizemax"] = snapshot([], [[]], settings(
    max_split_size=(1 << 64) - 1, expandable_segments=True,
    PYTORCH_CUDA_ALLOC_CONF="expandable_segments:True"))

# Extreme values: 9-byte sizes, negative (signed) stream handles, an OOM.
synthetic["big-values"] = snapshot(
    [seg(0, (1 << 63) + 4096, [blk((1 << 63) + 4096, 2 * MiB, 1, "active_allocated")],
         stream=-1, segment_pool_id=(7, -3))],
    [[ev("alloc", (1 << 63) + 4096, (1 << 64) - 1, 1, [], stream=-1),
      ev("oom", 123456789, 1 << 40, 2, main, stream=(1 << 64) - 2),
      ev("snapshot", 0, 77, 3, [], compile_context="ctx", user_metadata="meta")]])

# Equal frames in distinct dicts and lists still make one stack.
synthetic["equal-frames"] = snapshot(
    [seg(0, BASE, [blk(BASE, 2 * MiB, 5, "active_allocated", copy.deepcopy(main))])],
    [[ev("alloc", BASE, 5, 1, copy.deepcopy(main)), ev("alloc", BASE + 512, 5, 2, copy.deepcopy(main)),
      ev("alloc", BASE + 1024, 5, 3, main), ev("alloc", BASE + 1536, 5, 4, main[:2])]])

synthetic["empty"] = snapshot([], [])
synthetic["annotations"] = snapshot([], [[]], ann=[
    {"stage": "START", "name": "Optimizer.step#AdamW.step", "device": 0, "time_us": 10},
    {"stage": "END", "name": "Optimizer.step#AdamW.step", "device": 1, "time_us": 20},
    {"name": "no stage", "device": 0, "time_us": 30}])

# A real snapshot re-pickled at every protocol vramkit reads.
probe = summarize.load(os.path.join(HERE, "..", "..", "..", "testdata", "snapshots",
                                    "probe-default.pickle"))
protocols = {f"probe-p{p}": (probe, p) for p in (2, 3, 5)}

# Hostile: valid pickles, not valid snapshots.
good_ev = ev("alloc", BASE, 10, 1, [])


def with_event(**kw):
    e = dict(good_ev)
    for k, v in kw.items():
        if v is DEL:
            del e[k]
        else:
            e[k] = v
    return snapshot([], [[e]])


DEL = object()
good_seg = seg(0, BASE, [blk(BASE, 2 * MiB, 0, "inactive")])


def with_seg(**kw):
    s = copy.deepcopy(good_seg)
    for k, v in kw.items():
        if v is DEL:
            del s[k]
        else:
            s[k] = v
    return snapshot([s], [])


def with_block(**kw):
    b = dict(good_seg["blocks"][0])
    for k, v in kw.items():
        if v is DEL:
            del b[k]
        else:
            b[k] = v
    return with_seg(blocks=[b])


hostile.update({
    "int": 42,
    "str": "segments",
    "no-segments": {"device_traces": [[good_ev]]},
    "segments-int": {"segments": 5},
    "segment-str": {"segments": ["x"]},
    "segment-no-address": with_seg(address=DEL),
    "segment-negative-address": with_seg(address=-4096),
    "segment-address-str": with_seg(address="0x7f"),
    "segment-no-blocks": with_seg(blocks=DEL),
    "segment-blocks-dict": with_seg(blocks={}),
    "block-int": with_seg(blocks=[7]),
    "block-no-size": with_block(size=DEL),
    "block-size-float": with_block(size=2.0),
    "block-bad-state": with_block(state="freed"),
    "block-frames-str": with_block(frames="main"),
    "traces-dict": dict(snapshot([], []), device_traces={0: []}),
    "trace-int": snapshot([], [5]),
    "trace-entry-int": snapshot([], [[1, 2]]),
    "trace-entry-list": snapshot([], [[[good_ev]]]),
    "event-no-action": with_event(action=DEL),
    "event-action-int": with_event(action=3),
    "event-unknown-action": with_event(action="teleport"),
    "event-no-addr": with_event(addr=DEL),
    "event-no-size": with_event(size=DEL),
    "event-size-str": with_event(size="10"),
    "event-negative-size": with_event(size=-10),
    "event-size-too-big": with_event(size=1 << 64),
    "event-time-str": with_event(time_us="now"),
    "event-stream-float": with_event(stream=1.5),
    "event-frames-int": with_event(frames=3),
    "event-frame-str": with_event(frames=["main"]),
    "event-frame-line-str": with_event(frames=[{"name": "f", "filename": "x", "line": "12"}]),
    "settings-list": dict(snapshot([], []), allocator_settings=[1]),
    "ordered-dict": collections.OrderedDict(segments=[]),
})

# A frame whose filename str a trace entry far earlier memoized (after the
# common words, in a chunk whose memo entries nothing fetches later; the only
# other fetch of it), fetched again (the frame, in a new stack) far later:
# the parallel loader must keep the str, or take it into the frame, until
# then.
late_y = "".join(["/late/", "y.py"])
late_x = fr("g", 2, late_y)


def pad(n, t0):
    return [ev("alloc", BASE + 0x1000 * (i + 1), 512, t0 + i, []) for i in range(n)]


synthetic["late-frame-str"] = snapshot([], [
    [ev("alloc", BASE + 0x20000000, 512, 0, [fr("main", 1)])] + pad(1500, 1)
    + [ev("alloc", BASE, 512, 1600, [fr("f", 1, late_y)])] + pad(3000, 2000)
    + [ev("alloc", BASE + 0x10000000, 512, 5000, [late_x])] + pad(6000, 6000)
    + [ev("free_requested", BASE + 0x10000000, 512, 20000, [late_x, fr("h", 3)])]])

os.makedirs(os.path.join(HERE, "synthetic"), exist_ok=True)
os.makedirs(os.path.join(HERE, "hostile"), exist_ok=True)
for name, obj in synthetic.items():
    path = os.path.join(HERE, "synthetic", name + ".pickle")
    with open(path, "wb") as f:
        pickle.dump(obj, f, protocol=4)
    summarize.write(path, obj)
for name, (obj, proto) in protocols.items():
    path = os.path.join(HERE, "synthetic", name + ".pickle")
    with open(path, "wb") as f:
        pickle.dump(obj, f, protocol=proto)
    summarize.write(path, obj)
for name, obj in hostile.items():
    with open(os.path.join(HERE, "hostile", name + ".pickle"), "wb") as f:
        pickle.dump(obj, f, protocol=4)
print(f"wrote {len(synthetic) + len(protocols)} synthetic and {len(hostile)} hostile pickles")
