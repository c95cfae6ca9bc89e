"""The reproducibility card: the paper's checklist, seeds, fingerprints and versions."""

import numbers
import os
import re
import stat
import warnings
from dataclasses import asdict, dataclass, field, replace
from importlib import metadata  # noqa: F401 - tests fake its version()

import numpy as np
from sklearn.utils._param_validation import validate_params
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples

from ..exceptions import SplitLeakageWarning
from ..model_selection import labels_fingerprint, load_splits
from ..model_selection._engine import is_search
from ..model_selection._nested._candidates import configure
from ..utils import digest, fill_doc, fingerprint, is_graph_data, read_graph_labels, to_numpy
from ..utils import package_versions as _package_versions
from ..utils._printing import decimals_for, number
from ..utils._splits import is_stratified
from ._format import param_text
from ._html import render
from ._results import DOCS, _jsonable, as_results
from ._tables import Section

# The card prints the versions table of utils.package_versions (the one every stored result
# records), with torch and PyG read from their installed metadata, never imported; two labels
# are spelled as readers know them.
RECORDED_EXTRA = ("torch", "torch-geometric")
_LABELS = {"python": "Python", "torch-geometric": "PyG"}
# The outer resampling in words names the splitter's class ("5-fold QuantileStratifiedKFold"):
# the splitters that stratify a numeric target on its quantile bins.
_QUANTILE = re.compile(r"\b(Repeated)?QuantileStratifiedKFold\b")
# ... and the splitters that stratify class labels by construction (not StratifiedGroupKFold:
# it balances the classes only as far as the groups let it)
_BY_CLASS = re.compile(r"\b((Repeated)?Stratified(Graph)?KFold|StratifiedShuffleSplit)\b")

#: The constraints of the card's parameters (``DOCS["card"]``).
CARD_CONSTRAINTS = {
    "X": "no_validation",
    "y": "no_validation",
    "splits_file": [str, os.PathLike, None],
    "stratified": ["boolean", None],
}


def package_versions():
    """Versions of Python and of the packages results depend on ("not installed" if absent)."""
    return _labelled(_package_versions(RECORDED_EXTRA))


def _labelled(versions):
    return {_LABELS.get(name, name): v for name, v in versions.items()}


def splits_fingerprint(train_indices, test_indices):
    """SHA-256 of the outer folds' sorted train and test indices (``utils.digest``)."""
    folds = [
        [np.sort(train).tolist(), np.sort(test).tolist()]
        for train, test in zip(train_indices, test_indices)
    ]
    return digest(folds)


@dataclass(frozen=True)
class ReproducibilityCard:
    """What another person needs to reproduce a nested cross-validation result.

    Made by :func:`reproducibility_card`; prints as text, and renders as Markdown and HTML.

    Attributes
    ----------
    checklist : list of (str, str, str)
        The checklist of Errica et al. (2020): each item, its answer ("yes", "no" or "unknown")
        and how it was established.
    seeds : dict
        ``random_state`` and the refit seeds of each model.
    splits_fingerprint : dict
        Model name -> SHA-256 of its outer folds' indices.
    data_fingerprint : str or None
        SHA-256 of the feature matrix.
    labels_fingerprint : str or None
        :func:`~sklearn_fair.model_selection.labels_fingerprint` of the class labels; for a
        regression :func:`~sklearn_fair.utils.fingerprint` of the target's values (their ranks
        would not change under a monotone transform of the target).
    splits_file : str or None
        The splits file the outer folds came from.
    versions : dict
        Python and package versions: those recorded with the results where they all record
        the same ones (a benchmark records the versions its fits ran under, and its saved file
        keeps them), else those of the environment that made the card (``versions_recorded``
        says which).
    task : str or None
        "classification" or "regression" (from the estimator, else from the target), or None.
    versions_recorded : bool
        Whether ``versions`` are the ones recorded with the results.
    recorded_versions : dict
        Model -> the versions its result recorded, where the results record different ones or
        only some of them record theirs (else empty: ``versions`` says it).
    drawn_roots : dict
        Key of ``seeds`` -> the int root a run drew where its ``random_state`` was None, a
        RandomState or a Generator: passed as ``random_state``, it reproduces the run.
    fit_metadata : dict
        Model name -> the fit parameters its run was given (``sample_weight``), each name ->
        the fingerprint of its numbers ({} for none), or None where its result
        does not record them (saved before sklearn-fair recorded them).
    """

    checklist: list
    seeds: dict
    splits_fingerprint: dict
    data_fingerprint: object
    labels_fingerprint: object
    splits_file: object
    versions: dict
    task: object = None
    versions_recorded: bool = False
    recorded_versions: dict = field(default_factory=dict)
    drawn_roots: dict = field(default_factory=dict)
    fit_metadata: dict = field(default_factory=dict)

    def _seed_text(self, name):
        root = self.drawn_roots.get(name)
        drew = "" if root is None else f" (drew {root}: pass it to reproduce)"
        return f"{name}: {self.seeds[name]}{drew}"

    def section(self):
        """The card as a report section."""
        rows = [[item, answer, how] for item, answer, how in self.checklist]
        paragraphs = [
            "Seeds: " + "; ".join(map(self._seed_text, self.seeds)) + ".",
            "Splits fingerprint: "
            + _shared_text(self.splits_fingerprint)
            + (f"; splits file: {self.splits_file}" if self.splits_file else "")
            + ".",
            f"Data fingerprint: {self.data_fingerprint or 'not computed'}; "
            f"{'target' if self.task == 'regression' else 'labels'} "
            f"fingerprint: {self.labels_fingerprint or 'not computed'}.",
            *(
                ["Fit metadata: " + _shared_text(self.fit_metadata, _metadata_text) + "."]
                if self.fit_metadata
                else []
            ),
            (
                "Versions (recorded with the results): "
                if self.versions_recorded
                else "Versions of the environment that printed this card"
                + (" (what the results record is below): " if self.recorded_versions else ": ")
            )
            + _versions_text(self.versions)
            + ".",
        ]
        if self.recorded_versions:
            distinct = {tuple(v.items()) for v in self.recorded_versions.values() if v}
            paragraphs.append(
                "Versions recorded with the results"
                + (" (they differ between the results)" if len(distinct) > 1 else "")
                + ": "
                + "; ".join(
                    f"{name}: {_versions_text(v) if v else 'not recorded'}"
                    for name, v in self.recorded_versions.items()
                )
                + "."
            )
        return Section(
            "Reproducibility card",
            columns=["checklist item", "answer", "how we know"],
            rows=rows,
            paragraphs=paragraphs,
        )

    def to_text(self):
        """The card as plain text."""
        return self.section().to_text() + "\n"

    def to_markdown(self):
        """The card as Markdown."""
        return self.section().to_markdown() + "\n"

    def to_html(self):
        """The card as a standalone HTML page."""
        return render("Reproducibility card", [self.section()], "html")

    def to_dict(self):
        """The card as a JSON-safe dict."""
        return {
            **asdict(self),
            "checklist": [list(item) for item in self.checklist],
            # an object (a RandomState) by its name, without the address its repr holds
            "seeds": {key: _jsonable(value, str) for key, value in self.seeds.items()},
        }

    def __str__(self):
        return self.to_text()


@validate_params(
    {"results": "no_validation", **CARD_CONSTRAINTS}, prefer_skip_nested_validation=True
)
@fill_doc(DOCS)
def reproducibility_card(results, *, X=None, y=None, splits_file=None, stratified=None):
    """Make the reproducibility card of one or several nested cross-validation results.

    Parameters
    ----------
    {results}
    {card}

    Returns
    -------
    card : ReproducibilityCard

    Raises
    ------
    ValueError
        When ``X`` and ``y`` differ in length, or are shorter than the results' outer splits
        (whose largest index must be a sample of theirs).
    sklearn.utils._param_validation.InvalidParameterError
        When a parameter is not of its documented type or values (``stratified="yes"``).

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.report import reproducibility_card
    >>> X, y = load_iris(return_X_y=True)
    >>> nested = NestedCV(LogisticRegression(max_iter=500), {"C": [0.1, 1.0]}, outer_cv=3,
    ...                   refit=False, random_state=0).fit(X, y)
    >>> card = reproducibility_card(nested, X=X, y=y)
    >>> [answer for _, answer, _ in card.checklist]
    ['yes', 'yes', 'no', 'yes', 'yes']
    >>> sorted(card.versions)[:3]
    ['PyG', 'Python', 'joblib']
    """
    return card_of(as_results(results), X=X, y=y, splits_file=splits_file, stratified=stratified)


def cards_of_datasets(cards, whole):
    """One card of a benchmark from its data sets' ``cards`` (data set -> the card made with
    its X, y and splits file) and ``whole`` (the card of all its results, without data): each
    answer, fingerprint and splits file as the data sets' cards give them, labelled by data set
    where they differ."""
    if len(cards) == 1:
        return next(iter(cards.values()))

    def joined(values):
        values = dict(values)
        if len(set(values.values())) == 1:
            return next(iter(values.values()))
        return "; ".join(f"{name}: {value}" for name, value in values.items())

    checklist = []
    # by item: a data set whose models ran no sampler has no "resampling of training rows"
    rows = {name: {row[0]: row[1:] for row in card.checklist} for name, card in cards.items()}
    for item, _, _ in whole.checklist:
        answers = {name: row.get(item, ("no", "none"))[0] for name, row in rows.items()}
        hows = {name: row.get(item, ("no", "none"))[1] for name, row in rows.items()}
        checklist.append((item, joined(answers), joined(hows)))

    def fingerprints(attribute):
        values = {name: getattr(card, attribute) for name, card in cards.items()}
        if all(value is None for value in values.values()):
            return None
        return "; ".join(f"{name}: {value or 'not computed'}" for name, value in values.items())

    files = {name: card.splits_file for name, card in cards.items() if card.splits_file}
    tasks = {card.task for card in cards.values()}
    return replace(
        whole,
        checklist=checklist,
        data_fingerprint=fingerprints("data_fingerprint"),
        labels_fingerprint=fingerprints("labels_fingerprint"),
        splits_file="; ".join(f"{name}: {path}" for name, path in files.items()) or None,
        task=tasks.pop() if len(tasks) == 1 else None,
    )


def _random_state(model):
    """A result's ``random_state`` as the card gives it: an int or None as it is, a RandomState
    or Generator by its name (its repr holds a memory address)."""
    state = model.random_state
    return state if state is None or isinstance(state, numbers.Integral) else str(state)


def _metadata_text(recorded):
    """A run's fit parameters as the card prints them: "sample_weight sha256:...", "none",
    or "not recorded"."""
    if recorded is None:
        return "not recorded"
    return ", ".join(f"{name} {value}" for name, value in recorded.items()) or "none"


def _shared_text(per_model, text=str):
    """``text`` of each model's value of ``per_model`` once: "... (all models)" where they
    share it, else labelled by model ("a, b: ...; c: ...")."""
    shared = {}
    for name, value in per_model.items():
        shared.setdefault(text(value), []).append(name)
    if len(shared) == 1:
        return next(iter(shared)) + " (all models)"
    return "; ".join(f"{', '.join(names)}: {value}" for value, names in shared.items())


def _versions_text(versions):
    return ", ".join(f"{k} {v}" for k, v in versions.items())


def _versions(models, one):
    """``(versions, recorded, per model)`` of the card: the versions the results recorded
    where they all record the same ones, else this environment's, with each model's recorded
    ones where only some record theirs or they differ."""
    recorded = {_label(m, one): _labelled(m.versions) for m in models}
    distinct = {tuple(v.items()) for v in recorded.values()}
    if len(distinct) == 1 and next(iter(distinct)):
        return next(iter(recorded.values())), True, {}
    return package_versions(), False, (recorded if any(recorded.values()) else {})


def _label(model, one_dataset):
    return model.name if one_dataset else f"{model.dataset}: {model.name}"


def card_of(models, *, X=None, y=None, splits_file=None, stratified=None,
            owner="reproducibility_card"):  # fmt: skip
    """The card of a list of NestedResult (see :func:`reproducibility_card`); models of
    several data sets are labelled "data set: model", and take no data of one."""
    datasets = list(dict.fromkeys(m.dataset for m in models))
    given = [n for n, v in (("X", X), ("y", y), ("splits_file", splits_file)) if v is not None]
    if len(datasets) > 1 and given:
        raise ValueError(
            f"The {' and '.join(map(repr, given))} parameter{'s' * (len(given) > 1)} of "
            f"{owner} describe{'s' * (len(given) == 1)} one data set, but the results are of "
            f"{len(datasets)} ({', '.join(map(repr, datasets))}): the card would fingerprint "
            "them as every result's and check every data set's folds against them. Pass none "
            "of them, or the results of one data set with its own data (of a benchmark "
            "result: BenchmarkResult({key: cell for key, cell in result.cells.items() if "
            "key[0] == name}, baseline=result.baseline))."
        )
    if y is None and X is not None and is_graph_data(X):
        y = read_graph_labels(X)
    if y is not None:
        y = to_numpy(y)
    _check_data(models, X, y)
    one = len({m.dataset for m in models}) == 1
    task = _task(models, y)
    strat = _stratification(models, y, stratified, task)
    unrecorded = [_label(m, one) for m in models if not m.has_splits]
    where = (
        "the outer indices are in the results"
        if not unrecorded
        else "the results do not record the outer indices"
        if len(unrecorded) == len(models)
        else f"the results of {', '.join(unrecorded)} do not record the outer indices"
    )
    saved = ("no", f"pass the splits to save_splits; {where}")
    if splits_file is not None:
        _check_splits_file(splits_file, models, one, owner, y)
    if splits_file:
        saved = (
            "yes",
            f"outer splits read from {os.fspath(splits_file)} (inner splits too where it "
            "holds them; the resampling says how the inner splits were made)",
        )
    own = [_label(m, one) for m in models if m.own_scores]
    code = ("yes", "sklearn_fair.NestedCV: inner selection, outer assessment")
    selection = ("yes", "hyper-parameters chosen on inner splits of the outer training fold")
    if own:  # nothing says how the caller computed them
        given = "per-fold scores given by the caller" + (
            "" if len(own) == len(models) else f" ({', '.join(own)}; the others by NestedCV)"
        )
        code = selection = ("unknown", given)
    checklist = [
        ("code for model selection and assessment", *code),
        ("selection never sees the test fold", *selection),
        ("data splits saved", *saved),
        ("stratified splits", *strat),
        (
            "test (not validation) scores, mean and std over the outer folds",
            "yes",
            f"{'/'.join(sorted({str(len(m.scores)) for m in models}))} outer folds per model",
        ),
        *_resampled_rows(models, one),
    ]
    versions, versions_recorded, recorded_versions = _versions(models, one)
    # with the root each run drew where its random_state was not an int
    states = {_label(m, one): (_random_state(m), m.random_state_root) for m in models}
    if len({repr(state) for state in states.values()}) == 1:
        keys = dict.fromkeys(states, "random_state")
    else:  # each model's own: the first one's was given for all
        keys = {label: f"{label} random_state" for label in states}
    seeds = {keys[label]: state for label, (state, _) in states.items()}
    drawn = {keys[label]: root for label, (_, root) in states.items() if root is not None}
    # the seeds that trained a model (the seed probe may have left some unused)
    refits = {
        _label(m, one): m.refit_seeds if m.used_refit_seeds is None else m.used_refit_seeds
        for m in models
    }
    if not one and len({repr(s) for s in refits.values()}) == 1:
        seeds["refit seeds (every cell)"] = next(iter(refits.values()))
    else:
        seeds.update({f"{label} refit seeds": value for label, value in refits.items()})
    return ReproducibilityCard(
        checklist=checklist,
        seeds=seeds,
        drawn_roots=drawn,
        fit_metadata={_label(m, one): m.fit_metadata for m in models},
        splits_fingerprint={
            _label(m, one): (
                splits_fingerprint(m.train_indices, m.test_indices)
                if m.has_splits
                else "not recorded"
            )
            for m in models
        },
        data_fingerprint=None if X is None else fingerprint(X),
        labels_fingerprint=_target_fingerprint(y, task),
        splits_file=None if splits_file is None else os.fspath(splits_file),
        versions=versions,
        task=task,
        versions_recorded=versions_recorded,
        recorded_versions=recorded_versions,
    )


def _resampled_rows(models, one):
    """The checklist's "resampling of training rows" item where the refits of a result ran a
    sampler (an object with ``fit_resample``, as imbalanced-learn's: the estimator or a part of
    it, as each outer fold's selected parameters set it): each sampler as it ran, in how many
    folds where not all ran it, and whether the refit seeds re-draw its rows; none where no
    known estimator ran one (a saved result holds no estimator, so it is said only where the
    estimator is known)."""
    texts = {_label(m, one): _samplers_text(m.estimator) for m in models}
    if not any(texts.values()):
        return []
    for label, text in texts.items():
        if text is None:
            texts[label] = "not known (the result holds no estimator)"
    return [("resampling of training rows", "yes", _shared_text(texts, lambda t: t or "none"))]


def _samplers_text(nested):
    """The samplers the refits of a fitted NestedCV ran, in words ("" for none): in each outer
    fold, those of its estimator (of the model a search given as the estimator tunes) as the
    fold's selected parameters set them, a step they set to "passthrough" or None running none,
    each distinct sampler with the number of folds that ran it where not all did; None where
    there is no estimator to read (a saved result), or where it no longer takes the selected
    parameters (set_params gave it another for the next fit since)."""
    estimator = getattr(nested, "estimator", None)
    if estimator is None:
        return None
    # the selected parameters name the parts of the model a search tunes
    model = estimator.estimator if is_search(estimator) else estimator
    folds = getattr(nested, "outer_results_", ())
    ran = {}  # (path, the sampler's text, how the search set it) -> [sampler, folds that ran it]
    for fold in folds:
        params = fold.get("best_params")
        if params is None:  # no candidate won the fold: no refit ran
            continue
        try:
            ran_with = configure(model, params)
        except ValueError:  # set_params gave it another estimator for the next fit since
            return None
        for path, sampler in _samplers_of(ran_with).items():
            key = (path, param_text(sampler), *_set_by_search(path, params))
            ran.setdefault(key, [sampler, 0])[1] += 1
    # a sampler no candidate touches runs in every fit, also of a fold that no candidate won
    refitted = sum(fold.get("best_params") is not None for fold in folds)
    texts = []
    for (_path, text, candidate, tuned), (sampler, count) in ran.items():
        if not (candidate or tuned) and count == refitted:
            texts.append(
                f"{text} inside each training fold (inner and outer), "
                + _sampler_seed_text(sampler, tuned)
            )
            continue
        how = ["a candidate of the search space"] * candidate
        named = [name for name in tuned if name != "random_state"]  # the seed text says it
        how += [f"its {', '.join(named)} tuned by the search space"] * bool(named)
        texts.append(
            f"{text} ({', '.join([*how, ''])}selected in {count} of {len(folds)} outer folds) "
            "inside the training rows of each fit that tries it, "
            + _sampler_seed_text(sampler, tuned)
        )
    return "; ".join(texts)


def _samplers_of(model):
    """Path -> each sampler of ``model`` ("" for ``model`` itself)."""
    parts = model.get_params(deep=True).items()
    samplers = {path: part for path, part in parts if _is_sampler(part)}
    return {"": model, **samplers} if _is_sampler(model) else samplers


def _set_by_search(path, params):
    """How a fold's selected ``params`` set the sampler at ``path``: ``(candidate, tuned)``,
    whether it is (a part of) a value of the search space, and the names of its parameters
    that the search space sets."""
    candidate = bool(path) and any(path == n or path.startswith(f"{n}__") for n in params)
    prefix = f"{path}__" if path else ""
    return candidate, tuple(name[len(prefix) :] for name in params if name.startswith(prefix))


def _is_sampler(part):
    return hasattr(part, "fit_resample") and not isinstance(part, type)


def _sampler_seed_text(sampler, tuned):
    """Whether the refit seeds re-draw a sampler's rows: only a ``random_state`` left at None
    is seeded (``model_selection/_nested/_seeds.py``); one given, or set by the selected
    candidate (``tuned``: the names of the sampler's parameters it sets), is kept in every
    fit."""
    own = sampler.get_params(deep=False)
    if "random_state" not in own:
        return "which takes no random_state"
    state = own["random_state"]
    if state is None:
        return (
            f"whose random_state is None{' (set by the search space)' * ('random_state' in tuned)}"
            ": each refit re-draws its rows with a seed from the refit seeds, the inner fits "
            "with one seed derived from random_state"
        )
    if "random_state" in tuned:
        return (
            f"whose random_state the search space sets (selected: {param_text(state)}): kept "
            "in every fit of a fold, the refit seeds do not re-draw its rows"
        )
    return (
        f"whose random_state={param_text(state)} is kept in every fit: the refit seeds do not "
        "re-draw its rows"
    )


def _check_splits_file(splits_file, models, one, owner, y):
    """Refuse a ``splits_file`` that cannot be read as a splits file, that was saved for other
    labels than ``y`` (where both are known), or whose outer training or test folds are not
    those a result records: the card would say the results' splits were saved in it."""
    path = os.fspath(splits_file)
    problem = None
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block the look below
            raise OSError(f"{path!r} is not a regular file")
        with open(path, "rb") as file:
            # a file of gnn-comparison is a JSON list, one of save_splits a JSON object
            listed = file.read(64).lstrip().startswith(b"[")
        with warnings.catch_warnings():  # a file of lagged splits warned where it was used
            warnings.simplefilter("ignore", SplitLeakageWarning)
            saved = load_splits(path, format="gnn-comparison" if listed else "sklearn-fair")
    except (OSError, ValueError) as error:
        problem = f"cannot be read as a splits file ({error})"
    if problem is None and y is not None and saved.labels_fingerprint is not None:
        given = labels_fingerprint(y)
        if given != saved.labels_fingerprint:
            problem = (
                "was saved for other labels than the 'y' given (labels fingerprint "
                f"{saved.labels_fingerprint[:24]}... where y's is {given[:24]}...)"
            )
    for m in models if problem is None else []:
        problem = _fold_mismatch(saved.folds, m, one) if m.has_splits else None
        if problem is not None:
            break
    if problem is not None:
        raise ValueError(
            f"The 'splits_file' parameter of {owner} is {path!r}, which {problem}: the card "
            "would say that the results' outer folds were saved in it. Pass the file the outer "
            "folds were read from or saved to, or no splits_file."
        )


def _fold_mismatch(folds, model, one):
    """How the outer ``folds`` of a splits file differ from those the result ``model`` records
    (their count, or a fold's test or training rows, in any order), in words; None if alike."""
    if len(folds) != len(model.test_indices):
        return (
            f"holds {len(folds)} outer folds, but the result {_label(model, one)!r} has "
            f"{len(model.test_indices)}"
        )
    for part, verb, recorded in (
        (1, "tests", model.test_indices),
        (0, "trains on", model.train_indices),
    ):
        differ = [
            fold
            for fold, (saved, own) in enumerate(zip(folds, recorded))
            if not np.array_equal(np.sort(np.asarray(saved[part])), np.sort(np.asarray(own)))
        ]
        if differ:
            return (
                f"{verb} other rows in outer fold {differ[0]} than the result "
                f"{_label(model, one)!r} ({len(differ)} of its {len(folds)} folds differ)"
            )
    return None


def _check_data(models, X, y):
    """Refuse ``X`` and ``y`` that cannot be the data the results' outer splits index: of
    different lengths, or shorter than the largest index (its fingerprint would be another
    data set's, and its folds' classes read at indices it does not have)."""
    sizes = {}
    if X is not None:
        try:
            sizes["X"] = _num_samples(X)
        except TypeError:  # an object without a length: nothing to check
            pass
    if y is not None:
        sizes["y"] = int(y.shape[0]) if y.ndim else 1
    if len(set(sizes.values())) > 1:
        raise ValueError(
            f"The 'X' and 'y' parameters of the reproducibility card have {sizes['X']} and "
            f"{sizes['y']} samples; pass the features and the target of the data the results "
            "were run on."
        )
    folds = [
        np.asarray(fold)
        for m in models
        if m.has_splits
        for fold in (*m.train_indices, *m.test_indices)
    ]
    largest = max((int(fold.max()) for fold in folds if fold.size), default=-1)
    for name, n in sizes.items():
        if largest >= n:
            raise ValueError(
                f"The {name!r} parameter of the reproducibility card has {n} samples, but the "
                f"results' outer splits index sample {largest}: pass the data the results were "
                f"run on (at least {largest + 1} samples)."
            )


def _task(models, y):
    tasks = {model.task for model in models} - {None}
    if len(tasks) == 1:
        return tasks.pop()
    if not tasks and y is not None:
        return "regression" if type_of_target(y) == "continuous" else "classification"
    return None


def _target_fingerprint(y, task):
    if y is None:
        return None
    return fingerprint(y) if task == "regression" else labels_fingerprint(y)


def _outer_splitters(models, pattern):
    """Each model's match of ``pattern`` in the words of its outer resampling (None: none)."""
    return [pattern.search((m.resampling or {}).get("outer") or "") for m in models]


def _fold_means(models, y):
    """How far the outer test folds' target means spread, as the end of a sentence: column by
    column for a target of a few columns (one mean of them all would mix their scales)."""
    columns = y.reshape(len(y), -1).T
    if len(columns) > _MAX_COLUMNS_SHOWN:
        return (
            f"; the outer test folds' target means are not listed for the target's "
            f"{len(columns)} columns"
        )
    ranges = []
    for column in columns:
        means = [float(np.mean(column[np.asarray(t)])) for m in models for t in m.test_indices]
        low, high, mean = min(means), max(means), float(np.mean(column))
        d = decimals_for([low, high, mean])  # four significant digits
        ranges.append(f"from {number(low, d)} to {number(high, d)} (all data: {number(mean, d)})")
    if len(ranges) > 1:
        ranges = [f"{text} in column {k}" for k, text in enumerate(ranges)]
    return f"; the outer test folds' target means range {', '.join(ranges)}"


#: The most columns of a target whose fold means the card lists.
_MAX_COLUMNS_SHOWN = 3


def _stratification(models, y, stratified, task):
    """The answer and the reason of the checklist's "stratified splits" item."""
    if stratified is not None:
        return ("yes" if stratified else "no", f"as stated by the caller (stratified={stratified})")
    if task == "regression":
        splitters = _outer_splitters(models, _QUANTILE)
        by_bins = bool(splitters) and all(splitters)
        if by_bins:
            names = ", ".join(sorted({splitter.group(0) for splitter in splitters}))
            how = f"the outer splits stratify on quantile bins of the numeric target ({names})"
        elif any(splitters):
            one = len({m.dataset for m in models}) == 1
            binned = [_label(m, one) for m, splitter in zip(models, splitters) if splitter]
            return (
                "no",
                f"only the outer splits of {', '.join(binned)} stratify on quantile bins of "
                "the numeric target",
            )
        else:
            how = "numeric target (regression): there are no classes to stratify by"
        if y is not None and all(m.has_splits for m in models):
            how += _fold_means(models, np.asarray(y, dtype=float))
        return ("yes" if by_bins else "not applicable", how)
    if y is None:
        splitters = _outer_splitters(models, _BY_CLASS)
        if splitters and all(splitters):
            names = ", ".join(sorted({splitter.group(0) for splitter in splitters}))
            return ("yes", f"by the splitter ({names}); no labels given to check the folds")
        return ("unknown", "no labels given to check the folds")
    if any(not model.has_splits for model in models):
        return ("unknown", "the results do not record their outer splits")
    if all(is_stratified(y, model.test_indices) for model in models):
        return ("yes", "each outer test fold holds each class in proportion (within 1)")
    return ("no", "the outer test folds are not stratified by class")
