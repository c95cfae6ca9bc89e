"""Scoring a sensitivity or a specificity leaves the routing requests a user made before it
usable: importing imbalanced-learn adds ``fit_resample`` to scikit-learn's methods, after which
every request object made before the import fails to copy. Run in a fresh process, where
imbalanced-learn is not imported yet."""

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import numpy as np
    import sklearn
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_validate

    sklearn.set_config(enable_metadata_routing=True)
    X, y = make_classification(n_samples=60, random_state=0)
    w = np.linspace(0.5, 2.0, len(y))
    est = LogisticRegression().set_fit_request(sample_weight=True).set_score_request(
        sample_weight=False
    )

    from sklearn_fair import NestedCV
    from sklearn_fair.metrics import get_scorer, sensitivity, specificity

    assert sensitivity([0, 1, 1, 0], [0, 1, 0, 0]) == 0.5
    assert specificity([0, 1, 1, 0], [1, 1, 0, 0]) == 0.5
    scorer = get_scorer("sensitivity").set_score_request(sample_weight=True)
    NestedCV(est, {"C": [0.1, 1.0]}, outer_cv=3, inner_cv=3, scoring=scorer,
             random_state=0).fit(X, y, sample_weight=w)
    scores = cross_validate(est, X, y, params={"sample_weight": w}, cv=3)["test_score"]
    print(len(scores))
    """
)


def test_a_request_made_before_the_rates_were_scored_still_routes():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "3"
