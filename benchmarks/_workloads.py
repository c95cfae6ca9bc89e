"""Workloads shared by the benchmarks: a generated text corpus, a wide table, their pipelines,
and an estimator that does nothing (the engine's own cost). Nothing here imports sklearn-fair,
so a benchmark can run them against any checkout of it (``bench_before_after.py``)."""

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.compose import ColumnTransformer
from sklearn.datasets import make_classification
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler


def text_pipeline():
    return make_pipeline(
        TfidfVectorizer(sublinear_tf=True),
        TruncatedSVD(random_state=0),
        LogisticRegression(max_iter=200),
    )


def make_corpus(n_samples, vocabulary=2000, length=80):
    """Documents generated offline: make_classification's features, exponentiated, are each
    class's word rates over a Zipf-like vocabulary; every document draws ``length`` words."""
    features, y = make_classification(
        n_samples=n_samples, n_features=40, n_informative=20, flip_y=0.05, random_state=0
    )
    rng = np.random.default_rng(0)
    words = np.array([f"w{i}" for i in range(vocabulary)])
    base = 1.0 / np.arange(1, vocabulary + 1)  # Zipf
    topics = rng.dirichlet(np.full(vocabulary, 0.05), size=features.shape[1])
    docs = []
    for row in features:
        weights = np.exp(row / 2.0)
        rates = base / base.sum() + weights @ topics / weights.sum()
        docs.append(" ".join(rng.choice(words, size=length, p=rates / rates.sum())))
    return docs, y


def wide_pipeline(n_numeric=240, n_categorical=60):
    numeric = [f"x{i}" for i in range(n_numeric)]
    categorical = [f"c{i}" for i in range(n_categorical)]
    columns = ColumnTransformer(
        [
            ("num", make_pipeline(SimpleImputer(), StandardScaler()), numeric),
            ("cat", OneHotEncoder(handle_unknown="ignore"), categorical),
        ]
    )
    return make_pipeline(columns, LogisticRegression(max_iter=300))


def make_wide(n_samples, n_numeric=240, n_categorical=60):
    """A DataFrame of 300 columns: numeric ones with 5% missing, categorical ones of 5 levels."""
    X, y = make_classification(
        n_samples=n_samples, n_features=n_numeric, n_informative=30, flip_y=0.1, random_state=0
    )
    rng = np.random.default_rng(0)
    X[rng.random(X.shape) < 0.05] = np.nan
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(n_numeric)])
    for i in range(n_categorical):
        levels = np.digitize(X[:, i % 30] + rng.normal(0, 1, n_samples), [-1, -0.3, 0.3, 1])
        frame[f"c{i}"] = np.asarray(list("abcde"))[levels]
    return frame, y


class Noop(ClassifierMixin, BaseEstimator):
    """Fits nothing and scores 0: a run of it is the engine's own work."""

    def __init__(self, a=0):
        self.a = a

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        return self

    def predict(self, X):
        return np.zeros(len(X), dtype=int)

    def score(self, X, y, sample_weight=None):
        return 0.0
