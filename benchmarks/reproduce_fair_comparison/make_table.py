"""Build the results table of RESULTS.md from configs/*.toml and results/*.json.

Usage (from the repository root)::

    python benchmarks/reproduce_fair_comparison/make_table.py

The table replaces what lies between the ``<!-- table:start -->`` and ``<!-- table:end -->``
markers of RESULTS.md; the hand-written text around it is kept. An experiment whose
result file is missing is listed as incomplete, with the command that resumes it.
"""

import json
import math
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
START, END = "<!-- table:start -->", "<!-- table:end -->"
# Cheapest first, the order in which the experiments were run.
ORDER = [
    "enzymes_baseline",
    "enzymes_baseline_long",
    "proteins_baseline",
    "imdb-binary_degree_baseline",
    "imdb-multi_degree_baseline",
    "imdb-binary_constant_baseline",
    "imdb-multi_constant_baseline",
    "nci1_baseline",
    "imdb-binary_degree_gin",
    "proteins_gin",
    "nci1_gin",
    "nci1_gin_long",
    "nci1_gin_long_acc",
]


def _n_candidates(grid):
    return math.prod(len(values) for values in grid.values())


def rows():
    configs = {p.stem: tomllib.loads(p.read_text()) for p in (HERE / "configs").glob("*.toml")}
    names = [n for n in ORDER if n in configs] + sorted(set(configs) - set(ORDER))
    for name in names:
        cfg = configs[name]
        path = HERE / "results" / f"{name}.json"
        result = json.loads(path.read_text()) if path.exists() else None
        yield name, cfg, result


def table():
    lines = [
        "| experiment | data set (features) | model | ours: mean ± std | paper: mean ± std "
        "| ours − paper | in paper SEs | candidates | max epochs / patience | wall time |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, cfg, result in rows():
        grid = cfg["grid"]
        paper_mean, paper_std = cfg["paper"]["mean"], cfg["paper"]["std"]
        paper = "not verified" if math.isnan(paper_mean) else f"{paper_mean:.1f} ± {paper_std:.1f}"
        budget = f"{grid['max_epochs'][0]} / {grid['patience'][0]}"
        data = f"{cfg['dataset']} ({cfg['features']})"
        if result is None:
            ours, diff, flag, wall = "incomplete", "", "", ""
        else:
            mean, std = 100 * result["mean"], 100 * result["std"]
            ours = f"{mean:.1f} ± {std:.1f}"
            wall = f"{result['wall_time_s'] / 60:.0f} min"
            if math.isnan(paper_mean):
                diff, flag = "", ""
            else:
                diff = f"{mean - paper_mean:+.1f}"
                # how many standard errors of the paper's 10-fold mean (std / sqrt(10))
                distance = (mean - paper_mean) / (paper_std / math.sqrt(10))
                flag = f"**{distance:+.1f}**" if abs(distance) > 2 else f"{distance:+.1f}"
        lines.append(
            f"| {name} | {data} | {cfg['model']} | {ours} | {paper} | {diff} | {flag} "
            f"| {_n_candidates(grid)} | {budget} | {wall} |"
        )
    lines += [
        "",
        "Selection details: mean inner validation accuracy of the selected configurations, the",
        "optimism (validation minus test), and how often each varied value was selected over",
        "the 10 outer folds.",
        "",
        "| experiment | validation mean | optimism | selected values (count over 10 folds) |",
        "|---|---|---|---|",
    ]
    for name, cfg, result in rows():
        if result is None:
            continue
        varied = [key for key, values in cfg["grid"].items() if len(values) > 1]
        counts = []
        for key in varied:
            chosen = [json.dumps(params[key]) for params in result["best_params"]]
            counts.append(
                f"{key}: " + ", ".join(f"{v} ×{chosen.count(v)}" for v in sorted(set(chosen)))
            )
        counts = counts or ["(one candidate)"]
        validation = 100 * sum(result["validation_scores"]) / len(result["validation_scores"])
        lines.append(
            f"| {name} | {validation:.1f} | {100 * result['optimism']:+.1f} | {'; '.join(counts)} |"
        )
    return "\n".join(lines)


def main():
    path = HERE / "RESULTS.md"
    text = path.read_text()
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    rows = table()
    path.write_text(f"{head}{START}\n{rows}\n{END}{tail}")
    print(rows)


if __name__ == "__main__":
    main()
