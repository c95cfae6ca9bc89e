"""Experiments whose fits are counted where they happen: an estimator module written for the
test under a name of its own (so that no process holds an older copy) appends a line to a log
file at each fit."""

import uuid


def counted_experiment(tmp_path, monkeypatch, counter, toml):
    """Write the module ``counter`` (its source, ``LOG_PATH`` standing for its log's path) and
    the experiment file ``toml`` (``MODULE.`` standing for the module's name) in ``tmp_path``;
    ``(experiment path, log path, module name)``."""
    module = f"fitcounter_{uuid.uuid4().hex}"
    log = tmp_path / "fits.log"
    (tmp_path / f"{module}.py").write_text(counter.replace("LOG_PATH", repr(str(log))))
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "e.toml"
    path.write_text(toml.replace("MODULE.", f"{module}."))
    return path, log, module
