"""GraphClassifier: a skorch net that trains a graph-level torch module on PyG graphs."""

import contextlib
import copy
import inspect
import numbers
import threading
import warnings

import numpy as np
import torch
from sklearn.base import ClassifierMixin
from sklearn.metrics import accuracy_score
from sklearn.utils._param_validation import HasMethods, InvalidParameterError, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted
from skorch import NeuralNet
from skorch.callbacks import EpochScoring, EpochTimer, PassthroughScoring, PrintLog
from skorch.dataset import ValidSplit
from torch.utils.data import Subset

from ..exceptions import SklearnFairWarning
from ..utils import (
    RANDOM_STATE_CONSTRAINTS,
    IntervalNotBool,
    OptionsNotBool,
    check_parameter_constraints,
)
from ..utils._random import draw_seeds, named_generator, seed_root
from ..utils._stacklevel import external_stacklevel
from ._batching import GraphDataset, GraphLoader
from ._inputs import as_collection, read_labels
from ._stopping import ReferenceEarlyStopping

__all__ = ["GraphClassifier"]

# The seeds of a fit, each derived by its name from random_state: never rename one, it would
# change the results of every seeded fit.
_SEEDS = ("torch", "split", "order", "data")

# Parameters of a module that GraphClassifier fills in from the training graphs.
_INFERRED = ("in_channels", "out_channels")

# skorch's components that fit builds from the parameters of these names (and their ``name__*``)
_BUILDS = ("module", "criterion", "optimizer", "compile")
_UNSET = object()
# the attributes fit sets besides skorch's components (module_, criterion_, optimizer_)
_FITTED = (
    "classes_", "num_node_features_", "num_edge_features_", "node_counts_", "seeds_",
    "best_epoch_",
)  # fmt: skip


def _torch_device(device):
    """``device`` as a ``torch.device`` (None: the CPU's), read by torch; an error naming the
    parameter for a value that torch does not take (``"gpu"``), which failed in torch, later."""
    if device is None:
        return torch.device("cpu")
    if isinstance(device, torch.device):
        return device
    reason = ""
    # an int is an accelerator's index to torch (0: "cuda:0" where CUDA is)
    if isinstance(device, (str, numbers.Integral)) and not isinstance(device, bool):
        try:
            return torch.device(device)
        except RuntimeError as exc:
            reason = f" (torch: {exc})"
    raise InvalidParameterError(
        "The 'device' parameter of GraphClassifier must be a device string or an "
        "accelerator's index that torch.device takes (e.g. 'cpu', 'cuda', 'cuda:0', 0), a "
        f"torch.device or None. Got {device!r} instead{reason}."
    )


def _softmax(outputs):
    """The softmax of a batch of logits or log-probabilities; a ValueError for probabilities
    (rows >= 0 that sum to 1), whose softmax would be other probabilities, silently."""
    if (outputs >= 0).all() and torch.allclose(
        outputs.sum(dim=-1), torch.ones((), dtype=outputs.dtype), rtol=0, atol=1e-4
    ):
        raise ValueError(
            "The module's outputs are probabilities (every row >= 0 and summing to 1), and "
            "GraphClassifier.predict_proba takes the softmax of its module's outputs: they "
            "must be logits or log-probabilities. End the module without its softmax (with "
            "criterion=torch.nn.CrossEntropyLoss), or in log_softmax (with torch.nn.NLLLoss), "
            "or pass predict_nonlinearity=None to take the outputs as the probabilities."
        )
    return torch.softmax(outputs, dim=-1)


def _same(old, new):
    """Whether a parameter keeps its value (an object that cannot say counts as changed)."""
    if old is new:
        return True
    try:
        return bool(old == new)
    except Exception:  # e.g. arrays of several values
        return False


def _without_prediction(proba):
    """Which graphs (rows of the tensor ``proba``) have no prediction: a probability that is
    NaN or +inf (the softmax of NaN or +inf outputs, e.g. of diverged weights, or of sums
    that overflow on large graphs), or -inf for every class, where argmax would call the graph
    classes_[0]. A -inf beside finite values is a log-probability of 0, which a user's
    ``predict_nonlinearity`` may return: argmax reads it."""
    return (
        torch.isnan(proba).any(dim=1)
        | torch.isposinf(proba).any(dim=1)
        | torch.isneginf(proba).all(dim=1)
    )


def _accuracy_of_the_validation_passes(net, dataset, y):
    """The scorer of skorch's ``EpochScoring(use_caching=True)``: inside it ``forward_iter``
    yields the cached outputs of this epoch's validation passes, so nothing is predicted again."""
    outputs = [out[0] if isinstance(out, tuple) else out for out in net.forward_iter(dataset)]
    outputs = torch.cat(outputs)
    # NaN is never selected by the early stopping
    if _without_prediction(torch.softmax(outputs.float(), dim=1)).any():
        return float("nan")
    return accuracy_score(y, outputs.argmax(dim=1).cpu().numpy())


# torch's random state and thread count are the process's: threads take turns (see torch_threads)
_TORCH_STATE = threading.RLock()


@contextlib.contextmanager
def _torch_state(n_threads):
    """Hold the process's torch state, with ``n_threads`` intra-op threads (``None``: as they
    are), for the body."""
    with _TORCH_STATE:
        previous = torch.get_num_threads()
        change = n_threads is not None and n_threads != previous
        if change:
            torch.set_num_threads(n_threads)
        try:
            yield
        finally:
            if change:
                torch.set_num_threads(previous)


class _ModuleClass(HasMethods):
    """A torch.nn.Module class: not an instance, so that clone and every refit start afresh."""

    def is_satisfied_by(self, val):
        return inspect.isclass(val) and issubclass(val, torch.nn.Module)

    def __str__(self):
        return (
            "a torch.nn.Module class (not an instance, so that clone and every refit start "
            "from fresh weights)"
        )


class GraphClassifier(ClassifierMixin, NeuralNet):
    """Graph classifier: a PyTorch Geometric model trained by skorch, as a scikit-learn estimator.

    ``X`` is a sequence of graphs: a :class:`~sklearn_fair.graph.GraphCollection` (what
    :func:`~sklearn_fair.graph.load_tu_dataset` returns), a PyTorch Geometric dataset, a
    list of ``Data`` objects, or a numpy object array of them (what scikit-learn's indexing
    produces inside cross-validation). :meth:`fit` reads each graph once: a PyG dataset's
    ``transform`` runs once per graph and fit, not at every epoch as PyG's ``DataLoader``
    would run it, so a random augmentation is drawn once. Training follows Errica et al.
    (ICLR 2020) and their code: mini-batches of graphs, early stopping on validation graphs
    with the reference's rules, and the weights of the selected epoch restored.

    Parameters
    ----------
    module : type
        A :class:`torch.nn.Module` class (not an instance, so that :func:`~sklearn.base.clone`
        and every refit start from fresh weights), e.g. :class:`~sklearn_fair.graph.GIN`.
        :meth:`fit` passes its ``__init__`` ``in_channels`` and ``out_channels`` (node
        features and classes of the training graphs) and, if it takes them, ``edge_dim``
        (number of edge features, ``None`` without ``edge_attr``) and ``node_counts`` (the
        training graphs' node counts); its ``forward`` takes a PyG ``Batch`` and returns one
        row of logits per graph. A tensor attribute ``auxiliary_loss`` set in ``forward`` is
        added to the training and validation losses, as the reference does for DiffPool's
        link and entropy terms (predictions compute no loss).
    criterion : type, default=torch.nn.CrossEntropyLoss
        Loss on the module's outputs: ``CrossEntropyLoss`` on logits, or ``NLLLoss`` on
        log-probabilities. :meth:`predict_proba` is their softmax either way.
    optimizer : type, default=torch.optim.Adam
        Optimizer class, its parameters given as ``optimizer__*``. One that takes ``foreach``
        gets ``foreach=True`` unless ``optimizer__foreach`` is given: torch's multi-tensor
        form of its per-tensor update (the CPU default), identical predictions in our tests
        and about a tenth of a GIN epoch faster on CPU. ``optimizer__fused=True`` (about 3%
        faster again on CPU) rounds differently, so a seeded fit changes.
    lr : float, default=0.001
        Learning rate, > 0.
    max_epochs : int, default=100
        Maximum number of training epochs.
    batch_size : int, default=32
        Number of graphs per mini-batch; ``-1`` puts all graphs in one batch. Node and
        edge features are used as float32, the dtype of the module's weights.
    early_stopping : {"patience", "generalization_loss"}, default="patience"
        The reference code's stopping rule, on ``monitor`` after every epoch with validation
        data (epochs count from 1). An epoch that ties or beats the best score so far is
        selected, so the latest of equally good epochs wins (skorch's ``EarlyStopping`` keeps
        the first); the selected epoch's weights are restored at the end.

        - ``"patience"`` (the reference's ``Patience``; code default ``patience=20`` on the
          loss, the paper's configs ``patience=500`` with either score): stop after
          ``patience`` epochs in a row that are not selected.
        - ``"generalization_loss"`` (its ``GLStopper``, Prechelt 1997; defaults ``alpha=5``
          on the loss, with a required ``starting_epoch``): ignore the epochs up to
          ``gl_start_epoch``, then stop at the first whose generalisation loss exceeds
          ``gl_alpha``: ``100 * (loss / best_loss - 1)`` on the loss, ``best_acc / acc - 1``
          (not in percent, as in the reference) on the accuracy.
    patience : int or None, default=10
        Epochs without a selected epoch before ``"patience"`` stops training. ``None``
        trains for ``max_epochs`` and keeps the last weights (NestedCV then holds out no
        validation rows: nothing would stop on them).
    gl_alpha : float, default=5.0
        Threshold of ``"generalization_loss"``.
    gl_start_epoch : int, default=0
        Epochs ``<= gl_start_epoch`` are neither selected nor stopped on by
        ``"generalization_loss"`` (if training ends before, the last weights are kept, and
        NestedCV holds out no validation rows).
    monitor : {"valid_acc", "valid_loss"}, default="valid_acc"
        Validation score for early stopping (the paper tuned this choice, the reference's
        ``use_loss``).
    validation_fraction : float or None, default=0.1
        Fraction of the training graphs held out (stratified, seeded by ``random_state``)
        for early stopping when :meth:`fit` gets no ``X_val`` and ``train_split`` is
        ``None``. ``None`` (with neither) trains for ``max_epochs`` without validation, as
        does early stopping off (``patience=None``, or ``gl_start_epoch >= max_epochs``)
        where no callback monitors a validation score (``monitor="valid_loss"``): no graph is
        held out for nothing.
    train_split : callable or None, default=None
        skorch's hook for the validation split, e.g. :class:`skorch.dataset.ValidSplit`:
        ``train_split(dataset, y)`` (training graphs, encoded labels) returns the training
        and validation datasets (torch ``Subset`` objects of the dataset). It replaces
        ``validation_fraction``; ``X_val`` passed to :meth:`fit` replaces both. One whose
        ``random_state`` is None (``ValidSplit(0.2, stratified=True)``) is called as a copy
        seeded from ``random_state``.
    random_state : int, RandomState instance, Generator or None, default=None
        Seeds, inside :meth:`fit`, the weight initialisation and dropout (torch), the order
        of the training graphs, the validation split and the reading of the graphs (a random
        ``transform`` of a PyG dataset draws from torch then; prediction reads its graphs
        from the same seed): the same seed gives the same predictions. Each of the four
        seeds (``seeds_``) is derived by name from ``random_state``, so a seed added later
        changes none of them. The global torch random state is restored after :meth:`fit`
        and after prediction. ``None`` draws
        fresh entropy on every fit (as :class:`~sklearn_fair.NestedCV`'s ``None`` does), so
        no two fits are the same, and neither ``np.random.seed`` nor ``torch.manual_seed``
        makes them repeatable (they do for scikit-learn's and skorch's nets); pass an int
        for reproducible results. Inside NestedCV, a ``None`` here is seeded by its
        ``random_state``.
    torch_threads : int or None, default=1
        Torch intra-op threads during :meth:`fit` and prediction, restored afterwards, so
        that results and speed depend neither on the process (torch's default differs
        between a main process and joblib workers) nor on ``n_jobs``; ``None`` leaves
        torch's setting alone. The setting is process-wide, as is torch's random state: fits
        and predictions in threads of one process (joblib's threading backend, a Dask
        worker's threads) take turns, so that results do not depend on timing; run parallel
        fits in processes (joblib's default) to run them at once.
    device : str, int, torch.device or None, default="cpu"
        Device to train and predict on: a string that :class:`torch.device` reads
        (``"cpu"``, ``"cuda"``, ``"cuda:0"``), an accelerator's index (``0``: ``"cuda:0"``
        where CUDA is), a ``torch.device``, or None (as in skorch: module and data are left
        where they are).
    verbose : int, default=0
        Print one line per epoch when positive.
    **kwargs
        Further skorch parameters: ``module__*`` (the module's hyper-parameters),
        ``optimizer__*``, ``callbacks`` (e.g. a learning-rate scheduler),
        ``iterator_train__*`` and ``iterator_valid__*`` (``shuffle``, ``batch_size``,
        ``generator``, ``drop_last`` for the default loader, which cuts mini-batches from a
        GraphCollection's arrays; PyG's ``DataLoader`` may be ``iterator_train`` and
        ``iterator_valid`` instead; ``iterator_valid__shuffle=True`` is refused, as it would
        return the predictions in another order than the graphs').

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
    seeds_ : dict
        The seeds of the last fit, by name: ``"torch"`` (weights and dropout), ``"split"``
        (the validation hold-out), ``"order"`` (the order of the training graphs) and
        ``"data"`` (torch's random state while the graphs are read, in :meth:`fit` and in
        prediction: a PyG dataset's random ``transform``).
    best_epoch_ : int or None
        The epoch (1-based) whose weights early stopping restored; ``None`` when none was
        selected (no validation data, ``patience=None``, the end before ``gl_start_epoch``,
        or no finite validation score in any epoch, which warns).
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

    Validation graphs of your own (e.g. a stored split) instead of the hold-out:

    >>> clf = clf.fit(graphs[:100], X_val=graphs[100:120])
    >>> clf.history[-1, "valid_batch_count"]
    1
    """

    # Checked in fit; skorch's own parameters (criterion, optimizer, callbacks, ...) are left
    # to skorch, but for lr: torch's optimizers take 0 (a model that never learns) and give a
    # TypeError of their own for a string.
    _parameter_constraints = {
        "module": [_ModuleClass(["forward"])],
        "lr": [IntervalNotBool(numbers.Real, 0, None, closed="neither")],
        "max_epochs": [IntervalNotBool(numbers.Integral, 1, None, closed="left")],
        # -1: all graphs in one batch
        "batch_size": [
            IntervalNotBool(numbers.Integral, 1, None, closed="left"),
            OptionsNotBool(numbers.Integral, {-1}),
        ],
        "early_stopping": [StrOptions({"patience", "generalization_loss"})],
        "patience": [IntervalNotBool(numbers.Integral, 1, None, closed="left"), None],
        "gl_alpha": [IntervalNotBool(numbers.Real, 0, None, closed="left")],
        "gl_start_epoch": [IntervalNotBool(numbers.Integral, 0, None, closed="left")],
        "monitor": [StrOptions({"valid_acc", "valid_loss"})],
        "validation_fraction": [IntervalNotBool(numbers.Real, 0, 1, closed="neither"), None],
        "train_split": [callable, None],
        "random_state": RANDOM_STATE_CONSTRAINTS,
        "torch_threads": [IntervalNotBool(numbers.Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        module,
        *,
        criterion=torch.nn.CrossEntropyLoss,
        optimizer=torch.optim.Adam,
        lr=0.001,
        max_epochs=100,
        batch_size=32,
        early_stopping="patience",
        patience=10,
        gl_alpha=5.0,
        gl_start_epoch=0,
        monitor="valid_acc",
        validation_fraction=0.1,
        random_state=None,
        torch_threads=1,
        device="cpu",
        verbose=0,
        **kwargs,
    ):
        kwargs.setdefault("iterator_train", GraphLoader)
        kwargs.setdefault("iterator_valid", GraphLoader)
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
        self.early_stopping = early_stopping
        self.patience = patience
        self.gl_alpha = gl_alpha
        self.gl_start_epoch = gl_start_epoch
        self.monitor = monitor
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.torch_threads = torch_threads

    def fit(self, X, y=None, *, X_val=None, y_val=None, **fit_params):
        """Train a freshly initialised module on the graphs ``X`` (with ``warm_start=True``,
        skorch's, continue training the fitted one on graphs of the same classes and features).

        Parameters
        ----------
        X : GraphCollection or sequence of torch_geometric.data.Data
            Training graphs, each with a node-feature matrix ``x``.
        y : array-like of shape (n_graphs,), default=None
            Class labels; ``None`` reads them from the graphs' ``y``.
        X_val : GraphCollection or sequence of torch_geometric.data.Data, default=None
            Validation graphs (as ``X_val`` of scikit-learn's
            :class:`~sklearn.ensemble.HistGradientBoostingClassifier`): the module trains on
            all of ``X`` and early-stops on exactly ``X_val``, ignoring ``validation_fraction``
            and ``train_split``. With metadata routing, request it with
            ``set_fit_request(X_val=True, y_val=True)``.
        y_val : array-like of shape (n_val_graphs,), default=None
            Labels of ``X_val``; ``None`` reads them from its graphs. Every label must
            occur in the training labels.
        **fit_params : dict
            Passed to the module's ``forward``, whole, with every batch (skorch does not cut
            them to the batch's graphs). GraphClassifier does not weight graphs: a
            ``sample_weight`` is refused with a ValueError unless ``forward`` names it among
            its parameters (``**kwargs`` alone would swallow it unused), and such a forward
            receives the weights of all the fit's graphs, which line up with a batch only
            with ``batch_size=-1`` and unshuffled training. Weight the classes with
            ``criterion__weight=torch.tensor([...])`` (in the order of ``classes_``) or
            under-sample with :class:`~sklearn_fair.sampling.RandomGraphUnderSampler`.

        Returns
        -------
        self : GraphClassifier
            The fitted classifier. A fit refused by its checks of the data leaves the
            previous fit as it was; one that fails while it builds or trains the module leaves
            the classifier unfitted.

        Raises
        ------
        ValueError
            If training diverged: the module's weights end NaN or infinite (after early
            stopping restored its epoch), as scikit-learn's
            :class:`~sklearn.neural_network.MLPClassifier` refuses them. The error names the
            epochs whose losses were not finite; a smaller ``lr`` or rescaled node features
            help. Early stopping never selects an epoch whose validation outputs are NaN.
        """
        # skorch's NeuralNet has its own _validate_params (argument names), so not
        # scikit-learn's _fit_context: the constraints are checked here, before any work
        check_parameter_constraints(self)
        _torch_device(self.device)
        self._check_inferred_params()
        fit_params = self._check_sample_weight(fit_params)
        root = seed_root(self.random_state)
        seeds = {n: draw_seeds(named_generator(root, n)) for n in _SEEDS}
        with _torch_state(self.torch_threads):
            with torch.random.fork_rng(devices=self._rng_devices()):
                # a PyG dataset's random transform draws from torch as its graphs are read
                torch.manual_seed(seeds["data"])
                graphs = as_collection(X)
                labels = read_labels(graphs, y, "X", "y")
                check_classification_targets(labels)
                classes, encoded = np.unique(labels, return_inverse=True)
                if self.warm_start and self.initialized_:
                    self._check_warm_start(classes, graphs)
                if len(classes) < 2:
                    raise ValueError(
                        f"GraphClassifier needs graphs of at least 2 classes; got only "
                        f"{classes} (one class)."
                    )
                features = (graphs.num_node_features, graphs.num_edge_features)
                node_counts = graphs.node_counts
                own_labels = y is None or (
                    graphs.y is not None and np.array_equal(graphs.y, labels)
                )
                validation = self._validation_dataset(X_val, y_val, classes, features, own_labels)
                # a fit refused above leaves the previous fit as it was: set only now
                self.classes_ = classes
                self.num_node_features_, self.num_edge_features_ = features
                self.node_counts_ = node_counts

            self.seeds_ = seeds
            dataset = GraphDataset(
                graphs, torch.as_tensor(encoded, dtype=torch.long), validation=validation
            )
            with torch.random.fork_rng(devices=self._rng_devices()):
                torch.manual_seed(self.seeds_["torch"])
                try:
                    if not self.warm_start or not self.initialized_:
                        self.initialize()
                    # an epoch's NaN outputs are the epoch scorers' to record (as NaN), not
                    # a reason to abort the fit: predict_proba refuses them after fit only
                    self._training = True
                    try:
                        NeuralNet.partial_fit(self, dataset, encoded, **fit_params)
                    finally:
                        self._training = False
                    self._check_finite_weights()  # after early stopping restored its epoch
                except BaseException:
                    # the new classes_ beside part of a new module, or the previous one: its
                    # outputs would be read in the new labels
                    self._forget_fit()
                    raise
            stopper = dict(self.callbacks_).get("early_stopping")
            self.best_epoch_ = None if stopper is None else stopper.best_epoch_
            if stopper is not None:
                self._warn_no_finite_validation()
        return self

    def _warn_no_finite_validation(self):
        """Warn where early stopping read no finite validation score in any epoch (the
        module's outputs on some validation graph overflowed): no epoch was selected, training
        ended after ``patience`` epochs without improvement, and the weights are the last."""
        # epochs that recorded the monitored score: none without validation data
        monitored = [row[self.monitor] for row in self.history if row.get(self.monitor) is not None]
        if not monitored or any(np.isfinite(value) for value in monitored):
            return
        warnings.warn(
            f"{type(self).__name__}'s early stopping read no finite {self.monitor} in any of "
            f"the {len(monitored)} epochs (NaN: the module's outputs on some validation graph "
            "are not finite, e.g. a sum pooling that overflows), so it selected no epoch "
            "(best_epoch_ is None) and training ended with the last epoch's weights. Rescale "
            "the node features, lower lr, or check the validation graphs.",
            SklearnFairWarning,
            stacklevel=external_stacklevel(),
        )

    def set_params(self, **params):
        """Set parameters, as scikit-learn's estimators do: stored for the next :meth:`fit`.

        A fitted classifier keeps its fitted module, criterion and optimizer (and predicts
        as before) until the next :meth:`fit` builds them from the new parameters; skorch
        would rebuild the module at once with fresh, untrained weights. ``lr`` and
        ``optimizer__*`` are stored and also apply to the fitted optimizer at once (skorch's,
        for ``warm_start=True``).

        Parameters
        ----------
        **params : dict
            Parameters, including skorch's ``module__*``, ``optimizer__*``,
            ``iterator_train__*`` and ``iterator_valid__*``.

        Returns
        -------
        self : GraphClassifier
        """
        if not getattr(self, "initialized_", False):
            return super().set_params(**params)
        changed = [
            key
            for key, value in params.items()
            if key.split("__", 1)[0] in _BUILDS
            and not self._is_virtual_param(key)
            and not _same(getattr(self, key, _UNSET), value)
        ]
        # skorch stores the parameters of a net that is not initialized and rebuilds nothing
        self.initialized_ = False
        try:
            super().set_params(**params)
        finally:
            self.initialized_ = True
        # skorch applies optimizer__* (virtual parameters) to the fitted optimizer only: stored
        # too, as a net that is not initialized stores them, so that get_params, clone and the
        # next fit have them (lr's setter stores it itself)
        for key, value in params.items():
            if (
                key.startswith("optimizer__")
                and not key.startswith("optimizer__param_groups__")
                and self._is_virtual_param(key)
            ):
                setattr(self, key, value)
                self._params_to_validate.add(key)
        self._changed_since_built_ = sorted({*self._changed_since_built(), *changed})
        return self

    def _get_predict_nonlinearity(self):
        # skorch's "auto" takes the softmax for CrossEntropyLoss only and returns the outputs
        # as they are for any other criterion: NLLLoss (PyG's log_softmax modules) gave
        # log-probabilities as probabilities. The softmax is right for logits and
        # log-probabilities alike (softmax(log_softmax(z)) = softmax(z)).
        if isinstance(self.predict_nonlinearity, str) and self.predict_nonlinearity == "auto":
            return _softmax
        return super()._get_predict_nonlinearity()

    def initialize(self):
        """Build the module, criterion, optimizer and callbacks from the parameters."""
        super().initialize()
        self._changed_since_built_ = []
        return self

    def _stops_early(self):
        # Read by NestedCV (model_selection's consumes_validation_data): whether validation
        # data can change the fit, so that rows are held out of training for it: early
        # stopping, or a callback of the user's that monitors a validation score (a
        # ReduceLROnPlateau on valid_loss, a Checkpoint)
        if self._monitored_by_callbacks():
            return True
        if self.early_stopping == "patience":
            return self.patience is not None
        return self.gl_start_epoch < self.max_epochs

    def _monitored_by_callbacks(self):
        for callback in self.callbacks or ():
            monitor = getattr(
                callback[1] if isinstance(callback, tuple) else callback, "monitor", None
            )
            if callable(monitor) or (isinstance(monitor, str) and monitor.startswith("valid")):
                return True
        return False

    def _changed_since_built(self):
        return getattr(self, "_changed_since_built_", [])

    @available_if(lambda self: False)
    def partial_fit(self, X, y=None, classes=None, **fit_params):
        """Not available: GraphClassifier trains from scratch in :meth:`fit` only."""

    def predict(self, X):
        """Predict the class of each graph.

        Parameters
        ----------
        X : GraphCollection or sequence of torch_geometric.data.Data
            Graphs with the same node features as the training graphs.

        Returns
        -------
        y_pred : ndarray of shape (n_graphs,)
            Predicted labels, taken from ``classes_``.

        Raises
        ------
        ValueError
            If some graph has no prediction (probabilities NaN or +inf, or -inf for every
            class), as :meth:`predict_proba` raises.
        """
        proba = self.predict_proba(X)  # first: an unfitted classifier raises NotFittedError
        return self.classes_[proba.argmax(axis=1)]

    def predict_proba(self, X):
        """Predict class probabilities: the softmax of the module's outputs.

        The outputs may be logits or log-probabilities (a module ending in ``log_softmax``,
        trained with ``criterion=torch.nn.NLLLoss``): their softmax is the same. Outputs that
        are already probabilities (a module ending in ``softmax``) are refused with a
        ValueError, as their softmax would be other numbers. skorch's
        ``predict_nonlinearity``, when set to a callable or ``None``, replaces the softmax.

        Parameters
        ----------
        X : GraphCollection or sequence of torch_geometric.data.Data
            Graphs with the same node features as the training graphs.

        Returns
        -------
        proba : ndarray of shape (n_graphs, n_classes)
            Columns in the order of ``classes_``.

        Raises
        ------
        ValueError
            If a graph's probabilities are NaN or +inf, or -inf for every class (its
            outputs overflowed, e.g. in the sum pooling of a graph larger than the training
            graphs): the argmax of NaN would predict ``classes_[0]``. A -inf beside finite
            values (a log-probability of 0 from a ``predict_nonlinearity``) is a
            prediction. The error names how many graphs, and which; a smaller ``lr``,
            gradient clipping or rescaled node features help. Inside
            :class:`~sklearn_fair.NestedCV` the fold fails, and ``error_score`` stands in for
            its score, whatever the metric.
        """
        check_is_fitted(self, ["classes_", "module_"])
        # each pass of torch's DataLoader draws a seed from the global generator: left alone
        with _torch_state(self.torch_threads), torch.random.fork_rng(self._rng_devices()):
            # a PyG dataset's random transform draws from torch as its graphs are read: as
            # in fit, from the fitted seed, so that predictions depend on no global state
            torch.manual_seed(self.seeds_["data"])
            proba = super().predict_proba(X)
        self._check_finite_proba(proba)
        return proba

    def _check_finite_proba(self, proba):
        """Refuse rows of probabilities that are no prediction (:func:`_without_prediction`), as
        :meth:`fit` refuses non-finite weights and early stopping never selects such outputs:
        predict would call those graphs ``classes_[0]``, and a score would count them."""
        missing = np.flatnonzero(_without_prediction(torch.as_tensor(proba)).numpy())
        if not len(missing) or getattr(self, "_training", False):
            return
        more = ", ..." if len(missing) > 10 else ""
        raise ValueError(
            f"{type(self).__name__}'s module ({self.module.__name__}) gave non-finite outputs "
            f"(NaN, +inf, or -inf for every class) for {len(missing)} of {len(proba)} graphs "
            f"(indices {missing[:10].tolist()}{more}), so they have no class probabilities and no "
            "prediction: the module's values overflowed on them (e.g. a sum pooling over "
            "larger graphs than the training graphs). Refit with a smaller lr than "
            f"lr={self.lr!r}, with gradient clipping (skorch's GradientNormClipping callback), "
            "or with rescaled node features (e.g. standardise them, or replace raw degrees "
            "with one-hot or logarithmic ones)."
        )

    def score(self, X, y=None, sample_weight=None):
        """Accuracy on the graphs ``X``.

        Parameters
        ----------
        X : GraphCollection or sequence of torch_geometric.data.Data
            Test graphs.
        y : array-like of shape (n_graphs,), default=None
            True labels; ``None`` reads them from the graphs' ``y``, which must then be
            among ``classes_`` (as when :meth:`fit` read its labels from the graphs): graphs
            that carry other labels than the ``y`` given to :meth:`fit` (say the integers
            0, 1 for the classes "a", "b") are refused, not scored as all wrong. With ``y``
            given, a label outside ``classes_`` counts as misclassified, as in scikit-learn.
        sample_weight : array-like of shape (n_graphs,), default=None
            Sample weights.

        Returns
        -------
        score : float
            Fraction of correctly classified graphs.

        Raises
        ------
        ValueError
            If some graph has no prediction (probabilities NaN or +inf, or -inf for every
            class), as :meth:`predict_proba` raises: such a graph has nothing to score.
        """
        check_is_fitted(self, ["classes_", "module_"])
        # a PyG dataset's random transform draws from torch as its graphs are read
        with torch.random.fork_rng(self._rng_devices()):
            torch.manual_seed(self.seeds_["data"])
            graphs = as_collection(X)
        labels = read_labels(graphs, y, "X", "y")
        if y is None:
            unknown = ~np.isin(labels, self.classes_)
            if unknown.any():
                raise ValueError(
                    "score(X) without y reads the labels of the graphs' own 'y', but they hold "
                    f"{np.unique(labels[unknown]).tolist()[:10]}, not among the classes "
                    f"the classifier was fitted on, classes_ {self.classes_.tolist()[:10]}; "
                    "fit was given other labels than the graphs', or X holds a class fit "
                    "never saw. Pass y, the labels of X in the terms of classes_."
                )
        return accuracy_score(labels, self.predict(graphs), sample_weight=sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.target_tags.required = False
        tags.non_deterministic = self.random_state is None
        return tags

    def _check_inferred_params(self):
        given = sorted(set(_INFERRED) & set(self.get_params_for("module")))
        if given:
            raise ValueError(
                f"GraphClassifier infers {given} from the training graphs; do not pass "
                f"{['module__' + name for name in given]}."
            )
        _refuse_shuffled_predictions(self.get_params_for("iterator_valid"))

    def _check_sample_weight(self, fit_params):
        # skorch passes fit's parameters on to the module's forward, where a sample_weight
        # would end in a TypeError naming the module; None weighs nothing, as in scikit-learn
        if "sample_weight" not in fit_params:
            return fit_params
        try:
            accepted = inspect.signature(self.module.forward).parameters
        except (TypeError, ValueError):  # not introspectable: let the module decide
            return fit_params
        # a forward that only takes **kwargs would receive the weights and ignore them: a
        # weighted fit identical to the unweighted one, with nothing said
        if "sample_weight" in accepted:
            return fit_params
        if fit_params["sample_weight"] is None:
            return {k: v for k, v in fit_params.items() if k != "sample_weight"}
        raise ValueError(
            "GraphClassifier.fit was given sample_weight, but GraphClassifier does not weight "
            f"graphs (its fit passes extra parameters to {self.module.__name__}.forward, "
            "which does not name sample_weight among its parameters). For an imbalanced data "
            "set, weight the "
            "classes in the loss with criterion__weight=torch.tensor([...]) (one weight per "
            "class, in the order of classes_), or drop majority graphs with "
            "sklearn_fair.sampling.RandomGraphUnderSampler in an imbalanced-learn Pipeline."
        )

    def _check_warm_start(self, classes, graphs):
        changed = self._changed_since_built()
        if changed:
            raise ValueError(
                "warm_start=True continues training the fitted module, but set_params changed "
                f"{changed} after it was built, so it is not the module those parameters "
                "describe; set warm_start=False to train a fresh module with them."
            )
        previous = (self.classes_.tolist(), self.num_node_features_, self.num_edge_features_)
        given = (classes.tolist(), graphs.num_node_features, graphs.num_edge_features)
        if given != previous:
            raise ValueError(
                "warm_start=True continues training the fitted module, so fit needs the "
                "classes, node features and edge features of the previous fit: "
                f"{previous[0]}, {previous[1]} and {previous[2]}. Got {given[0]}, {given[1]} "
                f"and {given[2]}; set warm_start=False to train a fresh module."
            )

    def _check_finite_weights(self):
        """Refuse a fit that ended with weights that are NaN or infinite, as scikit-learn's
        MLPClassifier does: every output would be NaN, and predict would say classes_[0]."""
        if all(torch.isfinite(p).all() for p in self.module_.parameters()):
            return
        losses = []
        for name in ("train_loss", "valid_loss"):
            epochs = [
                row["epoch"] for row in self.history if name in row and not np.isfinite(row[name])
            ]
            if epochs:
                shown = ", ".join(map(str, epochs[:10]))
                more = f", ... ({len(epochs)} epochs in all)" if len(epochs) > 10 else ""
                epoch_s = "epochs" if len(epochs) > 1 else "epoch"
                losses.append(f"{name} was not finite in {epoch_s} {shown}{more}")
        told = (
            "; ".join(losses) + "."
            if losses
            else "The losses of every epoch were finite: the last updates overflowed."
        )
        raise ValueError(
            f"{type(self).__name__}.fit (module {self.module.__name__}) ended with non-finite "
            f"weights (NaN or inf) after {len(self.history)} epoch(s), so its predictions "
            f"would be NaN: {told} Training diverged: refit with a smaller lr than "
            f"lr={self.lr!r}, or rescale the node features (e.g. standardise them, or replace "
            "raw degrees with one-hot or logarithmic ones)."
        )

    def _forget_fit(self):
        """Leave the classifier unfitted (predict raises NotFittedError), as after a fit that
        failed once it had begun to build or train the module."""
        components = (*self._modules, *self._criteria, *self._optimizers)
        for name in (*_FITTED, *(f"{component}_" for component in components)):
            self.__dict__.pop(name, None)  # skorch's __delattr__ would unregister the component
        self.initialized_ = False

    def _check_like_training(self, graphs, name, training=None):
        """Refuse ``graphs`` whose node or edge features differ from those of the training
        graphs (``training``: their numbers; by default the fitted ones)."""
        if training is None:
            training = (self.num_node_features_, self.num_edge_features_)
        for kind, fitted in zip(("node", "edge"), training):
            given = getattr(graphs, f"num_{kind}_features")
            if given != fitted:
                raise ValueError(
                    f"{name} has {given} {kind} features, but GraphClassifier was fitted on "
                    f"graphs with {fitted}."
                )

    def _validation_dataset(self, X_val, y_val, classes, features, own_labels):
        """The dataset of ``X_val, y_val``, checked against the training graphs' ``classes``
        and ``features`` (numbers of node and edge features). ``own_labels``: whether the
        training labels are the graphs' own; where not, the validation graphs' own labels
        would stop the fit on another target, and ``y_val`` must be given."""
        if X_val is None:
            if y_val is not None:
                raise ValueError("y_val was passed to fit without X_val; pass both or neither.")
            return None
        if y_val is None and not own_labels:
            raise ValueError(
                "fit was given a y that is not the training graphs' own labels, and X_val "
                "without y_val: early stopping would read the validation graphs' own labels, "
                "another target than y's. Pass y_val, the validation graphs' labels of that "
                "target."
            )
        graphs = as_collection(X_val, "X_val")
        self._check_like_training(graphs, "X_val", features)
        labels = read_labels(graphs, y_val, "X_val", "y_val")
        unknown = ~np.isin(labels, classes)
        if unknown.any():
            raise ValueError(
                f"y_val holds labels {np.unique(labels[unknown]).tolist()[:5]} that are not "
                f"among the training labels {classes.tolist()}."
            )
        encoded = np.searchsorted(classes, labels)
        return GraphDataset(graphs, torch.as_tensor(encoded, dtype=torch.long))

    def _rng_devices(self):
        device = _torch_device(self.device)
        if device.type == "cuda":
            return [device.index if device.index is not None else torch.cuda.current_device()]
        return []

    @property
    def _default_callbacks(self):
        callbacks = [
            ("epoch_timer", EpochTimer()),
            ("train_loss", PassthroughScoring(name="train_loss", on_train=True)),
            ("valid_loss", PassthroughScoring(name="valid_loss")),
            (
                "valid_acc",
                EpochScoring(
                    _accuracy_of_the_validation_passes,
                    lower_is_better=False,
                    name="valid_acc",
                    use_caching=True,
                ),
            ),
        ]
        stopper = ReferenceEarlyStopping(
            self.monitor,
            self.early_stopping,
            patience=self.patience,
            alpha=self.gl_alpha,
            start_epoch=self.gl_start_epoch,
        )
        return [*callbacks, ("early_stopping", stopper), ("print_log", PrintLog())]

    def get_params_for_optimizer(self, prefix, named_parameters):
        args, kwargs = super().get_params_for_optimizer(prefix, named_parameters)
        try:
            accepted = inspect.signature(getattr(self, prefix)).parameters
        except (TypeError, ValueError):  # not introspectable: leave its defaults alone
            accepted = {}
        if "foreach" in accepted and not kwargs.get("fused"):  # torch refuses both at once
            kwargs.setdefault("foreach", True)
        return args, kwargs

    def initialize_module(self):
        """Build the module from ``module__*`` plus the sizes read from the training graphs."""
        kwargs = {"edge_dim": self.num_edge_features_, "node_counts": self.node_counts_}
        accepted = inspect.signature(self.module).parameters
        kwargs = {name: value for name, value in kwargs.items() if name in accepted}
        kwargs.update(self.get_params_for("module"))  # a module__edge_dim or node_counts wins
        kwargs.update(in_channels=self.num_node_features_, out_channels=len(self.classes_))
        self.module_ = self.initialized_instance(self.module, kwargs)
        return self

    def get_dataset(self, X, y=None):
        if isinstance(X, GraphDataset) or (
            isinstance(X, Subset) and isinstance(X.dataset, GraphDataset)
        ):
            return X
        graphs = as_collection(X)
        self._check_like_training(graphs, "X")
        return GraphDataset(graphs, torch.zeros(len(graphs), dtype=torch.long))

    def get_split_datasets(self, X, y=None, **fit_params):
        dataset = self.get_dataset(X, y)
        if getattr(dataset, "validation", None) is not None:
            return dataset, dataset.validation  # X_val given to fit: train on all of X
        if self.train_split is not None:
            train_split = self.train_split
            if getattr(train_split, "random_state", 0) is None:
                # a ValidSplit left unseeded draws from numpy's global state: seed a copy
                train_split = copy.copy(train_split)
                train_split.random_state = self.seeds_["split"]
            return train_split(dataset, y, **fit_params)
        if self.validation_fraction is None or not self._stops_early():
            return dataset, None  # validation rows would change nothing: train on them
        splitter = ValidSplit(
            self.validation_fraction, stratified=True, random_state=self.seeds_["split"]
        )
        try:
            return splitter(dataset, y)
        except ValueError as exc:
            raise ValueError(
                f"GraphClassifier could not hold out a stratified validation split "
                f"(validation_fraction={self.validation_fraction}) from {len(y)} training "
                f"graphs: {exc} Use more graphs, a larger validation_fraction, pass X_val, or "
                "set validation_fraction=None (no early stopping)."
            ) from exc

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
            _refuse_shuffled_predictions(kwargs)  # set since fit, before a prediction
            iterator = self.iterator_valid
        kwargs.setdefault("batch_size", self.batch_size)
        if kwargs["batch_size"] == -1:
            kwargs["batch_size"] = max(len(dataset), 1)
        return iterator(dataset, **kwargs)

    def _set_training(self, training=True):
        # skorch sets the mode before every batch, a walk over all submodules (GIN has 50)
        # that costs 3-5% of a GIN epoch; switch a module only when its mode differs.
        for name in self._modules + self._criteria:
            module = getattr(self, name + "_")
            if isinstance(module, torch.nn.Module) and module.training != training:
                module.train(training)

    def get_loss(self, y_pred, y_true, X=None, training=False):
        loss = super().get_loss(y_pred, y_true, X=X, training=training)
        auxiliary = self._pop_auxiliary_loss()
        if auxiliary is not None:
            loss = loss + auxiliary  # validation too: the reference's validation loss has it
        return loss

    def evaluation_step(self, batch, training=False):
        y_pred = super().evaluation_step(batch, training=training)
        self._pop_auxiliary_loss()  # predictions compute no loss
        return y_pred

    def _pop_auxiliary_loss(self):
        # Consume it: a stale tensor would keep the autograd graph alive and block pickling.
        auxiliary = getattr(self.module_, "auxiliary_loss", None)
        if auxiliary is not None:
            self.module_.auxiliary_loss = None
        return auxiliary


def _refuse_shuffled_predictions(loader_params):
    """Refuse a prediction loader that shuffles: predictions would come in its order, not X's."""
    if loader_params.get("shuffle"):
        raise ValueError(
            "The 'iterator_valid__shuffle' parameter of GraphClassifier is True: the "
            "validation and prediction loader would shuffle the graphs, so predict and "
            "predict_proba would return their predictions in another order than X's. "
            "Pass iterator_valid__shuffle=False (the default); iterator_train__shuffle "
            "shuffles the training graphs."
        )
