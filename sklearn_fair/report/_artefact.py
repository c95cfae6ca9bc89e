"""A BenchmarkResult as a file, and its table as LaTeX.

The file is JSON, never a pickle (a file from elsewhere is read, never run), of format
``"sklearn-fair-benchmark"``, version 1::

    {"format": "sklearn-fair-benchmark", "version": 1,
     "versions": {"python": ..., "sklearn-fair": ..., "scikit-learn": ..., ...},
     "baseline": "prior" or null, "baseline_floor": false, "random_state": 0 or null,
     "splits": {"iris": [{"train": [...], "test": [...]}, ...], ...},
     "cells": [{"dataset": "iris", "model": "tree",
                "budget": {"n_candidates": 4, "n_inner_fits": ..., "fit_time": ...},
                "fingerprints": {"data": "sha256:...", "model": "sha256:..."},
                "versions": {"scikit-learn": ..., ...},
                "result": {"metrics": {...}, "refit_metric": "score", "task": ...,
                           "random_state": 0, "refit_seeds": [...],
                           "used_refit_seeds": [...],
                           "outer_results": [{"test_score": ..., "test_scores": [...],
                                              "test_scores_per_metric": {...},
                                              "validation_score": ..., "best_params": {...},
                                              "fit_time": ..., "failed": true}, ...]}}, ...],
     "checksum": "sha256:..."}

``splits`` holds each data set's outer splits once (its models share them; the paired tests need
them); cells are in the result's order; ``"failed": true`` marks a fold scored ``error_score``
(absent elsewhere). The top-level ``versions`` are those of the environment that saved the file
(the reproducibility card's table: torch and PyG too); a cell that ran under others (fitted
before an upgrade, or extended from a file saved elsewhere) has its own ``versions``, ``{}``
where it records none (a result of a NestedCV fitted by the caller: the saving environment's
are not its); absent elsewhere: the top-level ones, which a reader that knows no such field
gives every cell. A result has result_to_dict's shape (with its ``random_state_root`` where
its random_state was not an int), with one number per fold in ``test_scores_per_metric``, and
the refit seeds that trained a model, ``used_refit_seeds`` (absent where not recorded), in
place of each fold's ``refit_seeds``; a fold has ``train_indices`` and ``test_indices`` only
where they are not its data set's (null: none recorded). Reading refuses a file larger than
:data:`MAX_BYTES`, nested deeper than :data:`MAX_DEPTH`, not a regular file, or failing
:func:`~._integrity.verify_result`.
"""

import json
import math
import os
import uuid
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..exceptions import InvalidResultError
from ..model_selection._engine import read_json
from ..utils import package_versions
from ._card import RECORDED_EXTRA
from ._integrity import BENCHMARK_FORMAT, BENCHMARK_VERSION, verify_result, with_checksum
from ._results import (
    _integer_or_none,
    _jsonable,
    as_result,
    error_score_field,
    failed_fields,
    saved_fields,
    saved_params,
    saved_predictions,
)

#: The largest result file read back (every fold's indices of every data set).
MAX_BYTES = 512 * 2**20
#: The deepest nesting of arrays and objects read back (a benchmark file needs 7 levels and
#: the selected hyper-parameters a few more).
MAX_DEPTH = 32


def _splits(cell):
    """The outer splits of a cell as ``[{"train": ..., "test": ...}]``, or None."""
    if not cell.has_splits:
        return None
    return [{"train": a, "test": b} for a, b in zip(cell.train_indices, cell.test_indices)]


def _same_splits(a, b):
    return (a is None) == (b is None) and (a is None or len(a) == len(b) and all(
        np.array_equal(x[k], y[k]) for x, y in zip(a, b) for k in ("train", "test")
    ))  # fmt: skip


def _cell_result(cell, shared):
    """A NestedResult in result_to_dict's shape (no format, version or checksum: the file's
    cover it), its outer splits only when they are not ``shared``."""
    own = _splits(cell)
    folds = []
    # the scores as the run recorded them (a failed fold's error_score, marked failed below)
    for fold, score in enumerate(cell.scores_per_metric[cell.refit_metric]):
        folds.append({
            "test_score": score,
            "test_scores": cell.refit_scores[fold],
            "test_scores_per_metric": {k: [v[fold]] for k, v in cell.scores_per_metric.items()},
            "validation_score": cell.validation_scores[fold],
            "best_params": saved_params(cell.best_params[fold]),
            "fit_time": cell.fit_time[fold],
            **failed_fields(
                [k for k, folds in cell.failed_metric_folds.items() if fold in folds],
                cell.refit_metric,
            ),
        })  # fmt: skip
        undefined = {k: by_fold[fold] for k, by_fold in cell.undefined_metric_folds.items()
                     if fold in by_fold}  # fmt: skip
        if undefined:
            folds[-1]["undefined_metrics"] = undefined
        if cell.predictions is not None and cell.predictions[fold] is not None:
            folds[-1]["predictions"] = saved_predictions(cell.predictions[fold])
        if not _same_splits(own, shared):
            folds[-1]["train_indices"] = None if own is None else own[fold]["train"]
            folds[-1]["test_indices"] = None if own is None else own[fold]["test"]
    return _jsonable({
        "metrics": {key: metric.to_dict() for key, metric in cell.metrics.items()},
        "refit_metric": cell.refit_metric,
        "task": cell.task,
        "random_state": _integer_or_none(cell.random_state),
        # as result_to_dict writes it: the root drawn where random_state was not an int
        **({} if cell.random_state_root is None else
           {"random_state_root": int(cell.random_state_root)}),
        "refit_seeds": cell.refit_seeds,
        # the seeds that trained a model (result_to_dict's folds record theirs, which a
        # NestedResult does not hold)
        **({} if cell.used_refit_seeds is None else {"used_refit_seeds": cell.used_refit_seeds}),
        # per-fold scores the caller gave: the card must not vouch for how they were made
        **({"own_scores": True} if cell.own_scores else {}),
        "outer_results": folds,
        **error_score_field(cell.error_score),
        **saved_fields(cell.failures, cell.resampling, cell.selection_metric, cell.fit_metadata),
    })  # fmt: skip


def save_document(result, path):
    """Write the BenchmarkResult ``result`` to ``path`` in the format above, atomically (a
    temporary file renamed over it: a reader never sees half a file); return the path."""
    splits = {}
    for (dataset, _), cell in result.cells.items():
        if splits.get(dataset) is None:
            splits[dataset] = _splits(cell)
    # the card's versions table: torch and PyG too (read from their metadata, never imported)
    versions = package_versions(RECORDED_EXTRA)
    # a cell records the versions that ran it (benchmark's do) where they are not these; one
    # that records none (NestedCV fitted by the caller) is saved with {}: these are not its
    own = {key: cell.versions for key, cell in result.cells.items() if cell.versions != versions}
    document = with_checksum({
        "format": BENCHMARK_FORMAT,
        "version": BENCHMARK_VERSION,
        "versions": versions,
        "baseline": result.baseline,
        "baseline_floor": result.baseline_floor,
        "random_state": _integer_or_none(result.random_state),
        "splits": _jsonable(splits),
        "cells": [
            {"dataset": dataset, "model": model, "budget": _jsonable(cell.budget),
             "fingerprints": _jsonable(cell.fingerprints),
             **({"versions": dict(own[dataset, model])} if (dataset, model) in own else {}),
             "result": _cell_result(cell, splits[dataset])}
            for (dataset, model), cell in result.cells.items()
        ],
    })  # fmt: skip
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump(document, file, separators=(",", ":"))
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path


def read_document(path):
    """The JSON document at ``path``, read within bounds but not yet checked: a regular file,
    at most :data:`MAX_BYTES`, nested at most :data:`MAX_DEPTH` deep (measured before parsing),
    no key given twice in an object (which of the two counts depends on the reader: an edit
    that the checksum, computed on what Python reads, would not see)."""
    try:
        return read_json(
            path, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH, error=InvalidResultError,
            unique_keys=True,
        )  # fmt: skip
    except InvalidResultError as error:  # its advice names a parameter these readers lack
        message = str(error).split("; pass a larger max_bytes")[0].rstrip(".")
        raise InvalidResultError(f"The result file {message}; nothing was read.") from None


def _versions(versions):
    return {str(k): str(v) for k, v in versions.items()} if isinstance(versions, dict) else {}


def _used_refit_seeds(refit_seeds, used):
    """The saved ``used_refit_seeds``: those of ``refit_seeds`` it lists (None where it is not
    a list: a file that does not record them)."""
    if not isinstance(used, list):
        return None
    listed = {repr(seed) for seed in used}
    return [seed for seed in refit_seeds if repr(seed) in listed]


def load_cells(path, *, verify="raise"):
    """``(cells, settings)``: BenchmarkResult's arguments from the file at ``path``, checked."""
    document = read_document(path)
    verify_result(document, source=f"file {os.fspath(path)}", verify=verify, from_file=True)
    if document.get("format") != BENCHMARK_FORMAT:
        raise InvalidResultError(
            f"The file {os.fspath(path)} is of format {document.get('format')!r}, not a "
            f"saved benchmark ({BENCHMARK_FORMAT!r}); read it with "
            "BenchmarkResult.from_results."
        )
    cells = {}
    for cell in document["cells"]:
        versions = _versions(cell.get("versions", document.get("versions")))
        dataset, model = cell["dataset"], cell["model"]
        budget = {k: (math.nan if v is None else v) for k, v in cell.get("budget", {}).items()}
        saved = cell["result"]
        shared = document["splits"].get(dataset)
        shared = shared or [{"train": None, "test": None}] * len(saved["outer_results"])
        folds = [  # a fold without indices has its data set's (verify_result checked they exist)
            fold if "test_indices" in fold else
            {**fold, "train_indices": shared[i]["train"], "test_indices": shared[i]["test"]}
            for i, fold in enumerate(saved["outer_results"])
        ]  # fmt: skip
        saved = {**saved, "outer_results": folds}
        result = as_result(model, saved, dataset=dataset, budget=budget, verify=None)
        cells[dataset, model] = replace(
            result, fingerprints=dict(cell.get("fingerprints", {})), versions=versions,
            used_refit_seeds=_used_refit_seeds(result.refit_seeds, saved.get("used_refit_seeds")),
        )  # fmt: skip
    settings = {key: document.get(key) for key in ("baseline", "random_state")}
    return cells, {**settings, "baseline_floor": bool(document.get("baseline_floor"))}


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    # in the default OT1 font encoding these print as other characters (¡, ¿, —)
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}  # fmt: skip


def latex_escape(text):
    """``text`` with LaTeX's special characters escaped (``±`` becomes ``$\\pm$``)."""
    escaped = "".join(_LATEX_SPECIAL.get(char, char) for char in str(text))
    return escaped.replace("±", r"$\pm$")


def _latex_cell(text):
    """A table() cell: ``**x**`` in bold, ``*x*`` in italics."""
    text = str(text)
    if len(text) > 4 and text.startswith("**") and text.endswith("**"):
        return rf"\textbf{{{latex_escape(text[2:-2])}}}"
    if len(text) > 2 and text.startswith("*") and text.endswith("*"):
        return rf"\textit{{{latex_escape(text[1:-1])}}}"
    return latex_escape(text)


def _first_cell(name):
    text = latex_escape(name)
    return f"{{{text}}}" if text.startswith(("[", "*")) else text


def to_latex(frame):
    r"""A :meth:`BenchmarkResult.table` as a booktabs ``tabular`` (models by data sets). A row's
    first cell that starts with ``[`` or ``*`` is in braces: after ``\\`` and ``\midrule``
    LaTeX reads a leading ``[`` as an optional length and a ``*`` as ``\\*`` ("[ours] GIN"
    stopped the table, and "*prior" lost its star)."""
    header = [_first_cell(frame.index.name or "")] + [latex_escape(c) for c in frame.columns]
    lines = [
        rf"\begin{{tabular}}{{l{'r' * len(frame.columns)}}}",
        r"\toprule",
        " & ".join(header) + r" \\",
        r"\midrule",
    ]
    for name, row in frame.iterrows():
        lines.append(" & ".join([_first_cell(name)] + [_latex_cell(v) for v in row]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"
