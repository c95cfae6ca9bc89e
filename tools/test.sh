#!/usr/bin/env bash
# The whole test suite, from nothing: a fresh virtual environment, everything installed into it,
# then ruff, the tests and the docstring examples (pytest --doctest-modules, see pyproject.toml).
# Usage: bash tools/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=.venv-test
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# The CPU build of torch lies on these machines' disk; it must come first (see DEVELOPERS.md).
"$VENV/bin/python" -m pip install --quiet "torch==2.13.0"
# `all` holds what users need, `dev` the test suite's own needs and the linters
"$VENV/bin/python" -m pip install --quiet -e ".[all,dev]"
# The browser test of the HTML report (tests/report/test_browser.py) drives Debian's Chromium;
# installed once (skipped when present), quietly. With SKLEARN_FAIR_REQUIRE_BROWSER set, a
# missing browser fails that test instead of skipping it.
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "tools/test.sh: installing chromium (apt-get) for the browser test" >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "tools/test.sh: /usr/bin/chromium is missing; install it as root" \
            "(apt-get install chromium), the browser test needs it" >&2
    fi
fi
export SKLEARN_FAIR_REQUIRE_BROWSER=1
export SKLEARN_FAIR_DATA=${SKLEARN_FAIR_DATA:-$(cd .. && pwd)/shared/data}
export MPLBACKEND=Agg
# scikit-learn's estimator checks include one (array API dispatch with NumPy inputs) that
# skips itself unless scipy's array API support is switched on
export SCIPY_ARRAY_API=1
"$VENV/bin/ruff" check sklearn_fair tests benchmarks
"$VENV/bin/ruff" format --check sklearn_fair tests benchmarks
# pytest runs in a session of its own: what its tests start and leave behind (worker
# processes of a killed run, a browser) is listed and ended once it exits, so that nothing
# outlives the test command holding its output open
set +e
# (and the run as a whole ends within 75 min, CI's limit being 90)
setsid timeout --kill-after=60 4500 "$VENV/bin/python" -m pytest "$@" &
PYTEST_PID=$!
wait "$PYTEST_PID"
STATUS=$?
set -e
LEFT=$(ps -s "$PYTEST_PID" -o pid=,args= 2>/dev/null || true)
if [ -n "$LEFT" ]; then
    echo "tools/test.sh: processes the tests left running, now ended:" >&2
    echo "$LEFT" | cut -c1-200 >&2
    pkill -KILL -s "$PYTEST_PID" || true
fi
exit "$STATUS"
