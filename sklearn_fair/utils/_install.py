"""How to install an extra, as the README's "Set up" block says it (tests/test_install_hints.py
checks that these commands are the README's): one text for every message."""

#: The PyTorch the README installs first (a build the ``graph`` extra's range accepts).
TORCH_INSTALL = 'pip install "torch==2.13.0"'
#: What a machine without a GPU adds to :data:`TORCH_INSTALL`.
TORCH_CPU_INDEX = "--index-url https://download.pytorch.org/whl/cpu"
_NEEDS_TORCH = ("graph", "all")


def extra_install(extra):
    """The command that installs ``extra`` from a checkout: ``pip install -e ".[extra]"``."""
    return f'pip install -e ".[{extra}]"'


def install_hint(extra):
    """The sentence an error gives to install ``extra``, torch first where it needs torch.

    Parameters
    ----------
    extra : str
        The extra of pyproject.toml ("graph", "plot", "dask", "benchmark", "stats", "all").

    Returns
    -------
    str

    Examples
    --------
    >>> from sklearn_fair.utils import install_hint
    >>> print(install_hint("plot"))  # doctest: +NORMALIZE_WHITESPACE
    Install the 'plot' extra from your sklearn-fair checkout (not on PyPI yet), in its root
    folder: pip install -e ".[plot]"
    >>> print(install_hint("graph"))  # doctest: +NORMALIZE_WHITESPACE
    Install the 'graph' extra from your sklearn-fair checkout (not on PyPI yet), in its root
    folder: first PyTorch, the build you want (left to choose, pip takes PyPI's default
    wheel, a multi-GB CUDA build on Linux): pip install "torch==2.13.0" (without a GPU, add
    --index-url https://download.pytorch.org/whl/cpu); then pip install -e ".[graph]"
    """
    head = (
        f"Install the {extra!r} extra from your sklearn-fair checkout (not on PyPI yet), in "
        "its root folder: "
    )
    if extra not in _NEEDS_TORCH:
        return head + extra_install(extra)
    return (
        head + "first PyTorch, the build you want (left to choose, pip takes PyPI's default "
        f"wheel, a multi-GB CUDA build on Linux): {TORCH_INSTALL} (without a GPU, add "
        f"{TORCH_CPU_INDEX}); then {extra_install(extra)}"
    )
