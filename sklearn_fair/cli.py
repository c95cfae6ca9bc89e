"""The ``sklearn-fair`` command line."""

import argparse
import sys

__all__ = ["main"]


def add_allow_package(parser):
    """Add the repeatable ``--allow-package NAME`` option (``sklearn-fair run`` and
    ``sklearn-fair cache verify`` accept the same packages the same way)."""
    parser.add_argument(
        "--allow-package",
        action="append",
        default=[],
        metavar="NAME",
        help="also accept classes from this top-level package (repeatable; only for "
        "packages you trust)",
    )


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
        "--dry-run",
        action="store_true",
        help="check the file, print the number of fits and an estimate of the compute "
        "(from a few short timing fits), and stop",
    )
    run.add_argument(
        "--no-timing",
        action="store_true",
        help="with --dry-run: count the fits only (no timing fit, graph data not read)",
    )
    run.add_argument(
        "--n-jobs", type=int, default=None, help="parallel jobs (default: the file's n_jobs)"
    )
    run.add_argument(
        "--backend",
        choices=("loky", "threading", "multiprocessing", "dask"),
        default=None,
        help="joblib backend (default: the file's backend)",
    )
    run.add_argument(
        "--dask-scheduler",
        default=None,
        metavar="ADDRESS",
        help="with --backend dask: the scheduler to connect to (default: a local cluster)",
    )
    run.add_argument(
        "--device",
        default=None,
        help="set the 'device' of every estimator that has one (e.g. cuda, cuda:1)",
    )
    run.add_argument(
        "--data-dir",
        default=None,
        help="the data folder that ${SKLEARN_FAIR_DATA} stands for (default: that variable)",
    )
    run.add_argument(
        "--output-dir", default=None, help="the results folder (default: the file's output_dir)"
    )
    run.add_argument(
        "--allow-outside-paths",
        action="store_true",
        help="accept data, splits and output paths outside the file's folder and the data "
        "folder (only for files you trust)",
    )
    add_allow_package(run)
    run.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="raise a limit on the work the file may ask for, for this run (repeatable; a "
        "file cannot raise them): jobs, refits, candidates, folds, depth, file_size, items, "
        "list_length, string_length; e.g. --limit candidates=50000",
    )

    from ._cache_verify import add_cache_parser

    add_cache_parser(commands)
    return parser


def _run(args):
    from .exceptions import ExperimentConfigError
    from .experiment._reading._benchmark_file import benchmark_data_names
    from .experiment._reading._text import neutral

    options = {
        "data_dir": args.data_dir,
        "allow_outside_paths": args.allow_outside_paths,
        "allowed_packages": tuple(args.allow_package),
        "device": args.device,
        "output_dir": args.output_dir,
        "limits": args.limit,
    }
    # [data.NAME] tables: a benchmark of several data sets
    several = benchmark_data_names(args.experiment, args.limit) is not None
    try:
        if args.dry_run:
            return _dry_run(args, options, several)
        lines = _fit(args, options, several)
    except ExperimentConfigError as error:
        print(f"sklearn-fair run: {neutral(error)}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def _dry_run(args, options, several):
    """``sklearn-fair run --dry-run``: print the plan; the exit status."""
    from .experiment import dry_run, dry_run_benchmark

    arguments = dict(timing=not args.no_timing, n_jobs=args.n_jobs, **options)
    if several:
        text, _ = dry_run_benchmark(args.experiment, **arguments)
        print(text)
        return 0
    report = dry_run(args.experiment, **arguments)
    print(report.text)
    return 1 if report.data_problem else 0


def _fit(args, options, several):
    """Run the file (one data set or several); the lines that say what was done."""
    from .experiment import run_benchmark_file, run_experiment

    arguments = dict(
        n_jobs=args.n_jobs, backend=args.backend, dask_scheduler=args.dask_scheduler, **options
    )
    if several:
        run = run_benchmark_file(args.experiment, **arguments)
        return [run.result.table().to_string(), f"Results written to {run.output_dir}"]
    result = run_experiment(args.experiment, **arguments)
    return [
        result.report.to_text(),
        *(
            f"{name}: {'read back from an earlier run' if status == 'cached' else status}"
            for name, status in result.status.items()
        ),
        f"Results written to {result.output_dir}",
    ]


def main(argv=None):
    """Entry point of the ``sklearn-fair`` console script; returns the exit status."""
    args = _build_parser().parse_args(argv)
    if args.command == "demo":
        if args.graph:
            from .graph import run_graph_demo

            run_graph_demo(n_jobs=1 if args.n_jobs is None else args.n_jobs)
        else:
            from ._demo import run_demo

            run_demo(n_jobs=args.n_jobs, random_state=args.seed)
        return 0
    if args.command == "run":
        return _run(args)
    if args.command == "cache":
        from ._cache_verify import run_cache

        return run_cache(args)
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
