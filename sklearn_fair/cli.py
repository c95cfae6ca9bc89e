"""The ``sklearn-fair`` command line."""

import argparse
import shlex
import sys
import warnings

__all__ = ["main"]


def _seed(text):
    """A seed option's value: an int in [0, 2**32 - 1], the range every ``random_state`` takes
    (argparse turns the refusal into its usage error, exit status 2)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 2**32 - 1:
        raise argparse.ArgumentTypeError(
            f"must be an int in the range [0, 4294967295]. Got {text!r} instead."
        )
    return value


def _n_jobs(text):
    """A ``--n-jobs`` value: a non-zero int, as joblib and an experiment file's ``n_jobs``
    take it (argparse turns the refusal into its usage error, exit status 2)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value == 0:
        raise argparse.ArgumentTypeError(
            "must be a non-zero int (a number of jobs; -1 all cores, -2 all but one, as in "
            f"joblib). Got {text!r} instead."
        )
    return value


def _build_parser():
    from . import _cache_verify

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
    demo.add_argument("--n-jobs", type=_n_jobs, help="parallel jobs (default: 1)")
    demo.add_argument(
        "--seed", type=_seed, default=0, help="random seed of the tabular demo (default: 0)"
    )
    shared = argparse.ArgumentParser(add_help=False)  # read files as 'run' and 'cache verify'
    shared.add_argument("--n-jobs", type=_n_jobs, help="parallel jobs (default: the file's, or 1)")
    shared.add_argument(
        "--data-dir",
        help="the data folder that ${SKLEARN_FAIR_DATA} stands for (default: that variable)",
    )
    shared.add_argument(
        "--allow-outside-paths",
        action="store_true",
        help="accept paths outside the experiment file's folder and the data folder (only "
        "for files you trust)",
    )
    shared.add_argument(
        "--allow-package",
        action="append",
        default=[],
        metavar="NAME",
        help="also accept classes from this top-level package (repeatable; only for "
        "packages you trust)",
    )
    # what the file's entries are keyed by: 'cache verify' finds them only as the run did
    shared.add_argument(
        "--device", help="set the 'device' of every estimator that has one (e.g. cuda, cuda:1)"
    )
    shared.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        # the names of experiment._reading._limits.Limits (importing it here would import the
        # whole experiment package at every start, --help's too)
        help="set a limit on the work the file may ask for, for this run (repeatable; a "
        "file cannot raise them): jobs, refits, candidates, folds, depth, file_size, items, "
        "list_length, string_length, csv_size, csv_row, csv_cells, tu_size, "
        "archive_entries; e.g. --limit candidates=50000",
    )
    run = commands.add_parser(
        "run",
        parents=[shared],
        help="run the experiment described in a TOML file and write its results folder",
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
        help="with --dry-run: count the fits only (no timing fit; of graph data only the "
        "labels are read)",
    )
    run.add_argument(
        "--backend",
        choices=("loky", "threading", "multiprocessing", "dask"),
        help="joblib backend (default: the file's backend)",
    )
    run.add_argument(
        "--dask-scheduler",
        metavar="ADDRESS",
        help="with --backend dask: the scheduler to connect to (default: a local cluster)",
    )
    run.add_argument("--output-dir", help="the results folder (default: the file's output_dir)")
    run.add_argument(
        "--allow-failures",
        action="store_true",
        help="exit with status 0 even when fits failed (they are listed; without this flag a "
        "run with failed fits exits with status 1)",
    )
    cache = commands.add_parser("cache", help="inspect a cache folder")
    verify = cache.add_subparsers(dest="cache_command", required=True).add_parser(
        "verify",
        parents=[shared],
        help="check a cache's entries, and recompute a sample of those 'sklearn-fair run' wrote",
        description=_cache_verify.__doc__,
    )
    verify.add_argument("directory", help="the cache folder")
    verify.add_argument(
        "--sample",
        type=float,
        default=0.1,
        metavar="FRACTION",
        help="fraction of the entries to recompute, in (0, 1]; a model whose sample draws none "
        "of its entries makes the exit status 1 (default: 0.1)",
    )
    verify.add_argument(
        "--random-state", type=_seed, default=0, help="seed of the sample (default: 0)"
    )
    return parser


def _run(args, argv):
    from .exceptions import ExperimentConfigError
    from .experiment._reading._text import neutral
    from .experiment._running._runner import Interrupted

    options = {
        "data_dir": args.data_dir,
        "allow_outside_paths": args.allow_outside_paths,
        "allowed_packages": tuple(args.allow_package),
        "device": args.device,
        "output_dir": args.output_dir,
        "limits": args.limit,
    }
    try:
        if args.dry_run:
            from .experiment import dry_run

            report = dry_run(
                args.experiment,
                timing=not args.no_timing,
                n_jobs=args.n_jobs,
                backend=args.backend,
                dask_scheduler=args.dask_scheduler,
                **options,
            )
            print(report.text)
            return 1 if report.data_problem else 0
        return _fit(args, options)
    except ExperimentConfigError as error:
        print(f"sklearn-fair run: {neutral(error)}", file=sys.stderr)
        return 2
    except Interrupted as stop:
        # the command as it was given: its options choose the results folder and cache, and
        # what the file is allowed, so the resumed run finds this one's fits
        if stop.output_dir is not None:  # every fit done: the outputs were being written
            holds = (
                "files of this run and of an earlier one"
                if stop.earlier
                else "some of this run's files"
            )
            print(
                neutral(
                    f"sklearn-fair run: interrupted while writing the results folder "
                    f"{stop.output_dir}, which is INCOMPLETE: it holds {holds} "
                    '(its outputs.json says "complete": false). Every fit '
                    f"of the run is cached in {stop.cache_dir}; write the folder with: "
                    f"sklearn-fair {shlex.join(argv)}"
                ),
                file=sys.stderr,
            )
            return 130
        print(
            neutral(
                f"sklearn-fair run: interrupted; {stop.cache_dir} holds {stop.n_cached} fits "
                f"cached since the run started. Resume with: sklearn-fair {shlex.join(argv)}"
            ),
            file=sys.stderr,
        )
        return 130


def _fit(args, options):
    """Run the file; print what was done; the exit status (1: fits failed, or an output
    could not be made)."""
    from sklearn.exceptions import FitFailedWarning

    from .experiment import run_experiment
    from .experiment._reading._text import neutral
    from .report._verdict import table_caption

    with warnings.catch_warnings():
        # each failed fit is in its model's file, and the first is printed below: not also
        # the tracebacks of scikit-learn's FitFailedWarning, nor those of NestedCV's warning
        # of failed scorers (which points at failed_tasks_, an attribute the CLI never shows)
        warnings.simplefilter("ignore", FitFailedWarning)
        warnings.filterwarnings(
            "ignore", r"(?s)Scoring failed\. .*had a scorer fail; listed in", UserWarning
        )
        result = run_experiment(
            args.experiment,
            n_jobs=args.n_jobs,
            backend=args.backend,
            dask_scheduler=args.dask_scheduler,
            **options,
        )
    several = isinstance(next(iter(result.status)), tuple)
    if several or result.report is None:
        try:
            benchmark = result.benchmark
            # the caption names the metric; table()'s marks are decided at level 0.05
            table = benchmark.table().rename_axis(columns=None).to_string()
            lines = [table_caption(benchmark, 0.05), table]
        except Exception as error:  # a table of failed cells; the files say the rest
            lines = [f"(no table: {type(error).__name__}: {error})"]
    else:
        lines = [result.report.to_text()]
    if not several:
        cached = "every fit served by the cache of an earlier run"
        lines += [
            f"{name}: {cached if status == 'cached' else status}"
            for name, status in result.status.items()
        ]
    lines.append(f"Results written to {result.output_dir}")
    print(neutral("\n".join(lines)))
    earlier = {
        "removed files that an earlier run wrote here and this run did not": result.removed,
        "left files that an earlier run wrote here and this run did not, changed since or not "
        "verified as the runner's (or not removable): they may hold that run's results": (
            result.left
        ),
    }
    for what, paths in earlier.items():
        if paths:
            names = ", ".join(p.relative_to(result.output_dir).as_posix() for p in paths)
            print(neutral(f"sklearn-fair run: {what}: {names}"), file=sys.stderr)
    status = 0
    for problem in result.problems:
        print(f"sklearn-fair run: not written: {problem}", file=sys.stderr)
        status = 1
    if result.failures:
        first = result.failures[0]
        models = {f["model"] for f in result.failures}
        datasets = {f["dataset"] for f in result.failures}
        fold = "" if first["outer_fold"] is None else f", outer fold {first['outer_fold']}"
        print(
            neutral(
                f"sklearn-fair run: {len(result.failures)} fit(s) failed in {len(models)} "
                f"model(s) on {len(datasets)} data set(s) (listed in each model's JSON, "
                f"'failed_fits'); the first: model "
                f"{first['model']!r}, data set {first['dataset']!r}{fold} ({first['phase']}): "
                f"{first['error'].rstrip('.')}."
                + ("" if args.allow_failures else " Pass --allow-failures to accept them.")
            ),
            file=sys.stderr,
        )
        status = status or (0 if args.allow_failures else 1)
    return status


def main(argv=None):
    """Entry point of the ``sklearn-fair`` console script; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    original, shown = warnings.formatwarning, set()

    def format_warning(message, category, filename, lineno, line=None):
        # each distinct warning once, as the command's own: the results folder's outputs read
        # the same comparisons again (one through a cached property: functools' line), and a
        # warning's file and line are a library's, none the user wrote. The text, not the
        # showing, so that warnings recorded (catch_warnings(record=True)) are still recorded
        if (category, str(message)) in shown:
            return ""
        shown.add((category, str(message)))
        return f"sklearn-fair: {category.__name__}: {message}\n"

    warnings.formatwarning = format_warning
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # before a run's first fit (its imports alone take seconds), in a dry run, or in
        # another command: nothing to resume (a run stopped later raises Interrupted, which
        # _run answers with what its cache holds)
        print(_interrupted(argv), file=sys.stderr)
        return 130
    finally:
        warnings.formatwarning = original


def _interrupted(argv):
    """What the command given by ``argv`` says when Ctrl-C stops it with nothing to resume."""
    if argv[:1] == ["run"]:
        return "sklearn-fair run: interrupted; no fit of the run was cached."
    return "sklearn-fair: interrupted."


def _main(argv):
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command == "run" and args.no_timing and not args.dry_run:
        parser.error("run: --no-timing is for a dry run: give it with --dry-run")
    if args.command == "demo":
        if args.graph:
            try:
                from .graph import run_graph_demo
            except ImportError as error:  # its message says what to install
                print(f"sklearn-fair demo: --graph: {error}", file=sys.stderr)
                return 2

            run_graph_demo(n_jobs=1 if args.n_jobs is None else args.n_jobs)
        else:
            from ._demo import run_demo

            run_demo(n_jobs=args.n_jobs, random_state=args.seed)
        return 0
    if args.command == "run":
        return _run(args, argv)
    if args.command == "cache":
        from ._cache_verify import run_cache

        return run_cache(
            args.directory,
            sample=args.sample,
            random_state=args.random_state,
            n_jobs=args.n_jobs,
            data_dir=args.data_dir,
            allow_outside_paths=args.allow_outside_paths,
            allowed_packages=tuple(args.allow_package),
            device=args.device,
            limits=args.limit,
        )
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
