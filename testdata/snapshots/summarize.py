#!/usr/bin/env python3
"""Writes NAME.json next to each snapshot NAME.pickle[.gz] given: a summary
computed by CPython's pickle from the same file, which the Go snapshot
tests compare snapshot.Load's result against.

    python3 summarize.py *.pickle *.pickle.gz

The summary applies the format's documented rules (allocator.md section 1),
independently of vramkit's code:
  * a top-level list is the legacy bare list of segments;
  * a block without "address" starts where the previous block ended;
  * a legacy block's "history" gives its frames and, when it has no
    requested_size, its real_size (last history entry);
  * "active_awaiting_free" is the docstring's name of active_pending_free;
  * the legacy "user_defined" action carries no memory: vramkit files it
    as "snapshot";
  * stream handles are kept as unsigned 64-bit values;
  * roundup_power2_divisions maps its interval start in MB (1..32768) to
    the interval index log2(MB).
"""
import collections
import gzip
import json
import os
import pickle
import sys

M64 = (1 << 64) - 1


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return pickle.loads(data)


def frames_of(d):
    if "frames" in d:
        return d["frames"] or []
    hist = d.get("history") or []
    return (hist[-1].get("frames") or []) if hist else []


def frame(fr):
    return {"name": fr.get("name", ""), "file": fr.get("filename", ""), "line": fr.get("line", 0)}


def top_frame(fs):
    return frame(fs[0]) if fs else None


def state(s):
    return {"active_awaiting_free": "active_pending_free", None: "inactive"}.get(s, s)


def blocks(seg):
    out, addr = [], seg["address"]
    for b in seg["blocks"]:
        a = b.get("address", addr)
        req = b.get("requested_size")
        if req is None:
            hist = b.get("history") or []
            req = hist[-1].get("real_size", 0) if hist else 0
        fs = frames_of(b)
        out.append({"address": a, "size": b["size"], "requested_size": req,
                    "state": state(b.get("state")), "frames": len(fs), "top_frame": top_frame(fs)})
        addr = a + b["size"]
    return out


def segment(seg):
    bl = blocks(seg)
    pool = seg.get("segment_pool_id", (0, 0))
    return {"device": seg.get("device", 0), "address": seg["address"],
            "total_size": seg.get("total_size") or sum(b["size"] for b in bl),
            "allocated_size": seg.get("allocated_size", 0), "active_size": seg.get("active_size", 0),
            "requested_size": seg.get("requested_size", 0), "stream": seg.get("stream", 0) & M64,
            "large": seg.get("segment_type", "large") != "small", "pool_id": list(pool),
            "expandable": seg.get("is_expandable", False), "frames": len(seg.get("frames") or []),
            "blocks": len(bl), "first_block": bl[0] if bl else None, "last_block": bl[-1] if bl else None}


def event(e):
    action = e["action"]
    if action == "user_defined":
        action = "snapshot"
    fs = e.get("frames") or []
    cc = e.get("compile_context", "")
    return {"action": action, "addr": e["device_free"] if "device_free" in e else e.get("addr", 0),
            "size": e["size"], "stream": e.get("stream", 0) & M64, "time_us": e.get("time_us", 0),
            "frames": len(fs), "top_frame": top_frame(fs),
            "compile_context": "" if cc == "N/A" else cc, "user_metadata": e.get("user_metadata", "")}


def annotation(a):
    extra = {k: v for k, v in a.items()
             if k not in ("device", "time_us", "name", "stage") and isinstance(v, str)}
    return {"device": a.get("device", 0), "time_us": a.get("time_us", 0), "name": a.get("name", ""),
            "stage": a.get("stage", ""), "extra": extra}


def settings(st):
    div = [0] * 16
    for k, n in st.get("roundup_power2_divisions", {}).items():
        div[min(int(k).bit_length() - 1, 15)] = n
    ms = st.get("max_split_size", -1)
    return {"alloc_conf": st.get("PYTORCH_CUDA_ALLOC_CONF", ""),
            "max_split": -1 if ms > (1 << 63) - 1 else ms,
            "gc_threshold": float(st.get("garbage_collection_threshold", 0.0)),
            "expandable": st.get("expandable_segments", False),
            "release_lock": st.get("release_lock_on_cudamalloc", False),
            "roundup_divisions": div}


def summarize(obj):
    legacy = isinstance(obj, list)
    top = {"segments": obj} if legacy else obj
    segs = [segment(s) for s in top["segments"]]
    all_blocks = [b for s in top["segments"] for b in blocks(s)]
    stacks = set()

    def note(fs):
        if fs:
            stacks.add(tuple(tuple(frame(f).values()) for f in fs))
    for s in top["segments"]:
        note(s.get("frames") or [])
        for b in s["blocks"]:
            note(frames_of(b))
    devices = []
    for i, tr in enumerate(top.get("device_traces", [])):
        evs = [event(e) for e in tr]
        for e in tr:
            note(e.get("frames") or [])
        sums = collections.Counter()
        for e in evs:
            sums[e["action"]] += e["size"]
        devices.append({"device": i, "events": len(evs),
                        "actions": dict(collections.Counter(e["action"] for e in evs)),
                        "size_sums": dict(sums), "first": evs[0] if evs else None,
                        "last": evs[-1] if evs else None})
    first_frames = next((e.get("frames") for tr in top.get("device_traces", []) for e in tr
                         if e.get("frames")), [])
    ann = top.get("external_annotations", [])
    return {
        "legacy_list": legacy,
        "segments": len(segs),
        "blocks": len(all_blocks),
        "total_size": sum(s["total_size"] for s in segs),
        "allocated_size": sum(s["allocated_size"] for s in segs),
        "active_size": sum(s["active_size"] for s in segs),
        "block_states": dict(collections.Counter(b["state"] for b in all_blocks)),
        "block_requested": sum(b["requested_size"] for b in all_blocks),
        "first_segment": segs[0] if segs else None,
        "last_segment": segs[-1] if segs else None,
        "devices": devices,
        "settings": settings(top["allocator_settings"]) if "allocator_settings" in top else None,
        "annotations": len(ann),
        "first_annotation": annotation(ann[0]) if ann else None,
        "stacks": len(stacks),
        "frames_sample": [frame(f) for f in first_frames[:3]],
    }


def write(path, obj):
    out = path.split(".pickle")[0] + ".json"
    with open(out, "w") as f:
        json.dump(summarize(obj), f, indent=1, sort_keys=True)
        f.write("\n")
    return out


if __name__ == "__main__":
    for p in sys.argv[1:]:
        print(write(p, load(p)))
