"""The seed policy: every seed decision of sklearn-fair's resampling procedures, in one place.

*Which parameters get a seed.* Only ``random_state`` parameters left at ``None`` (nested ones
included, of the object actually in place). One the user gave is kept in every fit, so with
``n_refits=1`` a nested run equals ``cross_validate(GridSearchCV(...))`` fold by fold. Where
several are left unset, the first by name gets the task's seed and each other one a seed
derived from it and its name, so that two members of one class are not one model twice.

*Which task gets which seed.* Derived from the run's root entropy and a *name* (what it is for,
which fold or refit), never from the order in which other code drew before it: a new use of
randomness changes no existing seed, and the same ``random_state`` gives the same seeds
whatever the workers, the backend or the order in which tasks finish. Selection fits and the
final model share the ``"selection"`` seed; refit ``i`` gets ``refit_seeds[i]`` on every fold.

*Whether seeds matter.* With no parameter left unset, one refit is trained. One left unset on a
sampler (an object with ``fit_resample``, as imbalanced-learn's), or on an object that holds out
a share of its rows at random (a float ``cv``: TunedThresholdClassifierCV's), always matters: it
draws the rows each refit learns from, so every fold gets every refit. Otherwise each outer
fold trains two refits first, and keeps those two when their scores and predictions are identical
(:func:`same_output`), else trains every refit. Each fold decides for itself: whether a seed
changes a model depends on the rows it trains on (a tree breaks ties between equally good
features by its seed, and one fold's rows may hold a tie where another's do not), so one
fold's two refits say nothing of another's. The final model gets the ``"selection"`` seed
either way, so that the same ``random_state`` gives the same final model. Identical hard
labels on one test fold cannot show that a seed that draws rows changes nothing: two refits trained
on different rows often predict the same labels.

*What None means.* NestedCV, an estimator, draws fresh entropy on every fit; the functional forms
follow ``cross_validate``, which gives the same result on every call for a deterministic
estimator: their ``None`` is :data:`FUNCTION_DEFAULT_ROOT`.

*The bound.* Every drawn seed lies in ``[0, SEED_BOUND)`` (``utils._random``), so that it fits
every library's int32 seed. The other procedures: the permutation check, ``GraphClassifier``
and ``verify_cache`` derive theirs by name under one root (``utils._random.seed_root``);
``HoldoutSplit`` draws one seed, the NCV interval derives its seeds by name too
(:func:`interval_seeds`); a benchmark's models share one root (:func:`shared_root_seed`).
"""

import numbers
import sys
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

import joblib
import numpy as np
from sklearn.base import clone

from ...utils._random import SEED_BOUND, seed_root

__all__ = [
    "Seeds",
    "function_random_state",
    "interval_seeds",
    "same_output",
    "search_value_key",
    "unseeded_randomness",
    "shared_root_seed",
]

#: The root of the functional forms' seeds when ``random_state=None``.
FUNCTION_DEFAULT_ROOT = 0

# One code per purpose; never reuse or renumber one (it would change old runs' seeds).
_PURPOSES = {
    "inner_cv": 1,  # the default inner hold-out of every outer training fold
    "sampler": 2,  # the candidates sampled from param_distributions
    "selection": 3,  # random_state parameters left at None, for selection fits and the final fit
    "refit": 4,  # the seeds of the refits of the selected configuration
    "refit_holdout": 5,  # the hold-out that a refit early-stops on, when no stored split exists
    "final_holdout": 6,  # the hold-out that the final model early-stops on
    "interval_folds": 7,  # the K-fold assignment of each repetition of the NCV interval
}


def random_state_params(model):
    """Names of every ``random_state`` parameter of ``model``, nested ones included.

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> random_state_params(make_pipeline(StandardScaler(), DecisionTreeClassifier()))
    ['decisiontreeclassifier__random_state']
    """
    return sorted(
        name
        for name in model.get_params(deep=True)
        if name == "random_state" or name.endswith("__random_state")
    )


def unset_random_state_params(model):
    """The ``random_state`` parameters of ``model`` left at None: the only ones seeded.

    Examples
    --------
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.decomposition import PCA
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> unset_random_state_params(make_pipeline(PCA(random_state=0), DecisionTreeClassifier()))
    ['decisiontreeclassifier__random_state']
    """
    current = model.get_params(deep=True)
    return [name for name in random_state_params(model) if current[name] is None]


def unset_row_drawing_seeds(model):
    """The unset ``random_state`` parameters of ``model`` that draw rows: a sampler's (an object
    with ``fit_resample``), and that of an object whose ``cv`` is a share of rows held out at
    random (TunedThresholdClassifierCV(cv=0.5) tunes its threshold on rows its seed draws).
    Their seed decides which rows a model learns from, so it always matters.

    Examples
    --------
    >>> from imblearn.pipeline import make_pipeline
    >>> from imblearn.under_sampling import RandomUnderSampler
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> unset_row_drawing_seeds(make_pipeline(RandomUnderSampler(), DecisionTreeClassifier()))
    ['randomundersampler__random_state']
    """
    owners = unset_random_state_owners(model)
    return [name for name, owner in owners.items() if _draws_rows(owner)]


def unset_random_state_owners(model):
    """Each ``random_state`` parameter of ``model`` left at None -> the object it belongs to
    (``model`` itself, or the part ``get_params(deep=True)`` names by its prefix)."""
    params = model.get_params(deep=True)
    return {name: param_owner(model, params, name) for name in unset_random_state_params(model)}


def param_owner(model, params, name):
    """The object of ``model`` whose parameter ``name`` is (as ``get_params(deep=True)``, given
    as ``params``, names it): ``model`` for a name without ``__``; None where the prefix names
    no object of ``params`` (skorch's ``module__`` parameters are routed, not held)."""
    owner_name = name.rpartition("__")[0]
    return params.get(owner_name) if owner_name else model


def _draws_rows(owner):
    if hasattr(owner, "fit_resample"):
        return True
    try:
        cv = owner.get_params(deep=False).get("cv")
    except Exception:  # not an estimator
        return False
    return isinstance(cv, numbers.Real) and not isinstance(cv, numbers.Integral)


def unseeded_randomness(model):
    """Parameter name ("" for ``model`` itself) -> object, of the parts of ``model`` that draw
    random numbers no ``random_state`` parameter controls, so that no seed of the run reaches
    them: a parameter named ``seed`` or ``random_seed`` left at None on an object without a
    ``random_state``, a skorch net without one (its weights and batches come from torch's
    global generator), an estimator with a ``random_state`` left at None held in a list
    parameter that ``get_params`` does not expose (a user's ensemble), and the ``cv`` (an int
    or None) of an object whose ``random_state`` is deprecated and left at ``"deprecated"``
    and whose ``shuffle`` is not False: scikit-learn
    1.9's TargetEncoder, which then shuffles its cross-fitting folds unseeded (its
    ``cv=StratifiedKFold(5, shuffle=True, random_state=0)``, ``KFold`` for a continuous target,
    seeds them).

    Examples
    --------
    >>> from sklearn.base import BaseEstimator
    >>> class Noisy(BaseEstimator):
    ...     def __init__(self, seed=None):
    ...         self.seed = seed
    >>> list(unseeded_randomness(Noisy()))
    ['seed']
    """
    params = model.get_params(deep=True)
    found = {}
    for name, value in params.items():
        last = name.rpartition("__")[2]
        owner = param_owner(model, params, name)
        owner = model if owner is None else owner
        if last in ("seed", "random_seed") and value is None and not _has_random_state(owner):
            found[name] = owner
    for name, value in [("", model), *params.items()]:
        if _is_skorch_net(value) and not _has_random_state(value):
            found[name] = value  # "": the estimator itself
        if _shuffles_deprecated_unseeded(value):
            found[f"{name}__cv" if name else "cv"] = value
    reached = {id(value) for value in params.values()}
    for name, value in params.items():
        for member in _held_estimators(value):
            if id(member) not in reached and unset_random_state_params(member):
                found.setdefault(name, member)  # the first such member names its list
    return found


def _held_estimators(value):
    """The estimators in a list or tuple parameter (``(name, estimator)`` pairs too): a user's
    ensemble may hold its members there without exposing them through ``get_params``."""
    if not isinstance(value, (list, tuple)):
        return []
    members = [item[1] if isinstance(item, tuple) and len(item) == 2 else item for item in value]
    return [m for m in members if hasattr(m, "get_params") and not isinstance(m, type)]


def _shuffles_deprecated_unseeded(obj):
    # a random_state that is "deprecated" is never seeded (set, it warns on every fit), and the
    # folds made from an int cv shuffle with numpy's global generator
    try:
        own = obj.get_params(deep=False)
    except Exception:  # not an estimator
        return False
    cv, shuffle = own.get("cv", ""), own.get("shuffle", True)
    return (
        isinstance(own.get("random_state"), str)
        and own["random_state"] == "deprecated"
        and (isinstance(shuffle, str) or bool(shuffle))  # True, or left at "deprecated"
        and (cv is None or (isinstance(cv, numbers.Integral) and not isinstance(cv, bool)))
    )


def _has_random_state(obj):
    try:
        return "random_state" in obj.get_params(deep=False)
    except Exception:  # not an estimator
        return False


def _is_skorch_net(obj):
    skorch = sys.modules.get("skorch")  # a net exists only where skorch was imported
    return skorch is not None and isinstance(obj, skorch.NeuralNet)


def _seed_unset(model, seed):
    """``{parameter: seed}`` for the ``random_state`` parameters of ``model`` left at None:
    the first by name gets ``seed`` itself, each other one a seed derived from ``seed`` and its
    name, so that two members of one class (a VotingClassifier of two forests, a forest that
    selects features for another) are not one model twice."""
    if seed is None:
        return {}
    names = unset_random_state_params(model)
    values = {name: seed if i == 0 else _seed_of(seed, name) for i, name in enumerate(names)}
    for name, grid in _unseeded_search_spaces(model).items():
        # a search among model's parts (a Pipeline's step) fits the estimators of its space:
        # seeded copies, as :meth:`Seeds.seed_search` seeds those of a search run whole
        values[name] = _seed_grid(grid, _seed_of(seed, name), {})
    return values


def _unseeded_search_spaces(model):
    """Name -> value of the ``param_grid`` and ``param_distributions`` of the searches among
    ``model`` and its parts that hold an estimator with a ``random_state`` left at None (as
    ``get_params(deep=True)`` names them: ``"search__param_grid"``); the search fits each as
    given, so that no seed of the run reaches it unless the space is seeded."""
    params = model.get_params(deep=True)
    found = {}
    for name, value in params.items():
        if name.rpartition("__")[2] not in ("param_grid", "param_distributions"):
            continue
        owner = param_owner(model, params, name)
        if owner is None or not _has_param(owner, "estimator") or value is None:
            continue
        if any(unset_random_state_params(m) for m in _space_estimators(value)):
            found[name] = value
    return found


def _space_estimators(space):
    """The estimators among the values of a search's space, members of a list value too."""
    spaces = space if isinstance(space, (list, tuple)) else [space]
    found = []
    for one in spaces:
        if not isinstance(one, Mapping):
            continue
        for values in one.values():
            if isinstance(values, np.ndarray) and values.dtype == object:
                values = list(values)
            if not isinstance(values, (list, tuple)):
                continue  # a distribution: its draws are numbers
            for value in values:
                if hasattr(value, "get_params") and not isinstance(value, type):
                    found.append(value)
                else:
                    found.extend(_held_estimators(value))
    return found


def _has_param(obj, name):
    try:
        return name in obj.get_params(deep=False)
    except Exception:  # not an estimator
        return False


def _seed_of(seed, name):
    """The seed of parameter ``name`` derived from ``seed``, in ``[0, SEED_BOUND)``."""
    sequence = np.random.SeedSequence(seed, spawn_key=(zlib.crc32(name.encode()),))
    return int(sequence.generate_state(1, np.uint64)[0] % SEED_BOUND)


def search_value_key(value):
    """What identifies a value of a search's space once seeded (:meth:`Seeds.seed_search`), in
    the search's ``best_params_`` too (a copy, from another process); None if it cannot."""
    try:
        return joblib.hash(value)
    except Exception:  # an object that cannot be pickled: its refits keep the selection seed
        return None


def _seed_grid(grid, seed, originals):
    """A copy of a search's ``param_grid`` or ``param_distributions`` whose estimators with an
    unset ``random_state`` are seeded clones (the user's objects are left as they are)."""

    def seeded(value):
        seeded_value = _seeded_copy(value, seed)
        if seeded_value is not value:
            key = search_value_key(seeded_value)
            if key is not None:
                originals[key] = value
        return seeded_value

    def seeded_dict(space):
        if not isinstance(space, Mapping):
            return space  # the search's own validation says what is wrong
        return {
            name: [seeded(v) for v in values]
            if isinstance(values, (list, tuple))
            or (isinstance(values, np.ndarray) and values.dtype == object)
            else values
            for name, values in space.items()
        }

    if isinstance(grid, (list, tuple)):
        return [seeded_dict(space) for space in grid]
    return seeded_dict(grid)


def _seeded_copy(value, seed):
    """``value`` with its estimators' unset ``random_state`` seeded, as copies, where it is an
    estimator or holds some (a VotingClassifier's ``estimators``: ``(name, estimator)``
    pairs); ``value`` itself where nothing is seeded."""
    if isinstance(value, type):
        return value
    if hasattr(value, "get_params"):
        values = _seed_unset(value, seed)
        return clone(value, safe=False).set_params(**values) if values else value
    if isinstance(value, (list, tuple)):
        # the members of a (name, estimator) list each get a seed of their own name, as the
        # members of an estimator given do (:func:`_seed_unset`)
        named = all(isinstance(i, tuple) and len(i) == 2 and isinstance(i[0], str) for i in value)
        items = []
        for index, item in enumerate(value):
            if not named:
                items.append(_seeded_copy(item, seed))
                continue
            member = _seeded_copy(item[1], _seed_of(seed, item[0]) if index else seed)
            items.append(item if member is item[1] else (item[0], member))
        if all(new is old for new, old in zip(items, value)):
            return value
        return type(value)(items)
    return value


def same_output(first, second):
    """Whether two refits that differ only in their seed gave identical scores and predictions
    (``predict``, and probabilities or decision values where the model has them): then a seed
    changes nothing. Only refits that were fitted and scored can show it: a failed fit, a
    scorer that raised or a score that is not finite (``error_score`` in both, NaN or not),
    or predictions that could not be fingerprinted say nothing of the seed."""
    return (
        _measured(first)
        and _measured(second)
        and first["scores"] == second["scores"]
        and first["predictions"] == second["predictions"]
    )


def _measured(result):
    """Whether a refit's result holds real output: fitted, every score computed and finite, and
    the fingerprint of its predictions."""
    scores = result["scores"]
    return bool(
        not result["error"]
        and not result.get("score_errors")
        and result["predictions"] is not None
        and scores
        and all(np.isfinite(value) for value in scores.values())
    )


def function_random_state(random_state):
    """The ``random_state`` a functional form runs with: None becomes the fixed root."""
    return FUNCTION_DEFAULT_ROOT if random_state is None else random_state


@dataclass(frozen=True)
class RefitPlan:
    """How many refits a fold trains, with which seeds, and whether a probe decides."""

    #: the seed of each refit; ``[None]`` (one refit, nothing seeded) when no parameter is
    #: left unset
    seeds: list
    #: whether each fold's two first refits must show that a seed changes something before
    #: that fold gets all its refits
    probe: bool


@dataclass(frozen=True)
class IntervalSeeds:
    """The seeds of :func:`~sklearn_fair.model_selection.nested_cv_interval`
    (:func:`interval_seeds`)."""

    #: one seed for every ``random_state`` of the estimator left at None, the same in every fit
    params: dict
    #: the seed of each repetition's shuffled K-fold assignment
    fold_seeds: np.ndarray


def interval_seeds(estimator, random_state, n_repetitions):
    """The NCV interval's seeds, derived by name from ``random_state``: the ``"selection"``
    seed on the estimator's unset seeds, and repetition ``i``'s folds from ``"interval_folds"``
    number ``i``, so that every estimator gets the same folds from the same ``random_state``."""
    seeds = Seeds.from_random_state(random_state)
    fold_seeds = np.array([seeds.draw("interval_folds", i) for i in range(n_repetitions)])
    return IntervalSeeds(seeds.selection_values(estimator), fold_seeds)


def shared_root_seed(random_state):
    """``(root, seeded)``: one int root (:func:`~sklearn_fair.utils._random.seed_root`) for
    every run of a benchmark, so that all its models draw the same inner splits and refit seeds;
    ``seeded``: whether ``random_state`` was given."""
    return seed_root(random_state), random_state is not None


@dataclass(frozen=True)
class Seeds:
    """The seeds of one nested run, derived by name from ``entropy`` (the root of
    ``random_state``, :func:`~sklearn_fair.utils._random.seed_root`); ``seeded``: whether
    ``random_state`` was given, so that two runs draw the same seeds."""

    entropy: int
    seeded: bool

    @classmethod
    def from_random_state(cls, random_state):
        """Seeds of a run with ``random_state`` (None, int, RandomState or Generator)."""
        return cls(*shared_root_seed(random_state))

    def draw(self, purpose, index=0):
        """The seed for ``purpose`` (a name of ``_PURPOSES``) number ``index``, in
        ``[0, SEED_BOUND)``."""
        sequence = np.random.SeedSequence(self.entropy, spawn_key=(_PURPOSES[purpose], index))
        return int(sequence.generate_state(1, np.uint64)[0] % SEED_BOUND)

    def refit_seeds(self, n_refits):
        """``n_refits`` distinct seeds for the refits."""
        seeds, index = [], 0
        while len(seeds) < n_refits:
            seed = self.draw("refit", index)
            index += 1
            if seed not in seeds:
                seeds.append(seed)
        return seeds

    # -- which task gets which seed -----------------------------------------------------------

    def sampler_seed(self, given):
        """The seed of the sampled candidates: a RandomizedSearchCV's own ``random_state``
        (``given``), else the run's ``"sampler"`` seed."""
        return self.draw("sampler") if given is None else given

    def inner_cv_seed(self):
        """The seed of the default inner hold-out, the same in every outer training fold."""
        return self.draw("inner_cv")

    def holdout_seed(self, fold):
        """The seed of the hold-out that the refits of ``fold`` early-stop on (``fold=None``:
        the final model's), where the outer splitter stores no inner split."""
        return self.draw("final_holdout") if fold is None else self.draw("refit_holdout", fold)

    def selection_values(self, model):
        """The seeds of a selection fit, the final model and a search run whole: the
        ``"selection"`` seed on every ``random_state`` of ``model`` left at None."""
        return _seed_unset(model, self.draw("selection"))

    def refit_values(self, model, seed):
        """The seeds of a refit with ``seed`` (one of :meth:`refit_seeds`, or None)."""
        return _seed_unset(model, seed)

    def final_values(self, model):
        """The seeds of the final model: the selection seed, whatever the probe said.
        Identical outputs of two refits on one test fold do not show that a seed changes
        nothing (a tree with ``max_features=1`` on features that each separate the classes),
        and an unseeded final model would differ from fit to fit with the same
        ``random_state``; where the seed does change nothing, it changes nothing here either."""
        return self.selection_values(model)

    def refit_plan(self, models, n_refits):
        """The :class:`RefitPlan` of the candidates' configured ``models``."""
        spaces = [_unseeded_search_spaces(model) for model in models]
        seedable = any(unset_random_state_params(m) for m in models) or any(spaces)
        refit_seeds = self.refit_seeds(n_refits) if seedable else [None]
        # a seed that draws rows always matters (*Whether seeds matter* above): no probe
        held = [m for space in spaces for grid in space.values() for m in _space_estimators(grid)]
        samples = any(unset_row_drawing_seeds(model) for model in [*models, *held])
        return RefitPlan(refit_seeds, seedable and len(refit_seeds) > 1 and not samples)

    def seed_search(self, search):
        """``search`` (run whole in each fold), its own and its estimator's unset
        ``random_state`` seeded from ``"selection"``, and so those of the estimators among the
        values of its ``param_grid`` or ``param_distributions`` (replaced by seeded clones),
        modified and returned with ``originals``: :func:`search_value_key` of each seeded clone
        -> the value given, so that the refits get the values given and seeds of their own."""
        seed = self.draw("selection")
        estimator = search.estimator
        search.set_params(estimator=estimator.set_params(**_seed_unset(estimator, seed)))
        own = search.get_params(deep=False)
        if "random_state" in own and search.random_state is None:
            search.set_params(random_state=seed)
        originals = {}
        for name in ("param_grid", "param_distributions"):
            if own.get(name) is not None:
                search.set_params(**{name: _seed_grid(own[name], seed, originals)})
        return search, originals
