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
    demo.add_argument(
        "--seed", type=int, default=0, help="random seed of the tabular demo (default: 0)"
    )
    run = commands.add_parser(
        "run", help="run the experiment described in a TOML file and write its results folder"
    )
    run.add_argument("experiment", help="the experiment file (EXPERIMENT.toml)")
    run.add_argument(
        "--n-jobs", type=int, default=None, help="parallel jobs (default: the file's n_jobs)"
    )
    return parser


def main(argv=None):
    """Entry point of the ``sklearn-fair`` console script; returns the exit status."""
    args = _build_parser().parse_args(argv)
    if args.command == "demo":
        if args.graph:
            from .graph._demo import run_graph_demo

            run_graph_demo(n_jobs=1 if args.n_jobs is None else args.n_jobs)
        else:
            from ._demo import run_demo

            run_demo(n_jobs=args.n_jobs, random_state=args.seed)
        return 0
    if args.command == "run":
        from .exceptions import ExperimentConfigError
        from .experiment import run_experiment

        try:
            result = run_experiment(args.experiment, n_jobs=args.n_jobs)
        except ExperimentConfigError as error:
            print(f"sklearn-fair run: {error}", file=sys.stderr)
            return 2
        print(result.report.to_text())
        print(f"Results written to {result.output_dir}")
        return 0
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
