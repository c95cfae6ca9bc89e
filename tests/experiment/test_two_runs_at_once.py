"""Two runs at once take turns where they write the same file: the results folder (its files
and its record) and the cache's record of experiments. Without the turns, two runs into one
folder left a report of one experiment beside the models of the other, under a record that
vouched for neither, and two runs sharing a cache lost one's line of experiments.json."""

import threading
import time

from sklearn_fair.experiment._reading._paths import locked
from sklearn_fair.experiment._running._manifest import LOCK, read_manifest, record_experiment
from sklearn_fair.experiment._running._resultfile import ResultsFolder


def _waits_for(hold, other, seconds=0.5):
    """Whether ``other()`` (run in a thread) finishes only after ``hold`` is released."""
    done = threading.Event()
    thread = threading.Thread(target=lambda: (other(), done.set()))
    with hold:
        thread.start()
        finished_while_held = done.wait(seconds)
    thread.join(10)
    return not finished_while_held and done.is_set()


def test_a_second_run_writes_the_results_folder_after_the_first(tmp_path, capsys):
    root = tmp_path / "results"
    waiting = ResultsFolder(root)

    def second():
        with waiting.writing():
            (root / "summary.csv").write_text("second")

    first = ResultsFolder(root)
    assert _waits_for(first.writing(), second)
    assert (root / "summary.csv").read_text() == "second"
    # it said why it waited; and having written nothing while it waited, a Ctrl-C then would
    # not call the folder incomplete (review_27b)
    assert "waiting for another run to finish writing the results folder" in capsys.readouterr().err
    assert not waiting.begun


def test_two_runs_sharing_a_cache_both_keep_their_line_of_its_record(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text("a")
    b.write_text("b")
    record_experiment(cache, a, "a")
    # b records while another run holds the record: it waits, then reads a's line and keeps it
    assert _waits_for(locked(cache / LOCK), lambda: record_experiment(cache, b, "b"))
    paths = sorted(r["path"] for r in read_manifest(cache / "experiments.json"))
    assert paths == ["../a.toml", "../b.toml"]


def test_many_runs_recording_at_once_lose_no_line(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    files = []
    for i in range(8):
        files.append(tmp_path / f"e{i}.toml")
        files[-1].write_text(str(i))
    start = time.monotonic() + 0.2
    threads = [
        threading.Thread(
            target=lambda f=f: (
                time.sleep(max(0, start - time.monotonic())),
                record_experiment(cache, f, f.read_text()),
            )  # fmt: skip
        )
        for f in files
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    recorded = {r["path"] for r in read_manifest(cache / "experiments.json")}
    assert recorded == {f"../{f.name}" for f in files}
