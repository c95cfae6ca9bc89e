"""Checks of the data that ``validate_params`` cannot do (NaN, lengths), and its shared
constraints."""

import numbers
from dataclasses import asdict

import numpy as np

from ..exceptions import SplitsMismatchError
from ..utils import IntervalNotBool, install_hint
from ..utils._printing import decimals_for, interval_decimals, number

#: A confidence level or a probability, strictly between 0 and 1.
CONFIDENCE = IntervalNotBool(numbers.Real, 0, 1, closed="neither")
#: A correlation in [0, 1).
CORRELATION = IntervalNotBool(numbers.Real, 0, 1, closed="left")
POSITIVE = IntervalNotBool(numbers.Real, 0, None, closed="neither")
NON_NEGATIVE = IntervalNotBool(numbers.Real, 0, None, closed="left")
FINITE = IntervalNotBool(numbers.Real, None, None, closed="neither")  # refuses NaN and inf
COUNT = IntervalNotBool(numbers.Integral, 1, None, closed="left")
AT_LEAST_TWO = IntervalNotBool(numbers.Integral, 2, None, closed="left")


def require_stats_extra(who):
    """Raise an ImportError that says how to install pandas and statsmodels, if missing."""
    try:
        import pandas  # noqa: F401
        import statsmodels  # noqa: F401
    except ImportError as exc:  # pragma: no cover - both are in the stats extra
        raise ImportError(
            f"{who} needs pandas and statsmodels. {install_hint('stats')} (or pip install "
            "pandas statsmodels)."
        ) from exc


def float_array(values, subject, expected):
    """``values`` as a float array, or a ValueError "``subject`` must be ``expected``. Got ..."."""
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{subject} must be {expected}. Got {values!r} instead.") from exc


def check_scores(name, values, *, min_size=1, purpose="this statistic"):
    """Return ``values`` as a finite 1-D float array with at least ``min_size`` entries."""
    array = float_array(values, f"The '{name}' parameter", "a 1-D array of numbers")
    if array.ndim != 1:
        raise ValueError(
            f"The '{name}' parameter must be 1-D. Got an array of shape {array.shape} instead."
        )
    if np.isnan(array).any():
        raise ValueError(f"The '{name}' parameter contains NaN; remove it or impute it first.")
    if not np.isfinite(array).all():
        raise ValueError(f"The '{name}' parameter contains an infinite value.")
    if array.shape[0] < min_size:
        raise ValueError(
            f"The '{name}' parameter needs at least {min_size} values for {purpose}. Got "
            f"{array.shape[0]} instead."
        )
    return array


class PastLargestFloatError(ValueError):
    """A statistic of scores lies past the largest float; ``what`` names it ("their mean"), so
    that a caller can say whose scores they are."""

    def __init__(self, message, what):
        super().__init__(message)
        self.what = what


def scaled_back(value, exponent, what, subject="The 'scores' parameter holds values"):
    """``value * 2**exponent`` as a float; a PastLargestFloatError naming ``subject`` and
    ``what`` where that is past the largest float (it would be inf or NaN)."""
    with np.errstate(over="ignore"):
        result = float(np.ldexp(value, exponent))
    if not np.isfinite(result):
        raise PastLargestFloatError(
            f"{subject} so large that {what} lies past the largest float "
            f"({np.finfo(float).max:.3g}). Divide the scores by a power of 10 first.",
            what,
        )
    return result


def tie_level(value):
    """``value`` (a mean of fold scores) to 12 significant digits, as ties and ranks compare
    means: means equal but for floating-point rounding (the same scores summed in another
    order, or another split of the same total; ``0.1 + 0.2`` and ``0.3``) are equal. The one
    rule of :func:`rank_comparison` and of the reports' ties and ranks.

    Examples
    --------
    >>> import numpy as np
    >>> float(np.mean([0.7, 0.8, 0.9])) == float(np.mean([0.9, 0.7, 0.8]))
    False
    >>> tie_level(np.mean([0.7, 0.8, 0.9])) == tie_level(np.mean([0.9, 0.7, 0.8]))
    True
    """
    return float(f"{float(value):.12g}")


def tie_levels(values):
    """Each of ``values`` (an array of any shape) at :func:`tie_level`, as a float array."""
    return np.vectorize(tie_level, otypes=[float])(values)


def mean_difference(first, second):
    """``first - second`` (two means of fold scores), 0.0 where they are equal at
    :func:`tie_level`: an optimism of rounding noise (+4.4e-16) is none."""
    if tie_level(first) == tie_level(second):
        return 0.0
    return float(first - second)


def rounding_tolerance(*arrays):
    """How far apart two numbers computed from ``arrays`` can lie by rounding alone: the count
    of their values times the machine epsilon times their largest magnitude, as numpy's
    ``matrix_rank`` scales its tolerance. The one "equal up to rounding" of the stats package
    (the paired tests, :func:`multiple_comparison`'s ANOVA and Levene's test)."""
    size = sum(np.size(array) for array in arrays)
    largest = max(float(np.abs(array).max()) for array in arrays)
    return size * np.finfo(float).eps * largest


def pair_tolerances(a, b):
    """How far each difference ``a[i] - b[i]`` can lie from that of the scores as written
    (``0.81 - 0.80`` is ``0.010000000000000009``) by rounding alone, each pair held to its own
    magnitude: a data set scored near 1e12 does not make the differences of another's
    accuracies rounding. The one per-pair "equal up to rounding" of the stats package."""
    magnitude = np.maximum(np.abs(a), np.abs(b))
    return (np.size(a) + np.size(b)) * np.finfo(float).eps * magnitude


def differences_beyond_rounding(a, b):
    """``a - b``, each difference within rounding of 0 (:func:`pair_tolerances`) set to 0:
    scores equal but for rounding (``0.1 + 0.2`` and ``0.3``) do not differ, whatever the
    other pairs do."""
    differences = a - b
    differences[np.abs(differences) <= pair_tolerances(a, b)] = 0.0
    return differences


def rounding_ties_merged(a, b):
    """:func:`differences_beyond_rounding` of ``a`` and ``b``, where differences whose absolute
    values are equal up to rounding (``0.81 - 0.77`` and ``0.80 - 0.84``, ``0.040000000000000036``
    and ``-0.039999999999999925``) share one absolute value, each keeping its sign: the ties
    of the scores as written, which a signed-rank test ranks as ties.

    Two absolute values are equal up to rounding where they lie within the sum of their pairs'
    :func:`pair_tolerances`. Sorted, each run of values within that of its first value takes
    the first value (a run does not chain past rounding: 1e-16 steps do not tie 0.01 with 0.02).
    """
    differences = differences_beyond_rounding(a, b)
    tolerances = pair_tolerances(a, b)
    sizes = np.abs(differences)
    order = [i for i in np.argsort(sizes, kind="stable") if sizes[i] > 0]
    start = None
    for i in order:
        if start is None or sizes[i] - sizes[start] > tolerances[i] + tolerances[start]:
            start = i
        differences[i] = np.copysign(sizes[start], differences[i])
    return differences


def equal_differences(a, b):
    """The one value of the differences ``a - b`` where they are all equal up to rounding
    (:func:`rounding_tolerance` of ``a`` and ``b``): 0.0 where every one is within rounding of
    0 (scores equal but for rounding, ``0.1 + 0.2`` and ``0.3``), else their mean; None where
    they differ. A paired test has no spread to test these against, and rounding's spread
    would decide its statistic."""
    differences = a - b
    tolerance = rounding_tolerance(a, b)
    if np.abs(differences).max() <= tolerance:
        return 0.0
    mean = float(differences.mean())
    return mean if np.abs(differences - mean).max() <= tolerance else None


def paired_by_label(columns, *, subject, unit):
    """The values of ``columns`` (name -> array-like) paired row by row: the one rule of the
    stats package for pandas Series. Series whose labels are those of the first Series in
    another order are put in its order, as pandas aligns them (``a - b``,
    ``pandas.DataFrame(columns)``); equal indexes, or at most one Series, are paired by
    position, unchanged. A ValueError, which names ``subject`` (the parameters) and ``unit``
    (what a row is), where labels cannot pair the rows: other labels, a label twice, or
    Series of different indexes beside values of no index. By position, one row's score would
    be compared with another's."""
    values = list(columns.values())
    indexed = [(name, c.index) for name, c in columns.items() if hasattr(c, "reindex")]
    if not indexed or all(index.equals(indexed[0][1]) for _, index in indexed):
        return values
    if len(indexed) != len(values):
        raise ValueError(
            f"{subject} mixes pandas Series of different indexes with values of no index: "
            f"their scores cannot be paired by {unit}. Give each a Series of the same labels, "
            "or plain arrays in the same order."
        )
    first_name, first = indexed[0]
    for name, index in indexed[1:]:
        if not (index.is_unique and first.is_unique and set(index) == set(first)):
            raise ValueError(
                f"{subject} must hold scores of the same {unit}s: the pandas Series of "
                f"{first_name!r} and {name!r} have other labels in their indexes (or a label "
                f"twice), so their scores cannot be paired by {unit}. Give each the same "
                "labels (in any order), or plain arrays in the same order."
            )
    return [c.reindex(first) for c in values]


def stacked_by_label(columns, *, subject, unit):
    """The columns of a dict name -> scores as a ``(n, k)`` float array, paired row by row by
    :func:`paired_by_label` (what ``pandas.DataFrame(columns)`` does); a ValueError naming
    ``subject`` and the column where one is not 1-D numbers or not as long as the first."""
    paired = paired_by_label(columns, subject=subject, unit=unit)
    arrays = []
    for name, values in zip(columns, paired):
        array = float_array(
            values, f"{subject} {name!r}", f"a 1-D array of numbers (one per {unit})"
        )
        if array.ndim != 1:
            raise ValueError(
                f"{subject} {name!r} must be 1-D, one score per {unit}. Got an array of shape "
                f"{array.shape} instead."
            )
        if arrays and len(array) != len(arrays[0]):
            raise ValueError(
                f"{subject} must map each model to one score per {unit}, all of the same "
                f"length: {name!r} has {len(array)} scores, {next(iter(columns))!r} "
                f"{len(arrays[0])}."
            )
        arrays.append(array)
    return np.column_stack(arrays) if arrays else np.empty((0, 0))


def check_paired(a, b, *, min_size=2, purpose="a paired test", names=("a", "b"), unit="resample"):
    """Return ``a`` and ``b`` checked as paired score arrays of the same length, pandas Series
    paired by label (:func:`paired_by_label`); ``names`` are the parameters' names."""
    name_a, name_b = names
    a, b = paired_by_label(
        {name_a: a, name_b: b}, subject=f"The '{name_a}' and '{name_b}' parameters", unit=unit
    )
    a = check_scores(name_a, a, min_size=min_size, purpose=purpose)
    b = check_scores(name_b, b, min_size=min_size, purpose=purpose)
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"The '{name_a}' and '{name_b}' parameters must hold paired scores of the same "
            f"length (one per shared {unit}). Got {a.shape[0]} and {b.shape[0]} instead."
        )
    return a, b


class AsDict:
    """Mixin of a result dataclass: ``to_dict()``."""

    def to_dict(self):
        """Return the fields as a plain dict."""
        return asdict(self)


class LowHigh(AsDict):
    """Mixin of an interval dataclass that unpacks, indexes and measures like ``(low, high)``,
    and prints as ``95% interval [low, high] (description)``."""

    def __str__(self):
        decimals = interval_decimals(
            self.low, self.high, decimals_for([self.low, self.high], minimum=4)
        )
        low, high = number(self.low, decimals), number(self.high, decimals)
        return f"{100 * self.confidence:g}% interval [{low}, {high}] ({self.description})"

    def __iter__(self):
        return iter((self.low, self.high))

    def __getitem__(self, index):
        return (self.low, self.high)[index]

    def __len__(self):
        return 2


def check_same_splits(name_a, splits_a, name_b, splits_b, *, who="compare()", fix=None):
    """Refuse two results not scored on the same outer splits: the one rule of every paired
    comparison (``compare``, ``BenchmarkResult``'s tests, ``benchmark()``'s cells).

    ``splits_*`` are ``(train_indices, test_indices)``, one array per outer fold: the same
    number of folds and, fold by fold, the same sets of test and training rows (in any order).
    ``fix`` says how to make them agree.
    """
    (train_a, test_a), (train_b, test_b) = splits_a, splits_b
    fix = fix or "run them with the same outer cv (saved splits or the same random_state)"
    if len(test_a) != len(test_b):
        raise SplitsMismatchError(
            f"The results {name_a!r} and {name_b!r} have different numbers of outer folds "
            f"({len(test_a)} and {len(test_b)}); {who} needs the same outer splits: {fix}."
        )
    for fold, (ta, tb, ra, rb) in enumerate(zip(test_a, test_b, train_a, train_b)):
        for part, x, y in (("test", ta, tb), ("training", ra, rb)):
            if not np.array_equal(np.sort(np.asarray(x)), np.sort(np.asarray(y))):
                raise SplitsMismatchError(
                    f"The outer splits of {name_a!r} and {name_b!r} differ: outer fold {fold} "
                    f"has different {part} indices. {who} needs models scored on the same "
                    f"outer splits: {fix}."
                )
