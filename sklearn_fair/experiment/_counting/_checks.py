"""Everything checked before the first fit of an experiment, for every model at once.

The file has been read and every class built (:func:`load_config`); here the data are
known, so the splits are checked against them, every candidate is set on a copy of its
model, and columns of text are checked to reach an encoder. A run then fails in seconds,
not after the models before the faulty one have run for hours.
"""

import numpy as np

from ._plan import candidate_estimator, plan_model

__all__ = ["check_before_fit"]


def _text_columns(X):
    if not hasattr(X, "columns") or not hasattr(X, "dtypes"):
        return []
    return [name for name, kind in zip(X.columns, X.dtypes) if kind.kind == "O"]


def _first_step(estimator):
    steps = getattr(estimator, "steps", None)
    return (steps[0][1], True) if steps else (estimator, False)


def _encoded_columns(step, columns):
    """The columns that ``step`` (a model's first step) turns into numbers."""
    if hasattr(step, "transformers") and hasattr(step, "remainder"):  # a ColumnTransformer
        covered, named = set(), set()
        for _, transformer, selected in step.transformers:
            selected = [selected] if isinstance(selected, (str, int)) else list(selected)
            names = {columns[s] if isinstance(s, int) else s for s in selected}
            named |= names
            if not (isinstance(transformer, str) and transformer == "passthrough"):
                covered |= names  # encoded, or dropped
        unknown = sorted(str(n) for n in named - set(columns))
        if unknown:
            return None, unknown
        if not isinstance(step.remainder, str) or step.remainder == "drop":
            covered |= set(columns) - named
        return covered, []
    if hasattr(step, "categories"):  # an encoder of every column (OneHotEncoder, ...)
        return set(columns), []
    return set(), []


def _check_text_columns(config, spec, X):
    text = _text_columns(X)
    if not text:
        return
    step, is_pipeline = _first_step(spec.estimator)
    covered, unknown = _encoded_columns(step, list(X.columns))
    key = ("models", spec.name, "preprocessing" if is_pipeline else "estimator")
    if unknown:
        raise config.source.error(key, f"names columns the data do not have: {unknown}.")
    missing = [name for name in text if name not in covered]
    if missing:
        raise config.source.error(
            key,
            f"the data's columns {missing} hold text, and model {spec.name!r} would get them "
            "as they are; encode them in a first preprocessing step, e.g. "
            '{ estimator = "sklearn.compose.ColumnTransformer", params = { transformers = '
            '[["onehot", { estimator = "sklearn.preprocessing.OneHotEncoder" }, '
            f'{missing}]], remainder = "passthrough" }} }}.',
        )


def _check_folds(config, spec, data):
    """Outer and inner folds that only the data count (LeaveOneOut, LeavePOut...), within the
    limit, before any split is made."""
    from sklearn.base import is_classifier
    from sklearn.model_selection import check_cv

    limits = config.limits
    if limits is None or data is None:
        return
    y = None if data.y is None else np.asarray(data.y)
    classifier = is_classifier(spec.estimator)
    for name in ("outer_cv", "inner_cv"):
        cv = config.protocol.get(name)
        if cv is None or isinstance(cv, int):
            continue  # a number of folds is checked where it is read
        try:
            n_splits = check_cv(cv, y, classifier=classifier).get_n_splits(data.X, y, data.groups)
        except (TypeError, ValueError):
            continue  # the planner says what is wrong
        if isinstance(n_splits, int) and n_splits > limits.folds:
            raise config.source.error(
                ("protocol", name),
                limits.refusal("folds", n_splits, "folds", "the splitter's number of splits"),
            )


def _check_candidates(config, spec, candidates, plan):
    for index, candidate in enumerate(candidates):
        try:
            candidate_estimator(spec, candidate, plan)
        except (TypeError, ValueError) as error:
            raise config.source.error(
                ("models", spec.name, "grid"),
                f"candidate {index} ({candidate!r}) cannot be set: {error}",
            ) from None


def check_before_fit(config, data):
    """Check every model against the data; return their plans (see :func:`plan_model`).

    The plans are NestedCV's own (its planner, with the run's seed), so what is checked
    here is what runs.

    Raises
    ------
    ExperimentConfigError
        Naming the model and key at fault.
    """
    from sklearn.model_selection import ParameterGrid

    plans = {}
    for spec in config.models.values():
        _check_folds(config, spec, data)
        if spec.grid is not None:  # the file's own grid: each candidate set before planning
            _check_candidates(config, spec, ParameterGrid(spec.grid), None)
        try:
            plans[spec.name] = plan_model(config, spec, data)
        except ValueError as error:
            key = ("protocol", "splits_file") if config.splits else ("protocol",)
            described = "the data are not read" if data is None else data.description
            what = "the splits do not" if config.splits else "the protocol does not"
            raise config.source.error(key, f"{what} fit the data ({described}): {error}") from None
        if spec.grid is None:  # a search's candidates, as the planner drew them
            _check_candidates(config, spec, plans[spec.name].candidates, plans[spec.name])
        if data is not None:
            _check_text_columns(config, spec, data.X)
            if data.groups is not None and np.asarray(data.groups).shape[0] != data.n_samples:
                raise config.source.error(("data", "groups"), "has not one value per sample.")
    return plans
