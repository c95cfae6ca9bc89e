"""``python -OO`` strips docstrings: the decorators that fill shared parameter texts into them
must leave a missing docstring alone, or the package does not import."""

import subprocess
import sys

# not sklearn_fair.graph: skorch itself fails to import under -OO (it edits NeuralNet.__doc__)
PACKAGES = "benchmarking experiment leakage metrics model_selection report stats utils"


def test_every_torch_free_sub_package_imports_under_python_OO():
    imports = "; ".join(f"import sklearn_fair.{name}" for name in PACKAGES.split())
    done = subprocess.run(
        [sys.executable, "-OO", "-c", imports], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
