"""The fits that identical tasks spare: a run fits each distinct task once (NestedCV's task
cache names them), so two models that share a candidate on the same data and splits, a data
set listed twice, one model's candidate listed twice in its grid, or one model's outer folds
whose inner splits repeat (cumulative time-ordered folds), fit it once. Selection tasks are
known before the run; a refit is shared only where the models' winners coincide, so the count
is the most it can spare: the fewest distinct refits that can give every model one of its
candidates'."""

from dataclasses import dataclass
from itertools import count

from ...model_selection._engine import UnhashableError, task_names
from ...utils import fingerprint
from ...utils._provenance import Describer, canonical_json

__all__ = ["SharedFits", "shared_fits"]

#: components of more sets than this get one refit each (a lower bound) instead of the
#: exact fewest (a search over 2 ** sets states)
EXACT_SETS = 12

#: the most task names :func:`shared_fits` builds (naming a task as the run's cache key does
#: costs a fraction of a millisecond); above this, the fits identical tasks spare are not
#: counted
MAX_NAMED = 100_000


@dataclass
class SharedFits:
    """Fits that identical tasks spare, over the whole experiment.

    Attributes
    ----------
    selection : int
        Selection fits identical to another (another model's, or another outer fold's of
        the same model): each distinct task is fitted once.
    refits : int
        The most refits spared, where the models' winners coincide.
    not_counted : int
        The tasks that counting them would have named, where more than :data:`MAX_NAMED`
        (then ``selection`` and ``refits`` are 0: not counted); 0 where they were counted.
    """

    selection: int = 0
    refits: int = 0
    not_counted: int = 0


def _fewest_slots(plan):
    """The refits ``plan`` (a ModelPlan) makes at the fewest: ``(fold, seed index)``."""
    n_folds = len(plan.outer)
    n_refits = 2 if plan.probe else plan.n_refits  # a fold whose first two agree keeps two
    return [(fold, index) for fold in range(n_folds) for index in range(n_refits)]


def _n_named(plan):
    """The names :func:`task_names` builds for ``plan`` (a ModelPlan): its selection tasks,
    and one refit per candidate in each of its fewest refit slots."""
    return plan.selection_fits + len(_fewest_slots(plan)) * plan.n_candidates


def _fewest_names(sets):
    """The fewest names that hit every set of ``sets`` (each: the refits a model may make in
    one slot), exact for components of up to EXACT_SETS sets, else one per component."""
    parent = {}

    def root(name):
        while parent[name] != name:
            parent[name] = name = parent[parent[name]]
        return name

    for names in sets:
        names = list(names)
        for name in names:
            parent.setdefault(name, name)
        for name in names[1:]:
            parent[root(name)] = root(names[0])
    components = {}
    for names in sets:
        components.setdefault(root(next(iter(names))), []).append(names)
    return sum(_exact(part) if len(part) <= EXACT_SETS else 1 for part in components.values())


def _exact(sets):
    """The fewest names hitting every set: breadth first over the sets hit so far."""
    masks = {}
    for bit, names in enumerate(sets):
        for name in names:
            masks[name] = masks.get(name, 0) | 1 << bit
    full, reached = (1 << len(sets)) - 1, {0}
    for steps in count(1):
        reached = {hit | mask for hit in reached for mask in set(masks.values())}
        if full in reached:
            return steps


def _same_data(data):
    """What two plans' data must share for a task to be shared: their content where read
    (the run's cache key hashes it), else the one object a data set listed twice reads."""
    if data.complete:
        return fingerprint(data.X), fingerprint(data.y)
    return id(data)


def _inner_splits_repeat(nested_plan):
    """Whether an inner split comes back in another outer fold (cumulative time-ordered folds:
    each fold's training rows hold the last's), so that one model's tasks repeat."""
    seen = set()
    for splits in nested_plan.inner_splits.values():
        for train, test in splits:
            split = (bytes(memoryview(train)), bytes(memoryview(test)))
            if split in seen:
                return True
            seen.add(split)
    return False


def _candidates_repeat(nested_plan):
    """Whether two of one model's candidates are the same (a grid that lists a value twice,
    ``[{"C": [0.1, 1.0]}, {"C": [1.0, 10.0]}]``), described as the run's cache key describes
    a task's parameters, so that its tasks repeat."""
    describer, seen = Describer(), set()
    for candidate in nested_plan.candidates:
        try:
            described = canonical_json(describer.describe(candidate))
        except UnhashableError:  # the run does not cache it: it shares nothing
            return False
        if described in seen:
            return True
        seen.add(described)
    return False


def shared_fits(plans, loaded):
    """The :class:`SharedFits` of ``plans`` ((data set, model) -> ModelPlan, the same object
    for the same data and protocol), ``loaded`` the data sets' Data; not counted where that
    would name more than :data:`MAX_NAMED` tasks."""
    # only plans of one estimator class on the same data can share a task: the others are
    # not named (describing every task costs as much as planning it)
    groups, same_data = {}, {}
    for (dataset, _), plan in plans.items():
        if plan.whole_search or plan.nested_plan is None:
            continue
        data = loaded[dataset]
        if id(data) not in same_data:
            same_data[id(data)] = _same_data(data)
        kind = (type(plan.nested_plan.estimator), same_data[id(data)])
        groups.setdefault(kind, []).append((plan, data))
    # groups whose tasks may repeat: several plans, or one whose candidates or splits repeat
    groups = [
        group
        for group in groups.values()
        if len(group) > 1
        or _inner_splits_repeat(group[0][0].nested_plan)
        or _candidates_repeat(group[0][0].nested_plan)
    ]
    to_name = {id(plan): plan for group in groups for plan, _ in group}
    n_named = sum(_n_named(plan) for plan in to_name.values())
    if n_named > MAX_NAMED:
        return SharedFits(not_counted=n_named)
    # entries: (selection names, refit sets, fewest refits) of each (data set, model)
    entries, named = [], {}
    for group in groups:
        for plan, data in group:
            if id(plan) not in named:
                unread = None if data.complete else f"unread data {id(data)}"
                try:
                    named[id(plan)] = task_names(
                        plan.nested_plan, _fewest_slots(plan), data_name=unread
                    )
                except UnhashableError:  # the run does not cache it: it shares nothing
                    named[id(plan)] = None
            if named[id(plan)] is not None:
                selection, refits = named[id(plan)]
                entries.append((selection, [names for names in refits if names], plan.min_refits))
    selection = [name for names, _, _ in entries for name in names]
    sets = [names for _, slots, _ in entries for names in slots]
    # each plan's fewest refits count a candidate that no seed reaches once per fold (its
    # slots' names are one): what is spared is the rest
    fewest = sum(refits for _, _, refits in entries)
    return SharedFits(len(selection) - len(set(selection)), fewest - _fewest_names(sets))
