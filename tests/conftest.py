"""Shared fixtures: where the real data sets live, and temp copies of them.

The data directory is ``$SKLEARN_FAIR_DATA``; by default ``../shared/data``
beside the repository root (the layout of the developers' machines and CI).
Tests that need it fail, not skip, when it is missing: on CI it must be there.
"""

import os
import shutil
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_data_dir():
    return Path(os.environ.get("SKLEARN_FAIR_DATA", REPO_ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def data_dir():
    """The read-only folder of real data sets (TUDataset, split files, tabular)."""
    path = shared_data_dir()
    if not path.is_dir():
        pytest.fail(
            f"Data folder {path} not found; set SKLEARN_FAIR_DATA to the folder that holds "
            "TUDataset/, gnn_comparison_splits/ and tabular/."
        )
    return path


@pytest.fixture(scope="session")
def tu_root(data_dir, tmp_path_factory):
    """Return a function ``name -> root`` giving a writable copy of TUDataset/NAME.

    PyG's TUDataset writes a ``processed/`` folder beside ``raw/``, so tests
    never point it at the read-only shared folder. Copies are made once per
    session and reused.
    """
    root = tmp_path_factory.mktemp("TUDataset")

    def copy(name):
        target = root / name
        if not target.exists():
            shutil.copytree(data_dir / "TUDataset" / name, target)
        return root

    return copy
