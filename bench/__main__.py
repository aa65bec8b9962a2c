"""``python -m bench``: run the workloads on sqlengine and sqlite3 and compare them.

Prints a table (time per engine, ratio, peak memory per engine, memory ratio) and the
geometric mean of the time ratios; writes JSON and, when matplotlib is installed, a PNG bar
chart of the ratios. Each (workload, engine) pair runs in its own subprocess.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

from bench.workloads import WORKLOADS


def run_one(workload: str, module: str, scale: float) -> dict:
    proc = subprocess.run(
        [sys.executable, "-m", "bench.runner", workload, module, str(scale)],
        capture_output=True, text=True,
    )
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        return {"error": last}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _mem_mb(r: dict) -> float:
    return max(r["peak_rss_kb"] - r["base_rss_kb"], 0) / 1024


def format_table(results: dict, engine: str, reference: str) -> str:
    head = f"{'workload':<22}{engine:>12}{reference:>12}{'ratio':>8}{'mem MB':>9}{'ref MB':>9}{'mem x':>7}"
    lines = [head, "-" * len(head)]
    ratios = []
    for name, res in results.items():
        a, b = res[engine], res[reference]
        if "error" in a or "error" in b:
            lines.append(f"{name:<22}  error: {(a.get('error') or b.get('error'))[:60]}")
            continue
        ratio = a["seconds"] / b["seconds"] if b["seconds"] > 0 else float("inf")
        ratios.append(ratio)
        ma, mb = _mem_mb(a), _mem_mb(b)
        mx = ma / mb if mb > 0.5 else float("nan")
        lines.append(f"{name:<22}{a['seconds']:>11.3f}s{b['seconds']:>11.3f}s{ratio:>7.2f}x"
                     f"{ma:>9.1f}{mb:>9.1f}{mx:>7.2f}")
    if ratios:
        gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        lines.append(f"geometric mean of time ratios: {gm:.2f}x over {len(ratios)} workloads")
    return "\n".join(lines)


def write_chart(results: dict, engine: str, reference: str, path: Path) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    names, ratios = [], []
    for name, res in results.items():
        a, b = res[engine], res[reference]
        if "error" not in a and "error" not in b and b["seconds"] > 0:
            names.append(name)
            ratios.append(a["seconds"] / b["seconds"])
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(names) + 1.5))
    ax.barh(names, ratios, color=["#4c72b0" if r <= 3 else "#c44e52" for r in ratios])
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel(f"time of {engine} / time of {reference} (log scale, lower is better)")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    ap.add_argument("workloads", nargs="*", help=f"any of: {', '.join(WORKLOADS)}")
    ap.add_argument("--scale", type=float, default=1.0, help="size factor (default 1)")
    ap.add_argument("--engine", default="sqlengine")
    ap.add_argument("--reference", default="sqlite3")
    ap.add_argument("--json", type=Path, default=Path("bench/results.json"))
    ap.add_argument("--png", type=Path, default=Path("bench/results.png"))
    args = ap.parse_args(argv)
    names = args.workloads or list(WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        ap.error(f"unknown workload(s): {', '.join(unknown)}")
    results: dict = {}
    total = len(names) * 2
    done = 0
    for name in names:
        results[name] = {}
        for module in (args.engine, args.reference):
            done += 1
            print(f"\r[{done}/{total}] {name} on {module} ...".ljust(60), end="", file=sys.stderr,
                  flush=True)
            results[name][module] = run_one(name, module, args.scale)
    print("\r".ljust(60), file=sys.stderr)
    print(format_table(results, args.engine, args.reference))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"scale": args.scale, "results": results}, indent=2))
    if write_chart(results, args.engine, args.reference, args.png):
        print(f"chart: {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
