#!/usr/bin/env python3
"""cuSOLVER (through PyTorch) on the same inputs as our bench, in the same device command.

usage: torch_anchor.py OURS.json [--out merged.json] [--samples 15]

Reads the records written by `examples/bench.rs --json`, redraws each input from its seed
with the same counter-based generator (linalg_common::rng::uniform_vec, reproduced here on the
GPU in int64 arithmetic), checks the checksum, times the matching torch ops with CUDA events
(median over samples of back-to-back calls, after warm-up), and prints one table with the
ratio anchor / ours (> 1: we are faster).
"""
import argparse, json, math, statistics, sys
import torch

M64 = (1 << 64) - 1

def s64(c):
    c &= M64
    return c - (1 << 64) if c >= (1 << 63) else c

GOLD, C1, C2 = s64(0x9E3779B97F4A7C15), s64(0xBF58476D1CE4E5B9), s64(0x94D049BB133111EB)

def lsr(z, s):  # logical shift right of int64
    return (z >> s) & ((1 << (64 - s)) - 1)

def uniform_pm1(seed, length, device="cuda"):
    """Value i = bits(mix(seed, i)) >> 40, scaled to [-1, 1): as linalg_common::rng."""
    out = torch.empty(length, dtype=torch.float32, device=device)
    chunk = 1 << 26
    base = s64(seed * 0x9E3779B97F4A7C15 + 0x94D049BB133111EB)
    for start in range(0, length, chunk):
        i = torch.arange(start, min(length, start + chunk), dtype=torch.int64, device=device)
        z = i * C1 + base
        z = (z ^ lsr(z, 30)) * C1
        z = (z ^ lsr(z, 27)) * C2
        z = z ^ lsr(z, 31)
        bits = lsr(z, 40)
        out[start:start + len(i)] = bits.to(torch.float32) * (2.0 / 16777216.0) - 1.0
    return out

def time_op(fn, samples, target_s=0.05):
    for _ in range(2):
        fn()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); fn(); e.record(); torch.cuda.synchronize()
    per = max(s.elapsed_time(e) / 1e3, 1e-7)
    calls = max(1, min(200, math.ceil(target_s / per)))
    ts = []
    for _ in range(samples):
        s.record()
        for _ in range(calls):
            fn()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) / calls)
    return statistics.median(ts)

def spd_dominant(seed, b, n):
    """As linalg_common::matgen::spd_dominant: u[min(i,j)][max(i,j)] off the diagonal, n on it."""
    u = uniform_pm1(seed, b * n * n).reshape(b, n, n)
    up = torch.triu(u, 1)
    a = up + up.mT
    a.diagonal(dim1=-2, dim2=-1).fill_(float(n))
    return a

def inputs(rec):
    op, b, m, n = rec["op"], rec["batch"], rec["m"], rec["n"]
    if op in ("tsqr", "geqrf", "orgqr", "qr"):
        return uniform_pm1(rec["seed"], b * m * n).reshape(b, m, n)
    if op == "gemm":
        return uniform_pm1(rec["seed"], n * n).reshape(n, n)
    return spd_dominant(rec["seed"], b, n)

def anchors(rec, a):
    op, mode = rec["op"], rec["mode"]
    b, n, k = rec["batch"], rec["n"], rec.get("rhs", 0)
    if op in ("potrf", "cholesky_solve", "solve_triangular") and b == 1:
        a = a[0]  # the unbatched cuSOLVER path
    if op == "potrf":
        return {"torch.linalg.cholesky_ex": lambda: torch.linalg.cholesky_ex(a)}
    if op in ("cholesky_solve", "solve_triangular"):
        l = torch.linalg.cholesky(a)
        rhs = uniform_pm1(rec["seed"] + 1, b * n * k).reshape(b, n, k)
        if b == 1:
            rhs = rhs[0]
        if op == "cholesky_solve":
            return {"torch.cholesky_solve": lambda: torch.cholesky_solve(rhs, l)}
        return {"torch.linalg.solve_triangular": lambda: torch.linalg.solve_triangular(l, rhs, upper=False)}
    if op == "gemm":
        return {"torch.mm (fp32, TF32 off)": lambda: a @ a.T}
    if op == "geqrf":
        return {"torch.geqrf": lambda: torch.geqrf(a)}
    if op == "orgqr":
        h, tau = torch.geqrf(a)
        return {"torch.linalg.householder_product": lambda: torch.linalg.householder_product(h, tau)}
    if op == "qr":
        return {"torch.linalg.qr": lambda: torch.linalg.qr(a, mode="reduced")}
    if op == "tsqr":
        if mode == "reduced":
            return {"torch.linalg.qr": lambda: torch.linalg.qr(a, mode="reduced"), "torch.geqrf": lambda: torch.geqrf(a)}
        return {"torch.linalg.qr(r)": lambda: torch.linalg.qr(a, mode="r")}
    return {}

def main():
    p = argparse.ArgumentParser()
    p.add_argument("ours")
    p.add_argument("--out")
    p.add_argument("--samples", type=int, default=15)
    args = p.parse_args()
    recs = json.load(open(args.ours))
    torch.backends.cuda.matmul.allow_tf32 = False
    rows = []
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}", file=sys.stderr)
    for rec in recs:
        a = inputs(rec)
        cs = a.double().sum().item()
        same = abs(cs - rec["checksum"]) <= 1e-9 * max(1.0, abs(rec["checksum"])) + 1e-6
        if not same:
            print(f"{rec['name']}: checksum {cs} != ours {rec['checksum']}: inputs differ", file=sys.stderr)
            sys.exit(1)
        for name, fn in anchors(rec, a).items():
            t = time_op(fn, args.samples)
            rows.append({**rec, "anchor": name, "anchor_ms": t, "ratio": t / rec["ours_ms"], "same_input": same})
        del a
        torch.cuda.empty_cache()
    print(f"{'case':<34} {'ours ms':>9} {'anchor':<30} {'anchor ms':>10} {'anchor/ours':>11} {'GB/s':>7} {'orth':>9} {'resid':>9}")
    for r in rows:
        f = lambda x: "-" if x is None else f"{x:.1e}"
        print(f"{r['name']:<34} {r['ours_ms']:>9.4f} {r['anchor']:<30} {r['anchor_ms']:>10.4f} {r['ratio']:>11.2f} {r['gbps']:>7.0f} {f(r['orth']):>9} {f(r['resid']):>9}")
    if args.out:
        json.dump(rows, open(args.out, "w"), indent=1)

if __name__ == "__main__":
    main()
