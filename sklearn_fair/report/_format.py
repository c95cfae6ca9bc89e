"""How a report prints numbers and names: the digits a metric needs, short parameter names."""

import math
import numbers

import numpy as np

MAX_DECIMALS = 6


def tie_level(value):
    """``value`` (a mean of fold scores) to 12 significant digits, as ties and ranks compare
    means: means equal but for floating-point rounding (the same scores summed in another
    order, or another split of the same total) are equal.

    Examples
    --------
    >>> import numpy as np
    >>> float(np.mean([0.7, 0.8, 0.9])) == float(np.mean([0.9, 0.7, 0.8]))
    False
    >>> tie_level(np.mean([0.7, 0.8, 0.9])) == tie_level(np.mean([0.9, 0.7, 0.8]))
    True
    """
    return float(f"{float(value):.12g}")


def decimals_for(values, spreads=()):
    """The decimals that show a metric's numbers to the precision their spread allows.

    Two significant digits of the smallest positive spread (a standard deviation of fold
    scores): 0.0196 gives 3 decimals (0.975 +/- 0.020), 1843 gives none (38581 +/- 1843).
    Without a positive spread, four significant digits of the largest of ``values``. Between 0
    and 6 decimals.

    Examples
    --------
    >>> decimals_for([0.9754], [0.0196]), decimals_for([38581.1628], [1843.78])
    (3, 0)
    >>> decimals_for([0.5, 0.5], [0.0, 0.0]), decimals_for([123.4], [])
    (4, 1)
    """
    spreads = np.asarray(list(spreads), dtype=float)
    spreads = spreads[np.isfinite(spreads) & (spreads > 0)]
    if spreads.size:
        decimals = 1 - math.floor(math.log10(float(spreads.min())))
    else:
        values = np.abs(np.asarray(list(values), dtype=float))
        values = values[np.isfinite(values) & (values > 0)]
        if not values.size:
            return 4
        decimals = 3 - math.floor(math.log10(float(values.max())))
    return int(min(max(decimals, 0), MAX_DECIMALS))


def _missing(value):
    if value is None:
        return True
    try:
        return not math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


#: From this magnitude on, numbers print as 1.2346e+20: a float holds about 16 significant
#: digits, and fixed notation printed every one of a score near 1e308's 309 digits.
LARGE = 1e15
#: Below this magnitude, numbers given :data:`MAX_DECIMALS` decimals (their spread asked for
#: more) print as 1.5500e-08: an error of 1e-8 printed 0.000000, and so did its interval.
SMALL = 1e-4


def _scientific(value, decimals):
    size = abs(value)
    return size >= LARGE or (0 < size < SMALL and decimals >= MAX_DECIMALS)


def number(value, decimals):
    """``value`` with ``decimals`` decimals (five significant digits from :data:`LARGE` on,
    and below :data:`SMALL` where ``decimals`` is :data:`MAX_DECIMALS`); None and NaN as
    "n/a".

    Examples
    --------
    >>> number(0.97541, 3), number(None, 3), number(7.5e307, 0), number(1.55e-8, 6)
    ('0.975', 'n/a', '7.5000e+307', '1.5500e-08')
    """
    if _missing(value):
        return "n/a"
    try:
        value = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f"{value:.4e}" if _scientific(value, decimals) else f"{value:.{decimals}f}"


def direction(metric):
    """What follows a metric's name where its direction is said (the plots' axes, the
    verdict): " (lower is better)" for an error, "" for a score."""
    return "" if metric.greater_is_better else " (lower is better)"


def failed_folds(n_failed, n_folds):
    """What a table prints for a cell whose folds failed: no mean, and how many folds failed
    (:meth:`BenchmarkResult.table <sklearn_fair.BenchmarkResult.table>` and the report's Test
    performance section say it alike).

    Examples
    --------
    >>> failed_folds(1, 3)
    'failed (1 of 3 folds)'
    """
    return f"failed ({n_failed} of {n_folds} folds)"


def signed(value, decimals):
    """Like :func:`number`, with an explicit sign (+0.012, -3)."""
    if _missing(value):
        return "n/a"
    if _scientific(float(value), decimals):
        return f"{float(value):+.4e}"
    text = f"{float(value):+.{decimals}f}"
    return "+" + text[1:] if float(text) == 0 else text


def pvalue(value):
    """A p-value with two significant digits; below 0.001 as "< 0.001"."""
    if _missing(value):
        return "n/a"
    value = float(value)
    return "< 0.001" if value < 0.001 else f"{value:.2g}"


def short_names(names):
    """Full parameter name -> its shortest unambiguous name, the pipeline step dropped.

    ``logisticregression__C`` becomes ``C``, unless another name also ends in ``__C``; then as
    many trailing parts are kept as make it unique.

    Examples
    --------
    >>> short_names(["svc__C", "logisticregression__C", "svc__gamma"])
    {'svc__C': 'svc__C', 'logisticregression__C': 'logisticregression__C', 'svc__gamma': 'gamma'}
    >>> short_names(["histgradientboostingregressor__learning_rate", "max_depth"])
    {'histgradientboostingregressor__learning_rate': 'learning_rate', 'max_depth': 'max_depth'}
    """
    names = list(dict.fromkeys(map(str, names)))
    parts = {name: name.split("__") for name in names}
    short = {}
    for name in names:
        for keep in range(1, len(parts[name]) + 1):
            candidate = "__".join(parts[name][-keep:])
            clashes = [
                other
                for other in names
                if other != name and "__".join(parts[other][-keep:]) == candidate
            ]
            if not clashes and candidate not in short.values():
                short[name] = candidate
                break
        else:
            short[name] = name
    return short


def param_text(value):
    """A selected hyper-parameter's value as Python prints it (``None``, ``sqrt``, ``0.1``),
    not as JSON (``null``, ``"sqrt"``)."""
    if isinstance(value, (bool, np.bool_)) or value is None:
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return str(float(value))
    return value if isinstance(value, str) else repr(value)


def param_columns(best_params):
    """Each hyper-parameter selected in a fold (sorted by name) -> its value in every fold
    (None where the fold selected none): the one reading of ``best_params`` per parameter."""
    params = [p or {} for p in best_params]
    return {n: [p.get(n) for p in params] for n in sorted({n for p in params for n in p}, key=str)}


def selection_counts(best_params):
    """Hyper-parameter -> {value (:func:`param_text`): the number of folds that selected it}."""
    counts = {}
    for name, values in param_columns(best_params).items():
        chosen = [param_text(value) for value in values]
        counts[name] = {value: chosen.count(value) for value in sorted(set(chosen))}
    return counts
