"""Write the output of `sklearn-fair demo` into README.md's "What the demo prints" block.

Usage: python tools/update_readme.py [--check]

The block lies between two marker comments; everything else in the README is left as it is.
It runs the demo as a user would (`python -m sklearn_fair demo`, this checkout's code first on
the path). With --check it writes nothing and exits 1 when the block differs from the output
(timings aside). tests/test_demo.py makes the same comparison.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sklearn_fair._demo import mask_times, readme_block, split_readme  # noqa: E402


def demo_output():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env.setdefault("OMP_NUM_THREADS", "1")
    process = subprocess.run(
        [sys.executable, "-m", "sklearn_fair", "demo"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    return process.stdout


def main(argv):
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    before, block, after = split_readme(text)
    new = readme_block(demo_output())
    if "--check" in argv:
        same = mask_times(block) == mask_times(new)
        print("README's demo block is up to date" if same else "README's demo block is stale")
        return 0 if same else 1
    readme.write_text(before + new + after, encoding="utf-8")
    print(f"wrote the demo's output into {readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
