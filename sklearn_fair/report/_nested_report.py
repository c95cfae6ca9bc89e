"""nested_cv_report: the report of models on one data set (a benchmark of one data set)."""

from sklearn.utils._param_validation import validate_params

from ..utils import fill_doc
from ._benchmark_result import BenchmarkResult
from ._results import DOCS, as_results


# BenchmarkResult.report's constraints, checked here so that an error names this function
# (where scikit-learn keeps them; without, report checks them under its own name)
@validate_params(
    {
        "results": "no_validation",
        **getattr(BenchmarkResult.report, "_skl_parameter_constraints", {}),
    },
    prefer_skip_nested_validation=True,
)
@fill_doc(DOCS)
def nested_cv_report(
    results,
    *,
    X=None,
    y=None,
    splits_file=None,
    stratified=None,
    title="Nested cross-validation report",
    confidence=0.95,
    interval="corrected_t",
    n_resamples=10_000,
    random_state=None,
):
    """Report one nested cross-validation result, or several compared on the same splits.

    The report of a :class:`~sklearn_fair.BenchmarkResult` of one data set (see
    :meth:`BenchmarkResult.report <sklearn_fair.BenchmarkResult.report>`): for each model and
    metric the test mean ± std over the outer folds, the interval of the mean and the bootstrap
    interval of the IQM, each with its method; for the metric that selected the
    hyper-parameters also the mean validation score, the optimism (validation minus test) and
    the ranking by validation beside that by test. Then each fold's selected hyper-parameters
    with the median of each numeric one. Several models are compared pairwise on the selecting
    metric with :func:`sklearn_fair.stats.compare`. Numbers are printed with their metric's
    name, a negated scikit-learn error ("neg_root_mean_squared_error") as the positive error
    ("RMSE"). The report ends with a :class:`ReproducibilityCard`.

    Parameters
    ----------
    {results}
    {card}
    title : str, default="Nested cross-validation report"
        Heading of the report.
    confidence : float, default=0.95
        Level of the intervals; the comparison decides at ``1 - confidence``.
    {interval}
    {bootstrap}

    {report}

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn_fair import NestedCV
    >>> from sklearn_fair.report import nested_cv_report
    >>> X, y = load_iris(return_X_y=True)
    >>> models = {
    ...     "logistic": NestedCV(LogisticRegression(max_iter=500), {"C": [0.1, 1.0]},
    ...                          outer_cv=3, refit=False, random_state=0),
    ...     "knn": NestedCV(KNeighborsClassifier(), {"n_neighbors": [3, 9]},
    ...                     outer_cv=3, refit=False, random_state=0),
    ... }
    >>> results = {name: model.fit(X, y) for name, model in models.items()}
    >>> report = nested_cv_report(results, X=X, y=y, n_resamples=1000)
    >>> [(row["model"], row["metric"]) for row in report.rows]
    [('logistic', 'accuracy'), ('knn', 'accuracy')]
    >>> print(report.rows[0]["ci_method"])  # the interval passed 1: clipped, and said so
    corrected resampled t (Nadeau & Bengio), 2 df, of the mean of 3 scores, test/train size
    50/100, clipped to the range [0, 1] of accuracy
    >>> report.median_params["knn"]
    {'n_neighbors': 3.0}
    >>> print(report.to_markdown())  # doctest: +ELLIPSIS
    # Nested cross-validation report
    <BLANKLINE>
    **Neither logistic nor knn is shown to be better on test accuracy over 3 paired ...**
    <BLANKLINE>
    ## Test performance
    ...
    ## Pairwise comparison
    ...
    ## Reproducibility card
    ...
    """
    models = as_results(results)
    cells = {(m.dataset, m.name): m for m in models}
    result = BenchmarkResult(cells, random_state=models[0].random_state)
    return result.report(
        title=title, confidence=confidence, interval=interval, n_resamples=n_resamples,
        random_state=random_state, X=X, y=y, splits_file=splits_file, stratified=stratified,
    )  # fmt: skip
