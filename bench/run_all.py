"""Run every benchmark and write bench/out/results.json and bench/out/results.md. `make bench` runs this.

    .venv/bin/python bench/run_all.py [--sizes 1000,10000] [--repeats 3] [--rounds 3]
        [--prefect-docs 2000] [--no-incremental] [--quick]

Steps (each also runs on its own, see its --help):
1. bench/profile_hot_path.py   pyinstrument reports of the text and HTML paths -> bench/out/profile-*.txt;
   bench/speed_accuracy.py     the text path's variants (shipped, rules only, model alone) on new pages
   bench/lockstep.py           the columnar engine: a batch cleaned 1 and 32 documents at a time (CPU, peak RSS)
   bench/batch_memory.py       a worker's peak RSS against its batch size (500, 1,000, 10,000 documents)
   bench/long_document.py      one document's time and peak RSS as its length grows (30k to 400k lines)
   bench/devset_corpus.py      every dev page as .html and .txt through `newsclean run`: where each document ends
2. bench/bench_baselines.py    text cleaner vs C4-style filter and jusText; HTML path vs trafilatura,
                               resiliparse and jusText; Prefect flow vs the same work without it
3. bench/bench_end_to_end.py   `newsclean run` at each size: wall, CPU, peak RSS, marginal rate;
                               incremental re-runs (no change, 1% changed) at the largest size
4. bench/syndication.py        near-duplicate clusters: pairwise precision/recall on generated copies,
                               cost and memory of the clustering at 10k-100k documents
Generated corpora go to bench/out/corpora/ (git-ignored) and are reused while their manifest matches.
--quick: 1 round/repeat, sizes 200,1000, 400 Prefect docs (a smoke run, minutes instead of an hour).
100k documents: pass --sizes 1000,10000,100000 (needs ~1.6 GB of disk and a long quiet machine).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
OUT = BENCH / "out"
sys.path.insert(0, str(BENCH))


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for pkg in ("newsclean", "prefect", "trafilatura", "ftfy", "justext", "resiliparse", "pyinstrument", "pyarrow", "lightgbm"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = None
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = None
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {"date_utc": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "cpu": cpu, "cores": os.cpu_count(),
            "mem_gb": round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
            "python": platform.python_version(), "platform": platform.platform(), "commit": commit,
            "load_average_at_start": load, "versions": versions}


def markdown(res: dict) -> str:
    m = res["machine"]
    lines = [f"# Benchmark run {m['date_utc']}", "",
             f"Machine: {m['cpu']}, {m['cores']} cores, {m['mem_gb']} GB; Python {m['python']}; commit {m['commit']}; "
             f"load average at start {m['load_average_at_start']}", "",
             "Versions: " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()), ""]
    v = res.get("variants")
    if v:
        lines += [f"## Text path variants on new pages ({v['pages']} dev pages, {v['rounds']} rounds, medians)", "",
                  "| variant | pages/CPU-s | x shipped | F1 (in sample) |", "|---|---|---|---|"]
        for name, row in v["variants"].items():
            lines.append(f"| {name} | {row['pages_per_cpu_s']} | {row['ratio_to_shipped']} | {row['in_sample_F1'] or ''} |")
        lines.append("")
    d = res.get("devset_corpus")
    if d:
        lines += ["## The dev pages as one corpus (`bench/devset_corpus.py`)", "",
                  f"{d['read']} documents: {d['cleaned']} cleaned, {d['quarantined']} quarantined, {d['wall_s']} s wall", "",
                  "| documents | stage | reason |", "|---|---|---|"]
        lines += [f"| {n} | {stage} | {reason} |" for stage, reason, n in d["by_reason"]]
        lines.append("")
    rows = res.get("long_document")
    if rows:
        lines += ["## One long document (`bench/long_document.py`)", "", "| lines | MB | CPU-s | peak RSS MB | outcome |",
                  "|---|---|---|---|---|"]
        lines += [f"| {r['lines']} | {r['mb']} | {r['cpu_s']} | {r['peak_rss_mb']} | {r['outcome']} |" for r in rows]
        lines.append("")
    b = res.get("baselines", {})
    for group in ("text", "html"):
        if group not in b:
            continue
        lines += [f"## {group} group ({b.get('pages')} dev pages, {b.get('rounds')} rounds, medians)", "",
                  "| method | docs/CPU-s | docs/s wall | F1 | leak |", "|---|---|---|---|---|"]
        for name, v in b[group].items():
            if isinstance(v, dict) and "docs_per_cpu_s" in v:
                lines.append(f"| {name} | {v['docs_per_cpu_s']} | {v['docs_per_s_wall']} | {v.get('F1')} | {v.get('leak')} |")
        lines += ["", "Ratios (CPU): " + ", ".join(f"{k} {v}" for k, v in b[group]["ratios_cpu"].items()), ""]
    if "text_vs_trafilatura_cpu" in b:
        lines += [f"Text cleaner vs trafilatura on the same pages' HTML (CPU, one core): {b['text_vs_trafilatura_cpu']}x", ""]
    if "prefect" in b:
        p = b["prefect"]
        lines += ["## Prefect overhead", "",
                  f"{p['docs']} docs: flow wall {p['median_flow_wall_s']} s (inside the flow {p['median_flow_inner_s']} s), "
                  f"without Prefect {p['median_plain_wall_s']} s (work {p['median_plain_inner_s']} s). "
                  f"Overhead share of wall: {p['overhead_share_wall']}; inside the flow: {p['overhead_share_in_flow']}", ""]
    e = res.get("end_to_end", {})
    if e.get("sizes"):
        lines += ["## End to end (`newsclean run`, medians)", "",
                  "| docs | MB | wall s | flow s | clean s | start-up s | CPU s | docs/s wall | peak RSS MB (largest process) | peak RSS MB (tree) | peak PSS MB (tree) |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for n, s in e["sizes"].items():
            lines.append(f"| {n} | {s['manifest']['bytes'] / 1e6:.1f} | {s['median_wall_s']} | {s['median_flow_s']} | {s['median_clean_s']} | "
                         f"{s['median_startup_s']} | {s['median_cpu_s']} | {s['docs_per_s_wall']} | {s['median_peak_rss_mb']} | {s['median_peak_tree_rss_mb']} | {s.get('median_peak_tree_pss_mb')} |")
        if e.get("marginal"):
            mg = e["marginal"]
            lines += ["", f"Marginal rate {mg['n']} -> {mg['N']}: {mg['docs_per_s']} docs/s, {mg['mb_per_s']} MB/s; "
                          f"fixed start-up {mg['fixed_startup_s']} s; CPU {mg['cpu_s_per_doc']} s/doc", ""]
        if e.get("incremental"):
            i = e["incremental"]
            lines += [f"Incremental at {i['N']}: first {i['first']['wall_s']} s, no change {i['no_change']['wall_s']} s "
                      f"(ratio {i['no_change_ratio']}), 1% changed ({i['changed_files']} files) {i['one_percent']['wall_s']} s "
                      f"(ratio {i['one_percent_ratio']})", ""]
    y = res.get("syndication", {})
    if y.get("accuracy"):
        acc = y["accuracy"]
        lines += ["## Near-duplicate clusters", "",
                  f"{acc['documents']} documents ({acc['copies']} copies): pairwise precision {acc['precision']:.3f}, "
                  f"recall {acc['recall']:.3f}", ""]
    for row in y.get("scale", []):
        lines.append(f"- {row['documents']} documents: signatures {row['signature_ms_per_doc']} CPU-ms each, clustering "
                     f"{row['build_cpu_s']} CPU-s, anonymous peak {row['build_anon_peak_mb']} MB, "
                     f"{100 * row['cpu_share_of_run']:.1f}% of a run's CPU")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--prefect-docs", type=int, default=2000)
    ap.add_argument("--no-incremental", action="store_true")
    ap.add_argument("--skip", default="", help="comma list: profile, lockstep, batch_memory, long_document, devset_corpus, variants, baselines, "
                                               "end_to_end, syndication")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args(argv)
    if a.quick:
        a.sizes, a.repeats, a.rounds, a.prefect_docs = "200,1000", 1, 1, 400
    skip = set(filter(None, a.skip.split(",")))
    OUT.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PREFECT_HOME", str(OUT / "prefect"))
    res: dict = {"machine": machine(), "args": vars(a)}
    import batch_memory
    import bench_baselines
    import bench_end_to_end
    import devset_corpus
    import lockstep
    import long_document
    import profile_hot_path
    import speed_accuracy
    import syndication

    if "profile" not in skip:
        print("== profile", file=sys.stderr)
        res["profile"] = profile_hot_path.main(["--html", "60"])
    if "lockstep" not in skip:
        print("== lockstep", file=sys.stderr)
        res["lockstep"] = lockstep.main(["--sizes", "1,32", "--rounds", str(a.rounds)])
    if "batch_memory" not in skip:
        print("== batch memory", file=sys.stderr)
        res["batch_memory"] = batch_memory.main(["--sizes", "200,1000" if a.quick else "500,1000,10000"])
    if "long_document" not in skip:
        print("== one long document", file=sys.stderr)
        res["long_document"] = long_document.main(["--lines", "30000,60000" if a.quick else "30000,60000,120000,400000"])
    if "devset_corpus" not in skip:
        print("== the dev pages as one corpus", file=sys.stderr)
        res["devset_corpus"] = devset_corpus.main([str(OUT / "corpora" / "devset")])
    if "variants" not in skip:
        print("== text path variants", file=sys.stderr)
        res["variants"] = speed_accuracy.main(["--rounds", str(a.rounds)])
    if "baselines" not in skip:
        print("== baselines", file=sys.stderr)
        res["baselines"] = bench_baselines.main(["--rounds", str(a.rounds), "--prefect-docs", str(a.prefect_docs),
                                                 "--prefect-rounds", str(max(1, min(a.rounds, 2)))])
    if "end_to_end" not in skip:
        print("== end to end", file=sys.stderr)
        res["end_to_end"] = bench_end_to_end.main(["--sizes", a.sizes, "--repeats", str(a.repeats)]
                                                  + ([] if a.no_incremental else ["--incremental"]))
    if "syndication" not in skip:
        print("== near-duplicate clusters", file=sys.stderr)
        res["syndication"] = syndication.main(["--sizes", "10000" if a.quick else "10000,50000,100000"])
    res["machine"]["load_average_at_end"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    (OUT / "results.json").write_text(json.dumps(res, indent=2, default=str) + "\n")
    (OUT / "results.md").write_text(markdown(res))
    print(f"wrote {OUT / 'results.json'} and {OUT / 'results.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
