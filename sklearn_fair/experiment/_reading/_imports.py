"""Classes named in an experiment file, resolved without running code from the file.

A file may come from someone else. So before anything is imported, every part of a dotted
name must be a public identifier (no ``_private``, ``__main__``, test or set-up module:
importing those runs code), its package on :data:`ALLOWED_PACKAGES` (which a file cannot
extend) and its module none of skorch's that load pretrained models by name from the Hugging
Face hub or any folder (``skorch.hf``, ``skorch.llm``); before anything is called, the
class's own module must be in an allowed package and not one of those (a re-export of
``gzip.GzipFile`` is refused) and the class of the kind its place calls for.
"""

import importlib
import inspect
import operator
import re
import sys

from ._text import shown

__all__ = ["ALLOWED_PACKAGES", "CLASS_PLACES", "KINDS", "file_parameters", "import_class"]

#: The top-level packages whose classes an experiment file may name. Extend it for one run
#: with ``run_experiment(..., allowed_packages=[...])`` or ``sklearn-fair run
#: --allow-package NAME``; a file cannot extend it.
ALLOWED_PACKAGES = ("sklearn", "imblearn", "sklearn_fair", "skorch", "torch", "torch_geometric")

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
# Modules whose import runs a program or a test suite.
_REFUSED_MODULES = {"__main__", "conftest", "setup", "tests", "testing"}
# Modules whose estimators load pretrained models and tokenizers by name (``from_pretrained``),
# from the Hugging Face hub or any folder: no check of the file's paths can bound what they read.
_UNBOUNDED_MODULES = ("skorch.hf", "skorch.llm")
# skorch callbacks that only compute; the others read or write files (Checkpoint,
# LoadInitState unpickles a file, TrainEndCheckpoint, ...).
_CALLBACKS = {
    "BatchScoring",
    "EarlyStopping",
    "EpochScoring",
    "GradientNormClipping",
    "LRScheduler",
    "PassthroughScoring",
    "WarmRestartLR",
}


def _is_estimator(cls):
    from sklearn.base import BaseEstimator

    return issubclass(cls, BaseEstimator)


def _is_splitter(cls):
    # scikit-learn's splitters share no base class (RepeatedKFold, HoldoutSplit), but all
    # have these two methods; the class also comes from an allowed package.
    return callable(getattr(cls, "split", None)) and callable(getattr(cls, "get_n_splits", None))


def _is_callback(cls):
    if "skorch" not in sys.modules:
        return False
    from skorch.callbacks import Callback

    return issubclass(cls, Callback) and cls.__name__ in _CALLBACKS


def _is_torch(base):
    """A test of subclasses of ``torch.<base>``, if torch is imported (classes that need it
    import it)."""
    return lambda cls: (
        "torch" in sys.modules and issubclass(cls, operator.attrgetter(base)(sys.modules["torch"]))
    )


#: Kind -> (test on the class, what it means in an error message).
KINDS = {
    "estimator": (_is_estimator, "a scikit-learn estimator (a BaseEstimator subclass)"),
    "splitter": (_is_splitter, "a splitter (with split and get_n_splits)"),
    "callback": (_is_callback, f"a skorch callback among {', '.join(sorted(_CALLBACKS))}"),
    "module": (_is_torch("nn.Module"), "a torch.nn.Module"),
    "optimizer": (_is_torch("optim.Optimizer"), "a torch optimizer"),
    "lr_scheduler": (
        _is_torch("optim.lr_scheduler.LRScheduler"),
        "a torch learning-rate scheduler",
    ),
    "dataset": (_is_torch("utils.data.Dataset"), "a torch Dataset"),
    "dataloader": (_is_torch("utils.data.DataLoader"), "a torch DataLoader"),
}
#: The parameters (their last part after ``__``) to which an estimator hands a class that it
#: instantiates itself (skorch's), and the kind each takes: a ``{ class = "..." }`` value
#: goes nowhere else, so a data set class cannot be a ``module``.
CLASS_PLACES = {
    "module": "module",
    "criterion": "module",
    "optimizer": "optimizer",
    "iterator_train": "dataloader",
    "iterator_valid": "dataloader",
    "dataset": "dataset",
    "policy": "lr_scheduler",
}
# Constructor parameters that name a place in the file system, which the class reads or writes
# (PyG's data sets load ``processed/*.pt`` under ``root`` with pickle; ClusterData and the
# GraphSAINT samplers under ``save_dir``).
_FILE_PARAMETERS = ("root", "save_dir", "filename", "path", "folder", "log_dir", "model_name")


def file_parameters(cls):
    """The parameters of ``cls``'s constructor that name files or folders (see above)."""
    try:
        names = inspect.signature(cls).parameters
    except (TypeError, ValueError):  # no signature to read: nothing named
        return []
    return [name for name in names if name in _FILE_PARAMETERS]


def _unbounded(module):
    """Why a class of ``module`` is refused wherever it is named, or None."""
    for refused in _UNBOUNDED_MODULES:
        if module == refused or module.startswith(refused + "."):
            return (
                f"the classes of {refused} load pretrained models and tokenizers by name, from "
                "the Hugging Face hub or any folder, which an experiment file cannot bound"
            )
    return None


def _check_name(dotted, allowed):
    """The reason ``dotted`` cannot be imported, or None; nothing is imported here."""
    if not isinstance(dotted, str) or "." not in dotted:
        return "give the dotted name of a class (e.g. 'sklearn.linear_model.LogisticRegression')"
    parts = dotted.split(".")
    for part in parts:
        if not _IDENTIFIER.match(part):
            return f"{shown(part)} is not a public name (private modules and classes are refused)"
        if part in _REFUSED_MODULES or part.startswith("test_"):
            return f"importing {shown(part)} would run a program or tests"
    if parts[0] not in allowed:
        return f"classes can only come from the packages {', '.join(allowed)}"
    return _unbounded(dotted.rpartition(".")[0])


# scikit-learn's experimental classes exist where its docs name them once the module that
# enables them is imported, which an experiment file cannot do: the same file would read in a
# process that had imported it and fail in a fresh one
_HALVING = "sklearn.experimental.enable_halving_search_cv"
_EXPERIMENTAL = {
    ("sklearn.model_selection", "HalvingGridSearchCV"): _HALVING,
    ("sklearn.model_selection", "HalvingRandomSearchCV"): _HALVING,
    ("sklearn.impute", "IterativeImputer"): "sklearn.experimental.enable_iterative_imputer",
}


def import_class(dotted, source, key, *, kinds=("estimator",), allowed=ALLOWED_PACKAGES):
    """The class ``dotted`` ("package.module.Class") of one of ``kinds``, nothing called;
    errors located at ``key`` of ``source``."""
    allowed = tuple(allowed)
    reason = _check_name(dotted, allowed)
    if reason is not None:
        raise source.error(key, f"{shown(dotted)} is not an allowed class: {reason}.")
    module_name, _, name = dotted.rpartition(".")
    try:
        module = importlib.import_module(module_name)
        if (module_name, name) in _EXPERIMENTAL:  # enabled by scikit-learn's own module
            importlib.import_module(_EXPERIMENTAL[module_name, name])
    except ImportError as error:
        hint = ""
        top = module_name.split(".")[0]
        if getattr(error, "name", None) == top and top not in ALLOWED_PACKAGES:
            hint = (
                " A package named by --allow-package (allowed_packages) must be importable: "
                "installed, or on PYTHONPATH (sklearn-fair does not import from the "
                "experiment file's folder)."
            )  # running code from the file's folder would be the file's choice, not yours
        raise source.error(
            key, f"cannot import module {shown(module_name)}: {str(error).rstrip('.')}.{hint}"
        ) from None
    try:
        cls = getattr(module, name, None)
    except ImportError as error:  # a module's __getattr__ (scikit-learn's experimental classes)
        raise source.error(
            key, f"cannot import {shown(dotted)}: {str(error).rstrip('.')}."
        ) from None
    if not inspect.isclass(cls):
        raise source.error(key, f"{shown(module_name)} has no public class {shown(name)}.")
    home = getattr(cls, "__module__", "") or ""
    if home.split(".")[0] not in allowed:
        raise source.error(
            key,
            f"{shown(dotted)} is not an allowed class: it is {home}.{cls.__qualname__}, "
            f"re-exported from a package outside {', '.join(allowed)}.",
        )
    reason = _unbounded(home)
    if reason is not None:  # re-exported from there
        raise source.error(
            key,
            f"{shown(dotted)} is not an allowed class: it is {home}.{cls.__qualname__}; {reason}.",
        )
    if not any(KINDS[kind][0](cls) for kind in kinds):
        accepted = " or ".join(KINDS[kind][1] for kind in kinds)
        raise source.error(
            key, f"{shown(dotted)} is not an allowed class here: it must be {accepted}."
        )
    return cls
