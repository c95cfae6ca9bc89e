"""Warnings of benchmark's cells said once: a model's own configuration warns on every data
set in the same words, and ten data sets made ten copies of one warning."""

import itertools
import warnings
from contextlib import contextmanager

from ..utils._stacklevel import external_stacklevel

_CELL = "\0"  # where a warning names its cell, in the words it is said once in


def cell_owner(model, dataset):
    """How benchmark names a cell in its messages."""
    return f"benchmark (model {model!r} on data set {dataset!r})"


def _listed(kind, names):
    names = [repr(name) for name in names]
    if len(names) == 1:
        return f"{kind} {names[0]}"
    return f"{kind}s {', '.join(names[:-1])} and {names[-1]}"


class SaidOnce:
    """The warnings heard while benchmark's cells are planned, each said once.

    A warning of a cell that does not name it is said with the cell's name before it (so the
    warning of a data set's ``groups`` says which data set); one said in the same words for
    several cells is said once, naming them together ("benchmark (models 'lr' and 'tree' on
    data sets 'a' and 'b')"), or once per model where not every model has it on every data
    set. Nothing is lost: a warning whose words differ between cells is said for each.
    """

    def __init__(self):
        self._heard = {}  # (category, words with _CELL) -> the (model, data set) pairs

    @contextmanager
    def cell(self, model, dataset):
        """Hear the warnings raised within for the cell (``model``, ``dataset``)."""
        owner = cell_owner(model, dataset)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                yield
            finally:
                for heard in caught:
                    text = str(heard.message)
                    words = text.replace(owner, _CELL) if owner in text else f"{_CELL}: {text}"
                    pairs = self._heard.setdefault((heard.category, words), [])
                    pairs.append((model, dataset))

    def say(self):
        """Warn each warning heard once, pointing at the user's line."""
        stacklevel = external_stacklevel()
        for (category, words), pairs in self._heard.items():
            models = list(dict.fromkeys(model for model, _ in pairs))
            datasets = list(dict.fromkeys(dataset for _, dataset in pairs))
            if set(pairs) == set(itertools.product(models, datasets)):
                groups = [(models, datasets)]
            else:
                groups = [([m], list(dict.fromkeys(d for n, d in pairs if n == m))) for m in models]
            for named_models, named_datasets in groups:
                cells = (
                    f"benchmark ({_listed('model', named_models)} on "
                    f"{_listed('data set', named_datasets)})"
                )
                warnings.warn(words.replace(_CELL, cells), category, stacklevel=stacklevel)
        self._heard.clear()
