"""GraphClassifier: a skorch net that trains a graph-level torch module on PyG graphs."""

import inspect
import numbers

import numpy as np
import torch
from sklearn.base import ClassifierMixin
from sklearn.metrics import accuracy_score
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.utils import check_random_state
from skorch import NeuralNet
from skorch.callbacks import Callback, EarlyStopping, EpochTimer, PassthroughScoring, PrintLog
from torch.utils.data import Dataset, Subset
from torch_geometric.data import Data
from torch_geometric.loader import DataLoader

from ..utils import read_graph_labels

__all__ = ["GraphClassifier"]

_MONITORS = ("valid_acc", "valid_loss")
# Parameters of a module that GraphClassifier fills in from the training graphs.
_INFERRED = ("in_channels", "out_channels")
_OPTIONAL_INFERRED = ("edge_dim", "node_counts")


class _GraphDataset(Dataset):
    """Graphs with one encoded class index each; items are ``(Data, label)`` pairs."""

    def __init__(self, graphs, labels):
        self.graphs = graphs
        self.labels = labels

    def __len__(self):
        return len(self.graphs)

    def __getitem__(self, index):
        return self.graphs[index], self.labels[index]


class _ValidAccuracy(Callback):
    """Record ``valid_acc`` from the validation forward passes skorch already makes."""

    def on_epoch_begin(self, net, **kwargs):
        self.correct_, self.total_ = 0, 0

    def on_batch_end(self, net, batch, training, **kwargs):
        if training:
            return
        y_pred = kwargs["y_pred"]
        y_pred = y_pred[0] if isinstance(y_pred, tuple) else y_pred
        self.correct_ += int((y_pred.argmax(dim=1).cpu() == batch[1].cpu()).sum())
        self.total_ += len(batch[1])

    def on_epoch_end(self, net, dataset_valid=None, **kwargs):
        if self.total_:
            net.history.record("valid_acc", self.correct_ / self.total_)


def _as_graph_list(X):
    """Return the graphs of ``X`` as a list of ``Data`` objects, checking their node features."""
    if isinstance(X, _GraphDataset):
        return X.graphs
    if isinstance(X, Data):
        raise TypeError(
            "X must be a sequence of graphs (a PyG dataset, a list or a numpy object array of "
            "Data objects), not a single Data object; wrap it in a list."
        )
    try:
        graphs = [X[index] for index in range(len(X))]
    except TypeError as exc:
        raise TypeError(
            "X must be a sequence of graphs (a PyG dataset, a list or a numpy object array of "
            f"Data objects). Got {type(X).__name__} instead."
        ) from exc
    if not graphs:
        raise ValueError("X holds no graphs; GraphClassifier needs at least one graph.")
    for index, graph in enumerate(graphs):
        if not isinstance(graph, Data):
            raise TypeError(
                f"Graph {index} of X is a {type(graph).__name__}, not a torch_geometric Data "
                "object; X must be a sequence of Data objects."
            )
        if graph.x is None:
            raise ValueError(
                f"Graph {index} of X has no node-feature matrix 'x'. Graphs without node "
                "features (e.g. the social TU data sets) need a feature scheme: load them with "
                "load_tu_dataset(name, root, features='constant') for a constant 1 per node, "
                "features='degree' for the node degree, or features='one-hot-degree'."
            )
        _check_graph(index, graph)
    return graphs


def _check_graph(index, graph):
    """Refuse a graph that would train silently on nothing or on NaN: no nodes, bad values."""
    n_nodes = graph.x.size(0)
    if n_nodes == 0:
        raise ValueError(
            f"Graph {index} of X has no nodes (its 'x' has shape {tuple(graph.x.shape)}); "
            "every graph needs at least one node."
        )
    if graph.x.is_floating_point() and not bool(torch.isfinite(graph.x).all()):
        raise ValueError(
            f"Graph {index} of X has NaN or infinite node features in 'x'; remove or impute them."
        )
    edge_index = graph.edge_index
    if edge_index is not None and edge_index.numel():
        low, high = int(edge_index.min()), int(edge_index.max())
        if low < 0 or high >= n_nodes:
            raise ValueError(
                f"Graph {index} of X has an 'edge_index' entry out of range for its {n_nodes} "
                f"nodes (entries span {low} to {high})."
            )


def _graph_labels(graphs):
    """The graphs' labels; one tensor concatenation when every ``y`` is a one-value tensor."""
    try:
        labels = torch.cat([graph.y.reshape(-1) for graph in graphs])
    except (AttributeError, TypeError, RuntimeError):
        labels = None
    if labels is None or len(labels) != len(graphs):
        return read_graph_labels(graphs)  # the slow path, with its error messages
    return labels.cpu().numpy()


def _check_in_range(name, value, low, high, accepted, *, allow_none=False):
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not low < value < high:
        raise ValueError(
            f"The '{name}' parameter of GraphClassifier must be {accepted}. Got {value!r} instead."
        )


class GraphClassifier(ClassifierMixin, NeuralNet):
    """Graph classifier: a PyTorch Geometric model trained by skorch, as a scikit-learn estimator.

    ``X`` is a sequence of graphs: a PyTorch Geometric dataset, a list of ``Data``
    objects, or a numpy object array of them (what scikit-learn's indexing produces
    inside cross-validation). The module is given as a class plus ``module__*``
    parameters, so :func:`~sklearn.base.clone` and every refit start from fresh weights;
    its input size and the number of classes are read from the training graphs in
    :meth:`fit` and passed as ``in_channels`` and ``out_channels``.

    Training follows Errica et al. (ICLR 2020): mini-batches of graphs merged by PyG's
    batching, a stratified validation split held out from the training graphs, and early
    stopping after ``patience`` epochs without improvement of the monitored validation
    score, restoring the weights of the best epoch.

    Parameters
    ----------
    module : type
        A :class:`torch.nn.Module` class whose ``__init__`` takes ``in_channels`` and
        ``out_channels`` and whose ``forward`` takes a PyG ``Batch`` and returns one row of
        logits per graph, e.g. :class:`~sklearn_fair.graph.GIN`. If ``__init__`` also takes
        ``edge_dim`` (number of edge features, ``None`` without ``edge_attr``) or
        ``node_counts`` (array of the training graphs' node counts), they are filled in too.
        A module may set a tensor attribute ``auxiliary_loss`` in ``forward``; it is added
        to the training loss (DiffPool's regularisers).
    criterion : type, default=torch.nn.CrossEntropyLoss
        Loss on the logits.
    optimizer : type, default=torch.optim.Adam
        Optimizer class; set its parameters with ``optimizer__*`` (e.g.
        ``optimizer__weight_decay``).
    lr : float, default=0.001
        Learning rate.
    max_epochs : int, default=100
        Maximum number of training epochs.
    batch_size : int, default=32
        Number of graphs per mini-batch.
    patience : int or None, default=10
        Stop after this many epochs without improvement of ``monitor`` and restore the
        weights of the best epoch. ``None`` trains for ``max_epochs`` and keeps the last
        weights. Ignored when ``validation_fraction`` is ``None``.
    monitor : {"valid_acc", "valid_loss"}, default="valid_acc"
        Validation score for early stopping (the paper tuned this choice).
    validation_fraction : float or None, default=0.1
        Fraction of the training graphs held out, stratified by class, for early
        stopping. ``None`` trains on all graphs without validation.
    random_state : int, RandomState instance or None, default=None
        Seeds, inside :meth:`fit`, the weight initialisation and dropout (torch), the
        order of the training graphs, and the validation split: the same seed gives the
        same predictions. The global torch random state is restored after :meth:`fit`.
    device : str or torch.device, default="cpu"
        Device to train and predict on, e.g. ``"cuda"``.
    verbose : int, default=0
        Print one line per epoch when positive.
    **kwargs
        Further skorch parameters: ``module__*`` (the module's hyper-parameters),
        ``optimizer__*``, ``callbacks`` (e.g. a learning-rate scheduler),
        ``iterator_train__*`` and ``iterator_valid__*``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels seen in :meth:`fit`.
    num_node_features_ : int
        Number of node features of the training graphs.
    num_edge_features_ : int or None
        Number of edge features (``edge_attr`` columns), ``None`` without edge features.
    node_counts_ : ndarray of shape (n_graphs,)
        Number of nodes of each training graph.
    module_ : torch.nn.Module
        The trained module.
    history_ : skorch.History
        Losses and validation scores per epoch.

    See Also
    --------
    sklearn_fair.graph.load_tu_dataset : TU data sets with the paper's node features.
    sklearn_fair.graph.PAPER_GRIDS : The paper's search spaces for each model.

    Examples
    --------
    >>> from sklearn_fair.graph import GraphClassifier, DeepMultisets, load_mutag
    >>> graphs = load_mutag()
    >>> clf = GraphClassifier(DeepMultisets, module__hidden_units=16, max_epochs=2,
    ...                       random_state=0)
    >>> clf = clf.fit(graphs[:40])          # labels are read from the graphs
    >>> clf.classes_
    array([0, 1])
    >>> clf.predict(graphs[40:45]).shape
    (5,)
    >>> 0.0 <= clf.score(graphs[40:80]) <= 1.0
    True
    """

    def __init__(
        self,
        module,
        *,
        criterion=torch.nn.CrossEntropyLoss,
        optimizer=torch.optim.Adam,
        lr=0.001,
        max_epochs=100,
        batch_size=32,
        patience=10,
        monitor="valid_acc",
        validation_fraction=0.1,
        random_state=None,
        device="cpu",
        verbose=0,
        **kwargs,
    ):
        kwargs.setdefault("iterator_train", DataLoader)
        kwargs.setdefault("iterator_valid", DataLoader)
        kwargs.setdefault("train_split", None)
        super().__init__(
            module,
            criterion,
            optimizer=optimizer,
            lr=lr,
            max_epochs=max_epochs,
            batch_size=batch_size,
            device=device,
            verbose=verbose,
            **kwargs,
        )
        self.patience = patience
        self.monitor = monitor
        self.validation_fraction = validation_fraction
        self.random_state = random_state

    # -- scikit-learn entry points -------------------------------------------------------------

    def fit(self, X, y=None, **fit_params):
        """Train a freshly initialised module on the graphs ``X``.

        Parameters
        ----------
        X : sequence of torch_geometric.data.Data
            Training graphs, each with a node-feature matrix ``x``.
        y : array-like of shape (n_graphs,), default=None
            Class labels; ``None`` reads them from the graphs' ``y``.
        **fit_params : dict
            Passed to the module's ``forward``.

        Returns
        -------
        self : GraphClassifier
            The fitted classifier.
        """
        self._check_params()
        graphs = _as_graph_list(X)
        labels = _graph_labels(graphs) if y is None else np.asarray(y).reshape(-1)
        if len(labels) != len(graphs):
            raise ValueError(
                f"X holds {len(graphs)} graphs but y holds {len(labels)} labels; "
                "they must have the same length."
            )
        if labels.dtype.kind == "f" and not np.isfinite(labels).all():
            where = np.flatnonzero(~np.isfinite(labels))[:10].tolist()
            raise ValueError(f"y contains NaN or infinite labels, at indices {where}.")
        self.classes_, encoded = np.unique(labels, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(
                f"GraphClassifier needs graphs of at least 2 classes; got only {self.classes_}."
            )
        self._set_data_attributes(graphs)

        rng = check_random_state(self.random_state)
        torch_seed, split_seed, order_seed = rng.randint(np.iinfo(np.int32).max, size=3)
        self.seeds_ = {"split": int(split_seed), "order": int(order_seed)}
        dataset = _GraphDataset(graphs, torch.as_tensor(encoded, dtype=torch.long))
        with torch.random.fork_rng(devices=self._rng_devices()):
            torch.manual_seed(int(torch_seed))
            super().fit(dataset, encoded, **fit_params)
        return self

    def predict(self, X):
        """Predict the class of each graph.

        Parameters
        ----------
        X : sequence of torch_geometric.data.Data
            Graphs with the same node features as the training graphs.

        Returns
        -------
        y_pred : ndarray of shape (n_graphs,)
            Predicted labels, taken from ``classes_``.
        """
        return self.classes_[self.predict_proba(X).argmax(axis=1)]

    def predict_proba(self, X):
        """Predict class probabilities (softmax of the module's logits).

        Parameters
        ----------
        X : sequence of torch_geometric.data.Data
            Graphs with the same node features as the training graphs.

        Returns
        -------
        proba : ndarray of shape (n_graphs, n_classes)
            Columns in the order of ``classes_``.
        """
        return super().predict_proba(X)

    def score(self, X, y=None, sample_weight=None):
        """Accuracy on the graphs ``X``.

        Parameters
        ----------
        X : sequence of torch_geometric.data.Data
            Test graphs.
        y : array-like of shape (n_graphs,), default=None
            True labels; ``None`` reads them from the graphs' ``y``.
        sample_weight : array-like of shape (n_graphs,), default=None
            Sample weights.

        Returns
        -------
        score : float
            Fraction of correctly classified graphs.
        """
        if y is None:
            y = _graph_labels(_as_graph_list(X))
        return accuracy_score(y, self.predict(X), sample_weight=sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.target_tags.required = False
        tags.non_deterministic = self.random_state is None
        return tags

    # -- validation and data facts -------------------------------------------------------------

    def _check_params(self):
        if not (inspect.isclass(self.module) and issubclass(self.module, torch.nn.Module)):
            raise TypeError(
                "The 'module' parameter of GraphClassifier must be a torch.nn.Module class "
                "(not an instance, so that clone and every refit start from fresh weights). "
                f"Got {self.module!r} instead."
            )
        given = sorted(set(_INFERRED) & set(self.get_params_for("module")))
        if given:
            raise ValueError(
                f"GraphClassifier infers {given} from the training graphs; do not pass "
                f"{['module__' + name for name in given]}."
            )
        for name, value, accepted in (
            ("max_epochs", self.max_epochs, "an int >= 1"),
            ("batch_size", self.batch_size, "an int >= 1, or -1 for all graphs in one batch"),
        ):
            if (
                isinstance(value, bool)
                or not isinstance(value, numbers.Integral)
                or not (value >= 1 or (name == "batch_size" and value == -1))
            ):
                raise ValueError(
                    f"The '{name}' parameter of GraphClassifier must be {accepted}. "
                    f"Got {value!r} instead."
                )
        if self.monitor not in _MONITORS:
            raise ValueError(
                f"The 'monitor' parameter of GraphClassifier must be one of {list(_MONITORS)}. "
                f"Got {self.monitor!r} instead."
            )
        if self.patience is not None and (
            isinstance(self.patience, bool)
            or not isinstance(self.patience, numbers.Integral)
            or self.patience < 1
        ):
            raise ValueError(
                "The 'patience' parameter of GraphClassifier must be a positive int or None. "
                f"Got {self.patience!r} instead."
            )
        _check_in_range(
            "validation_fraction",
            self.validation_fraction,
            0,
            1,
            "a float in the open interval (0, 1) or None",
            allow_none=True,
        )
        if self.train_split is not None:
            raise ValueError(
                "GraphClassifier makes its own stratified validation split; set "
                "'validation_fraction' instead of 'train_split'. "
                f"Got train_split={self.train_split!r}."
            )

    def _set_data_attributes(self, graphs):
        widths = {graph.x.size(1) if graph.x.dim() == 2 else 1 for graph in graphs}
        if len(widths) != 1:
            raise ValueError(
                f"The graphs of X have node-feature matrices of different widths {sorted(widths)};"
                " every graph needs the same node features."
            )
        self.num_node_features_ = widths.pop()
        edge_widths = {
            graph.edge_attr.size(1) if graph.edge_attr.dim() == 2 else 1
            for graph in graphs
            if graph.edge_attr is not None
        }
        self.num_edge_features_ = max(edge_widths) if edge_widths else None
        self.node_counts_ = np.array([graph.num_nodes for graph in graphs])

    def _rng_devices(self):
        device = torch.device(self.device) if self.device is not None else torch.device("cpu")
        if device.type == "cuda":
            return [device.index if device.index is not None else torch.cuda.current_device()]
        return []

    # -- skorch hooks --------------------------------------------------------------------------

    @property
    def _default_callbacks(self):
        callbacks = [
            ("epoch_timer", EpochTimer()),
            ("train_loss", PassthroughScoring(name="train_loss", on_train=True)),
        ]
        if self.validation_fraction is not None:
            callbacks += [
                ("valid_loss", PassthroughScoring(name="valid_loss")),
                ("valid_acc", _ValidAccuracy()),
            ]
            if self.patience is not None:
                stopper = EarlyStopping(
                    monitor=self.monitor,
                    patience=self.patience,
                    lower_is_better=self.monitor == "valid_loss",
                    threshold=0.0,
                    threshold_mode="abs",
                    load_best=True,
                )
                callbacks.append(("early_stopping", stopper))
        callbacks.append(("print_log", PrintLog()))
        return callbacks

    def initialize_module(self):
        """Build the module from ``module__*`` plus the sizes read from the training graphs."""
        kwargs = dict(self.get_params_for("module"))
        kwargs["in_channels"] = self.num_node_features_
        kwargs["out_channels"] = len(self.classes_)
        accepted = inspect.signature(self.module).parameters
        data_facts = {"edge_dim": self.num_edge_features_, "node_counts": self.node_counts_}
        for name in _OPTIONAL_INFERRED:
            if name in accepted and name not in kwargs:
                kwargs[name] = data_facts[name]
        self.module_ = self.initialized_instance(self.module, kwargs)
        return self

    def get_dataset(self, X, y=None):
        if isinstance(X, _GraphDataset) or (
            isinstance(X, Subset) and isinstance(X.dataset, _GraphDataset)
        ):
            return X
        graphs = _as_graph_list(X)
        width = graphs[0].x.size(1) if graphs[0].x.dim() == 2 else 1
        if width != self.num_node_features_:
            raise ValueError(
                f"X has {width} node features, but GraphClassifier was fitted on graphs with "
                f"{self.num_node_features_}."
            )
        return _GraphDataset(graphs, torch.zeros(len(graphs), dtype=torch.long))

    def get_split_datasets(self, X, y=None, **fit_params):
        dataset = self.get_dataset(X, y)
        if self.validation_fraction is None:
            return dataset, None
        splitter = StratifiedShuffleSplit(
            n_splits=1, test_size=self.validation_fraction, random_state=self.seeds_["split"]
        )
        try:
            train, valid = next(splitter.split(np.zeros((len(y), 1)), y))
        except ValueError as exc:
            raise ValueError(
                f"GraphClassifier could not hold out a stratified validation split "
                f"(validation_fraction={self.validation_fraction}) from {len(y)} training "
                f"graphs: {exc} Use more graphs, a larger validation_fraction, or "
                "validation_fraction=None (no early stopping)."
            ) from exc
        return Subset(dataset, train), Subset(dataset, valid)

    def get_iterator(self, dataset, training=False):
        if training:
            kwargs = self.get_params_for("iterator_train")
            kwargs.setdefault("shuffle", True)
            if kwargs["shuffle"] and "generator" not in kwargs:
                # skorch builds the training iterator once per fit; a generator seeded from
                # random_state makes the graph order of every epoch reproducible.
                kwargs["generator"] = torch.Generator().manual_seed(self.seeds_["order"])
            iterator = self.iterator_train
        else:
            kwargs = self.get_params_for("iterator_valid")
            iterator = self.iterator_valid
        kwargs.setdefault("batch_size", self.batch_size)
        if kwargs["batch_size"] == -1:
            kwargs["batch_size"] = len(dataset)
        return iterator(dataset, **kwargs)

    def get_loss(self, y_pred, y_true, X=None, training=False):
        loss = super().get_loss(y_pred, y_true, X=X, training=training)
        auxiliary = getattr(self.module_, "auxiliary_loss", None)
        if auxiliary is not None:
            # Consume it: a stale tensor would keep the graph alive and block pickling.
            self.module_.auxiliary_loss = None
            if training:
                loss = loss + auxiliary
        return loss

    def run_single_epoch(self, iterator, training, prefix, step_fn, **fit_params):
        # skorch reads the batch size with len(), which for a PyG Batch counts attributes.
        if iterator is None:
            return
        batch_count = 0
        for batch in iterator:
            self.notify("on_batch_begin", batch=batch, training=training)
            step = step_fn(batch, **fit_params)
            self.history.record_batch(prefix + "_loss", step["loss"].item())
            self.history.record_batch(prefix + "_batch_size", int(batch[0].num_graphs))
            self.notify("on_batch_end", batch=batch, training=training, **step)
            batch_count += 1
        self.history.record(prefix + "_batch_count", batch_count)
