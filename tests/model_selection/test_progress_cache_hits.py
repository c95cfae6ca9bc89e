"""Hunt CLI2-1: the time left that a resumed run's progress line gives is estimated from the
fits it computes, not from those it reads from the cache. It counted each task read from the
cache as a fit done in no time: a resumed run said ``48/120 done, 0.1 s elapsed, about 0.1 s
left`` and took 15.4 s more."""

import io

from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from sklearn_fair import NestedCV
from sklearn_fair.model_selection._nested import _progress
from sklearn_fair.model_selection._nested._progress import Progress


class _Clock:
    """A ``time`` module whose clock moves only when told."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self):
        return self.now


def test_the_time_left_is_estimated_from_the_computed_fits_alone(monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(_progress, "time", clock)
    log = io.StringIO()
    progress = Progress(1, 100, stream=log)
    for _ in range(40):  # a resumed run: 40 tasks read from the cache, in no time
        progress.update(cached=True)
    for _ in range(10):  # then 10 fits computed, 1 s each
        clock.now += 1.0
        progress.update()
    lines = log.getvalue().splitlines()
    # the start, and each tenth while nothing was computed: no rate to estimate from
    assert len(lines) == 6
    for line in lines[1:5]:
        done = int(line.split(": ")[1].split("/")[0])
        assert line == f"NestedCV fits: {done}/100 done, {done} read from the cache, 0.0 s elapsed"
    # 10 fits in 10 s: the 50 tasks left take about 50 s (it said 10 s: 10 s / 50 done x 50)
    assert lines[-1] == (
        "NestedCV fits: 50/100 done, 40 read from the cache, 10.0 s elapsed, about 50.0 s left"
    )


def test_a_bar_gives_no_rate_while_every_task_was_read_from_the_cache():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    progress = Progress(1, 100, stream=Terminal())
    for _ in range(40):
        progress.update(cached=True)
    shown = str(progress._bar)
    assert shown.startswith("NestedCV fits:  40%")
    assert "40 read from the cache" in shown
    # tqdm's "<?" and "?fit/s": no time left is estimated, where it gave 40 fits over the
    # fraction of a second the reads took
    assert "<?, ?fit/s" in shown
    progress.close()


def test_a_run_served_by_the_cache_estimates_no_time_left(tmp_path, capsys):
    X, y = make_classification(n_samples=60, n_features=5, random_state=0)
    # LogisticRegression ignores its seed: each fold's third refit is skipped
    n_outer, n_refits, n_candidates, n_inner = 3, 3, 2, 2
    total = n_outer * n_candidates * n_inner + n_outer * n_refits
    skipped = n_outer * (n_refits - 2)
    logs = []
    for _ in range(2):
        NestedCV(
            LogisticRegression(), {"C": [0.1, 1.0]}, outer_cv=n_outer, inner_cv=n_inner,
            n_refits=n_refits, random_state=0, refit=False, cache_dir=tmp_path, verbose=1,
        ).fit(X, y)  # fmt: skip
        logs.append(capsys.readouterr().err.strip().splitlines())
    computed, resumed = logs
    assert not any("read from the cache" in line for line in computed)
    assert any(" s left" in line for line in computed)
    # every task read from the cache: no line estimates a time left from them
    assert len(resumed) > 2 and not any(" s left" in line for line in resumed)
    assert resumed[-1].startswith(
        f"NestedCV fits: {total - skipped}/{total} done, {skipped} skipped, "
        f"{total - skipped} read from the cache, "
    )
