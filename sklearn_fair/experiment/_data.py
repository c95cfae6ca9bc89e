"""The data sets an experiment file can name: scikit-learn's, CSV files and TU graphs."""

import csv

import numpy as np

SKLEARN_DATASETS = ("breast_cancer", "diabetes", "digits", "iris", "wine")


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def load_csv(path, target, source):
    """Features (floats) and target of a CSV file with a header row."""
    with open(path, newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))
    if not rows or target not in rows[0]:
        raise source.error(
            ("data", "target"),
            f"the CSV file {str(path)!r} has no column {target!r}; its columns are "
            f"{rows[0] if rows else []}.",
        )
    header, rows = rows[0], rows[1:]
    column = header.index(target)
    labels = [row[column] for row in rows]
    features = []
    for line, row in enumerate(rows, start=2):
        values = [_number(cell) for i, cell in enumerate(row) if i != column]
        if any(value is None for value in values):
            raise source.error(
                ("data", "path"),
                f"line {line} of {str(path)!r} has a non-numeric feature; the runner reads "
                "numeric features only (encode the others first).",
            )
        features.append(values)
    numeric = [_number(label) for label in labels]
    if all(value is not None for value in numeric):
        y = np.array(numeric)
        y = y.astype(np.int64) if np.all(np.mod(y, 1) == 0) else y
    else:
        y = np.array(labels)
    return np.array(features, dtype=float), y


def load_data(config):
    """Return ``(X, y)`` for the config's ``[data]`` table."""
    data = config.data
    dataset = data["dataset"]
    if dataset.startswith("sklearn:"):
        import sklearn.datasets

        loader = getattr(sklearn.datasets, f"load_{dataset[len('sklearn:') :]}")
        return loader(return_X_y=True)
    if dataset == "csv":
        return load_csv(data["path"], data["target"], config.source)
    from ..graph import load_tu_dataset  # torch is imported only for graph experiments

    try:
        graphs = load_tu_dataset(
            dataset[len("tu:") :], data["root"], features=data.get("features", "auto")
        )
    except ValueError as error:
        raise config.source.error(("data", "features"), str(error)) from None
    return graphs, graphs.y
