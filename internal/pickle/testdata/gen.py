#!/usr/bin/env python3
"""Regenerates golden.json: pickles and Python's own decoding of them.

Run from this directory with python3 (3.8+): python3 gen.py
The Go tests compare the pickle package's output against the "want"
renderings written here, so the expected values come from CPython's
unpickler, not from vramkit.

Rendering (also implemented by render() in golden_test.go):
  None  {"t":"none"}            bool  {"t":"bool","v":b}
  int   {"t":"int","v":"123"}   float {"t":"float","v":"<IEEE bits, hex>"}
  str   {"t":"str","v":s}       bytes {"t":"bytes","v":"<hex>"}
  tuple {"t":"tuple","v":[...]}
  list  {"t":"list","id":n,"v":[...]}  dict {"t":"dict","id":n,"v":[[k,v],...]}
  a list or dict seen before (shared or recursive) {"t":"ref","id":n}
"""
import json
import pickle
import pickletools
import struct
import sys

FORBIDDEN = {"GLOBAL", "STACK_GLOBAL", "REDUCE", "BUILD", "INST", "OBJ", "NEWOBJ",
             "NEWOBJ_EX", "PERSID", "BINPERSID", "EXT1", "EXT2", "EXT4"}
UNSUPPORTED = {"INT", "LONG", "FLOAT", "STRING", "BINSTRING", "SHORT_BINSTRING",
               "UNICODE", "PUT", "GET", "EMPTY_SET", "ADDITEMS", "FROZENSET",
               "BYTEARRAY8", "NEXT_BUFFER", "READONLY_BUFFER"}


def render(v, ids):
    if v is None:
        return {"t": "none"}
    if isinstance(v, bool):
        return {"t": "bool", "v": v}
    if isinstance(v, int):
        return {"t": "int", "v": str(v)}
    if isinstance(v, float):
        return {"t": "float", "v": struct.pack(">d", v).hex()}
    if isinstance(v, str):
        return {"t": "str", "v": v}
    if isinstance(v, bytes):
        return {"t": "bytes", "v": v.hex()}
    if isinstance(v, tuple):
        return {"t": "tuple", "v": [render(x, ids) for x in v]}
    if isinstance(v, (list, dict)):
        if id(v) in ids:
            return {"t": "ref", "id": ids[id(v)]}
        n = ids[id(v)] = len(ids)
        if isinstance(v, list):
            return {"t": "list", "id": n, "v": [render(x, ids) for x in v]}
        return {"t": "dict", "id": n,
                "v": [[render(k, ids), render(x, ids)] for k, x in v.items()]}
    raise TypeError(type(v))


def ops(data):
    return sorted({op.name for op, _, _ in pickletools.genops(data)})


cases = []


def ok(name, data):
    """A pickle that both CPython and vramkit must decode identically."""
    cases.append({"name": name, "pickle": data.hex(), "ops": ops(data),
                  "want": render(pickle.loads(data), {})})


def dump(name, value, protos=(2, 3, 4, 5)):
    for p in protos:
        ok(f"{name}/p{p}", pickle.dumps(value, protocol=p))


def reject(name, data):
    """Valid for CPython, refused by vramkit at the first op it does not run."""
    ops = list(pickletools.genops(data))
    if ops[0][0].name != "PROTO":  # protocols 0 and 1: refused at offset 0
        first = (ops[0][0].name, 0)
    else:
        first = next((op.name, pos) for op, _, pos in ops
                     if op.name in FORBIDDEN | UNSUPPORTED)
    cases.append({"name": name, "pickle": data.hex(), "reject_op": first[0],
                  "reject_offset": first[1]})


P4 = b"\x80\x04"

# Scalars, through Python's own pickler at every supported protocol.
ints = [0, 1, 255, 256, 65535, 65536, -1, -255, -256, 2**31 - 1, -2**31, 2**31,
        -2**31 - 1, 2**32, 2**40 + 7, 140642728542208, 1796001206311343,
        2**63 - 1, -2**63, 2**63, 2**64 - 1, 2**64, -2**64, 10**30, -10**30,
        2**2040, -2**2047 - 5]
dump("ints", ints)
dump("floats", [0.0, -0.0, 1.5, -3.25, 0.8, 1e308, 5e-324, float("inf"),
                float("-inf"), float("nan")])
dump("none-bools", [None, True, False])
dump("strings", ["", "a", "action", "é", "日本語", "\U0001F600", "x" * 255,
                 "y" * 256, "line\nbreak\x00nul"])
dump("bytes", [b"", b"abc", bytes(range(256)), b"\x00" * 300], protos=(3, 4, 5))
dump("empty-containers", [[], (), {}, [[]], ((),), {"": {}}])
dump("tuples", [(1,), (1, 2), (1, 2, 3), (1, 2, 3, 4), (0, 0)])
dump("long-list", list(range(1200)), protos=(2, 4))  # APPENDS in batches of 1000
dump("long-dict", {f"k{i}": i for i in range(1200)}, protos=(2, 4))  # SETITEMS too
dump("dict-keys", {1: "int", None: "none", (1, "a"): "tuple", 2.5: "float",
                   -7: "neg", "s": "str", b"k": "bytes"}, protos=(3, 4, 5))

# Shared and recursive objects: the memo must hand back the same object.
shared_list = [1, 2]
shared_dict = {"name": "f", "line": 3}
frames = [shared_dict, shared_dict]
dump("shared", {"a": shared_list, "b": shared_list, "frames": [frames, frames],
                "d": [shared_dict, {"inner": shared_dict}], "s": ["same", "same"]})
rec = []
rec.append(rec)
dump("recursive-list", rec)
rd = {}
rd["self"] = rd
dump("recursive-dict", rd)
rl = []
rt = (rl,)
rl.append(rt)
dump("recursive-tuple", rt)  # POP + BINGET
big = []
bt = (big, 1, 2, 3, 4)
big.append(bt)
dump("recursive-long-tuple", bt)  # POP_MARK + BINGET
dump("many-memo", [[i] for i in range(300)] * 2, protos=(2,))  # LONG_BINPUT/GET

# Hand-made opcode sequences, decoded by CPython for the expected value.
for n in range(10):  # LONG1 of 0..9 bytes, positive and negative
    for fill, top in ((0x5a, 0x3f), (0xa5, 0xc1), (0xff, 0xff), (0x00, 0x80)):
        body = bytes([fill] * max(n - 1, 0) + ([top] if n else []))
        ok(f"long1/{n}/{fill:02x}{top:02x}", P4 + b"\x8a" + bytes([n]) + body + b".")
ok("long1/2^64-1", P4 + b"\x8a\x09" + b"\xff" * 8 + b"\x00.")
ok("long1/-2^64", P4 + b"\x8a\x09" + b"\x00" * 8 + b"\xff.")
for body in (b"", b"\x01", b"\xff", b"\x00" * 8 + b"\x01", b"\xfe" * 300):
    ok(f"long4/{len(body)}", P4 + b"\x8b" + struct.pack("<i", len(body)) + body + b".")
ok("binint/neg", P4 + b"J" + struct.pack("<i", -123456) + b".")
ok("binint2/max", P4 + b"M\xff\xff.")
ok("binunicode8", P4 + b"\x8d" + struct.pack("<Q", 5) + "héé".encode()[:5] + b".")
ok("binunicode", b"\x80\x02X" + struct.pack("<I", 3) + b"abc.")
ok("binbytes8", P4 + b"\x8e" + struct.pack("<Q", 3) + b"xyz.")
ok("binbytes", b"\x80\x03B" + struct.pack("<I", 4) + b"\x00\x01\x02\x03.")
ok("short-binbytes", b"\x80\x03C\x02hi.")
ok("list-dict-tuple-ops", b"\x80\x02(K\x01K\x02l(X\x01\x00\x00\x00aK\x03d(K\x04t\x87.")
ok("dup-pop", P4 + b"K\x01\x32\x86K\x09\x30.")
ok("pop-mark", P4 + b"K\x07(K\x01K\x02\x31.")
ok("pop-on-mark", b"\x80\x02(0K\x07.")  # POP right after MARK discards the mark
ok("setitem-append", P4 + b"}X\x01\x00\x00\x00k]K\x01aK\x02as.")
ok("empty-tuple", P4 + b").")
ok("none-true-false", P4 + b"N\x88\x89\x87.")
ok("frame", P4 + b"\x95" + struct.pack("<Q", 3) + b"K\x05.")
ok("frames", P4 + b"\x95" + struct.pack("<Q", 3) + b"(K\x01" + b"\x95" + struct.pack("<Q", 6)
   + b"K\x02K\x03t.")
ok("binput-binget", b"\x80\x02]q\x07h\x07\x86.")
ok("long-binput-get", b"\x80\x02]r\x00\x00\x01\x00j\x00\x00\x01\x00\x86.")
ok("memoize-after-binput", P4 + b"K\x01q\x050K\x02\x940h\x01.")  # MEMOIZE uses len(memo)
ok("binput-overwrite", b"\x80\x02K\x01q\x00K\x02q\x00\x86h\x00\x86.")
ok("dup-keys", b"\x80\x02}(X\x01\x00\x00\x00aK\x01X\x01\x00\x00\x00aK\x02K\x01K\x03\x88K\x04u.")
ok("float-int-key", b"\x80\x02}(K\x01K\x01G" + struct.pack(">d", 1.0) + b"K\x02u.")
for p in (2, 3, 4, 5):
    ok(f"proto/{p}", bytes([0x80, p]) + b"K\x2a.")
ok("trailing-bytes", P4 + b"K\x01.garbage after stop\xff")

# Things CPython runs or that no snapshot uses: vramkit refuses them.
class Obj:
    pass


import collections
reject("ordereddict/p2", pickle.dumps(collections.OrderedDict(a=1), 2))
reject("ordereddict/p4", pickle.dumps(collections.OrderedDict(a=1), 4))
reject("instance/p2", pickle.dumps(Obj(), 2))
reject("set/p4", pickle.dumps({1, 2}, 4))
reject("frozenset/p4", pickle.dumps(frozenset({1}), 4))
reject("bytearray/p5", pickle.dumps(bytearray(b"ab"), 5))
reject("bytes/p2", pickle.dumps(b"ab", 2))
reject("proto0", pickle.dumps([1, "a"], 0))
reject("proto1", pickle.dumps({"a": [1, 2.5, "x"]}, 1))

cases.sort(key=lambda c: c["name"])
with open("golden.json", "w") as f:
    f.write('{"python": "%s", "cases": [\n' % sys.version.split()[0])
    f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
    f.write("\n]}\n")
print(f"wrote {len(cases)} cases")
