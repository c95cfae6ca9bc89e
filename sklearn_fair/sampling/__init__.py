"""Samplers for data that imbalanced-learn's samplers cannot take, such as lists of graphs.

A sampler has ``fit_resample`` and no ``transform``, so imbalanced-learn's
:class:`~imblearn.pipeline.Pipeline` runs it while fitting only: it balances the training data
of every resample and never touches the data that is scored. For tabular data use
imbalanced-learn's own samplers; :class:`RandomGraphUnderSampler` does the same for graph data.
"""

from ._graph_under import RandomGraphUnderSampler

__all__ = ["RandomGraphUnderSampler"]
