"""The ``sklearn-fair`` command line."""

import argparse
import sys

__all__ = ["main"]


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="sklearn-fair", description="Honest model evaluation for scikit-learn."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser(
        "demo", help="run nested cross-validation on a bundled data set and print the estimates"
    )
    demo.add_argument(
        "--graph",
        action="store_true",
        help="compare a structure-agnostic baseline with GIN on the bundled MUTAG graphs "
        "(needs the 'graph' extra)",
    )
    demo.add_argument("--n-jobs", type=int, default=None, help="parallel jobs (default: 1)")
    demo.add_argument("--seed", type=int, default=0, help="random seed of the run (default: 0)")
    return parser


def main(argv=None):
    """Entry point of the ``sklearn-fair`` console script; returns the exit status."""
    args = _build_parser().parse_args(argv)
    if args.command == "demo":
        if args.graph:
            from .graph._demo import run_graph_demo

            run_graph_demo(n_jobs=args.n_jobs, random_state=args.seed)
        else:
            from ._demo import run_demo

            run_demo(n_jobs=args.n_jobs, random_state=args.seed)
        return 0
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
