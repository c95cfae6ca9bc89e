"""Hunt HOSTILE2-1: a run's start removed the old ``.part`` files of gone processes from every
subfolder of its cache folder, following a subfolder that is a symbolic link: a file of the
same shape in the folder it pointed to (outside the cache) was deleted. A link is never
entered, as an entry under it is never read nor written."""

import os
import time

import numpy as np
from sklearn.linear_model import LogisticRegression

from sklearn_fair.model_selection import NestedCV
from sklearn_fair.model_selection._nested._cache import ORPHANED_PART_AGE

X = np.random.default_rng(0).normal(size=(60, 3))
y = np.repeat([0, 1], 30)
# larger than any process id Linux hands out (at most 2**22): of a process that is gone
GONE = 999_999_999


def _old_part(folder, name):
    part = folder / name
    part.write_text("precious")
    long_ago = time.time() - 2 * ORPHANED_PART_AGE
    os.utime(part, (long_ago, long_ago))
    return part


def test_a_subfolder_that_is_a_link_is_not_entered_to_remove_part_files(tmp_path):
    victim, cache = tmp_path / "victim", tmp_path / "cache"
    victim.mkdir()
    (cache / "cd").mkdir(parents=True)
    names = [f".notes.{GONE}.part", f".{'a' * 64}.{GONE}-1.part"]  # any, and a writer's
    outside = [_old_part(victim, name) for name in names]
    inside = [_old_part(cache / "cd", name) for name in names]  # the same, in the cache
    (cache / "ab").symlink_to(victim, target_is_directory=True)
    NestedCV(
        LogisticRegression(), {"C": [1.0]}, outer_cv=3, inner_cv=2, n_refits=1, cache_dir=cache
    ).fit(X, y)
    assert all(part.exists() and part.read_text() == "precious" for part in outside)
    assert not any(part.exists() for part in inside)  # the cache's own are still removed
