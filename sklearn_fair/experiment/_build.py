"""Estimators from their dotted names, restricted to an allow-list of packages."""

import importlib

# A config names classes, never code: only classes from these packages can be made.
ALLOWED_PREFIXES = ("sklearn.", "imblearn.", "sklearn_fair.")


def import_class(dotted, source, key):
    """Import the class ``dotted`` ("package.module.Class") from an allowed package."""
    if not isinstance(dotted, str) or not dotted.startswith(ALLOWED_PREFIXES):
        raise source.error(
            key,
            f"{dotted!r} is not an allowed class; give the dotted name of a class from "
            f"one of the packages {', '.join(p.rstrip('.') for p in ALLOWED_PREFIXES)} "
            "(e.g. 'sklearn.linear_model.LogisticRegression').",
        )
    module_name, _, name = dotted.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise source.error(key, f"cannot import module {module_name!r}: {error}.") from None
    cls = getattr(module, name, None)
    if not isinstance(cls, type) or name.startswith("_"):
        raise source.error(key, f"{module_name!r} has no public class {name!r}.")
    return cls


def resolve_value(value, source, key):
    """A parameter value: ``{class = "..."}`` is a class, ``{estimator = "..."}`` an instance."""
    if isinstance(value, dict):
        if set(value) == {"class"}:
            return import_class(value["class"], source, key + ("class",))
        if "estimator" in value and set(value) <= {"estimator", "params"}:
            return make_estimator(value["estimator"], value.get("params", {}), source, key)
        return {name: resolve_value(item, source, key + (name,)) for name, item in value.items()}
    if isinstance(value, list):
        return [resolve_value(item, source, key) for item in value]
    return value


def make_estimator(dotted, params, source, key):
    """Instantiate the allowed class ``dotted`` with ``params`` (values resolved)."""
    cls = import_class(dotted, source, key + ("estimator",))
    if not isinstance(params, dict):
        raise source.error(key + ("params",), f"must be a table; got {params!r}.")
    resolved = {
        name: resolve_value(v, source, key + ("params", name)) for name, v in params.items()
    }
    try:
        estimator = cls(**resolved)
    except TypeError as error:
        raise source.error(
            key + ("params",), f"{dotted} rejects these parameters: {error}."
        ) from None
    if not hasattr(estimator, "get_params"):
        raise source.error(
            key + ("estimator",), f"{dotted} is not a scikit-learn estimator (no get_params)."
        )
    return estimator
