"""Estimators, splitters and pipelines built from the tables of an experiment file."""

import importlib

from ._imports import ALLOWED_PACKAGES, CLASS_PLACES, file_parameters, import_class
from ._text import shown

__all__ = ["Builder", "GRID_PRESETS", "refused"]

# A ``{ KIND = "dotted.Name", params = { ... } }`` table builds an instance of that kind.
_INSTANCE_KINDS = ("estimator", "splitter", "callback")


def refused(name, value):
    """Why the parameter ``name`` (its last part after ``__``) may not be ``value`` in an
    experiment file, or None: settings that make an estimator write or read files where the
    file says. joblib's ``memory`` and NestedCV's ``cache_dir`` write a cache and unpickle
    what they find there; a text vectorizer's ``input="filename"`` opens every path that the
    data name."""
    last = name.rsplit("__", 1)[-1]
    if last in ("memory", "cache_dir") and value not in (None, False):
        return (
            "it makes the estimator write a cache folder where the file says, and read back "
            "what it finds there"
        )
    if last == "input" and value in ("filename", "file"):
        return "it makes the estimator open the files that the data name"
    return None


#: The named grids an experiment file may use as ``grid_preset = "MAPPING:NAME"``.
GRID_PRESETS = ("sklearn_fair.graph.PAPER_GRIDS", "sklearn_fair.graph.SMALL_GRIDS")


class Builder:
    """Builds objects from the values of ``source`` (a ConfigSource), each class checked
    before use."""

    def __init__(self, source, allowed=ALLOWED_PACKAGES):
        self.source, self.allowed = source, tuple(allowed)

    def error(self, key, message):
        return self.source.error(key, message)

    def value(self, value, key):
        """A parameter value; ``{ none = true }`` is None (TOML has no null), and
        ``{ class = ... }`` and instance tables are built."""
        if isinstance(value, dict) and set(value) == {"none"} and value["none"] is True:
            return None
        if isinstance(value, dict):
            kinds = [kind for kind in _INSTANCE_KINDS if kind in value]
            if set(value) == {"class"}:
                return self.class_value(value["class"], key)
            # (a grid { estimator = [...] } is a table of lists, not an instance)
            named = len(kinds) == 1 and isinstance(value[kinds[0]], str)
            if named and set(value) <= {kinds[0], "params"}:
                return self.instance(kinds[0], value[kinds[0]], value.get("params", {}), key)
            if named:  # { estimator = "...", parms = ... }: a misspelt instance, not a table
                others = sorted(set(value) - {kinds[0], "params"})
                raise self.error(
                    key,
                    f"a table with {kinds[0]!r} builds an instance and has only the keys "
                    f"{kinds[0]!r} and 'params'; got also {', '.join(map(shown, others))}.",
                )
            return {name: self.value(item, key + (name,)) for name, item in value.items()}
        if isinstance(value, list):
            return [self.value(item, key) for item in value]
        return value

    def class_value(self, dotted, key):
        """The class ``dotted`` given as the parameter at ``key``: one of the kind that its
        place takes (:data:`CLASS_PLACES`), whose constructor names no file or folder."""
        place = str(key[-1]).rsplit("__", 1)[-1] if key else ""
        if place not in CLASS_PLACES:
            raise self.error(
                key + ("class",),
                f"{shown(place)} cannot be a class: a {{ class = ... }} value is taken only by "
                f"the parameters {', '.join(CLASS_PLACES)} (a skorch net's, which builds it).",
            )
        cls = import_class(
            dotted,
            self.source,
            key + ("class",),
            kinds=(CLASS_PLACES[place],),
            allowed=self.allowed,
        )
        named = file_parameters(cls)
        if named:
            raise self.error(
                key + ("class",),
                f"{dotted} is refused in an experiment file: its {', '.join(map(repr, named))} "
                "names a place in the file system that it reads or writes.",
            )
        return cls

    def instance(self, kind, dotted, params, key):
        """An instance of the allowed class ``dotted`` of ``kind``, with ``params`` built."""
        cls = import_class(dotted, self.source, key + (kind,), kinds=(kind,), allowed=self.allowed)
        if not isinstance(params, dict):
            raise self.error(key + ("params",), f"must be a table; got {shown(params)}.")
        for name, value in params.items():
            why = refused(name, value)
            if why is not None:
                raise self.error(
                    key + ("params", name), f"is refused in an experiment file: {why}."
                )
        built = {name: self.value(v, key + ("params", name)) for name, v in params.items()}
        try:
            return cls(**built)
        except (TypeError, ValueError) as error:
            raise self.error(
                key + ("params",), f"{dotted} rejects these parameters: {error}."
            ) from None

    def step(self, item, key):
        """A preprocessing step: a class name, or ``{ estimator = ..., params = ... }``."""
        if isinstance(item, str):
            step = self.instance("estimator", item, {}, key)
        elif (
            isinstance(item, dict) and "estimator" in item and set(item) <= {"estimator", "params"}
        ):
            step = self.instance("estimator", item["estimator"], item.get("params", {}), key)
        else:
            raise self.error(
                key,
                "each step must be a class name or a table { estimator = ..., params = ... }; "
                f"got {shown(item)}.",
            )
        if not (hasattr(step, "transform") or hasattr(step, "fit_resample")):
            raise self.error(
                key,
                f"{type(step).__name__} cannot be a preprocessing step: it has neither "
                "transform nor fit_resample.",
            )
        return step

    def pipeline(self, steps, estimator):
        """The steps then the estimator, in imbalanced-learn's Pipeline if a step resamples
        (it runs a sampler when fitting only; scikit-learn's Pipeline refuses samplers)."""
        if any(hasattr(step, "fit_resample") for step in steps):
            from imblearn.pipeline import make_pipeline
        else:
            from sklearn.pipeline import make_pipeline
        return make_pipeline(*steps, estimator)

    def grid_preset(self, name, key):
        """A copy of the named grid ``"sklearn_fair.graph.PAPER_GRIDS:GIN"``."""
        mapping, _, entry = name.partition(":") if isinstance(name, str) else ("", "", "")
        if mapping not in GRID_PRESETS or not entry:
            raise self.error(
                key,
                f"must be 'MAPPING:NAME' with MAPPING one of {', '.join(GRID_PRESETS)}; "
                f"got {shown(name)}.",
            )
        module, _, attribute = mapping.rpartition(".")
        grids = getattr(importlib.import_module(module), attribute)
        if entry not in grids:
            raise self.error(
                key, f"{mapping} has no grid {shown(entry)}; it has {', '.join(sorted(grids))}."
            )
        grid = grids[entry]
        if isinstance(grid, list):
            return [{k: list(v) for k, v in table.items()} for table in grid]
        return {k: list(v) for k, v in grid.items()}
