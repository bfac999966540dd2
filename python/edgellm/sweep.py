# SPDX-License-Identifier: GPL-2.0-only
"""Sweeps: every (grid point, RngRun) of an example as a run of its own, into one tidy CSV.

Python::

    from edgellm.sweep import run_sweep
    run_sweep("edge-llm-handover", grid={"backhaulRate": ["2.25Gbps", "4.5Gbps"]}, runs=5,
              out="table.csv")

Command line::

    python3 -m edgellm.sweep edge-llm-handover --grid backhaulRate=2.25Gbps,4.5Gbps \\
        --runs 5 --out table.csv [--scheduler tcp://host:8786] [--workers 4]

The table has one row per record of the example's main table (per handover for
edge-llm-handover, -scenario, -impactho and -pallas; per session for -streaming; per sweep
point for -ctho-analytic), or of ``table``; every row starts with the grid's parameters and
RngRun. A record column named like a grid parameter (``scheme``) is kept as
``record_<name>``. Beside the table, ``<out>.runs.csv`` lists every run: its parameters,
RngRun, status (ok or failed), records, seconds and error. Runs that the runs file lists as
ok are skipped when the sweep is run again (resume); failed ones are run again.
``extra_tables`` (``--extra-table``) collects more tables of the same runs, each into a CSV
of its own beside the table (``table.csv`` -> ``table.sessions.csv``); a resumed sweep must
ask for the same ones, since the runs it skips add no rows.
"""

import argparse
import concurrent.futures
import csv
import importlib
import itertools
import os
import sys
import time

from .run import EXAMPLES, examples_dir, flag_text, get_defaults, program_name, run, set_default

__all__ = ["SweepResult", "extra_table_path", "grid_points", "main", "run_sweep"]

RUN_COLUMNS = ["status", "records", "elapsed_s", "error"]


class SweepResult:
    """What a sweep did: the files it wrote and how many runs it made, skipped and lost."""

    def __init__(self, out, runs_file, total, skipped, completed, failed):
        self.out = out
        self.runs_file = runs_file
        self.total = total
        self.skipped = skipped
        self.completed = completed
        self.failed = failed  # (params, RngRun, error) of each failed run

    def __repr__(self):
        return "SweepResult(out=%r, total=%d, skipped=%d, completed=%d, failed=%d)" % (
            self.out,
            self.total,
            self.skipped,
            self.completed,
            len(self.failed),
        )


class _TidyCsv:
    """A CSV file that rows are appended to; a row with new columns rewrites it whole."""

    def __init__(self, path):
        self.path = path
        self.header = []
        self.rows = []
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with open(path, newline="", encoding="utf-8") as f:
                reader = csv.DictReader(f)
                self.header = list(reader.fieldnames or [])
                self.rows = [dict(r) for r in reader]

    def append(self, rows):
        """Append rows (dicts of text); the file is on disk when this returns."""
        new = []
        for row in rows:
            new += [k for k in row if k not in self.header and k not in new]
        self.rows += rows
        if new or not os.path.exists(self.path):
            self.header += new
            tmp = self.path + ".tmp"
            with open(tmp, "w", newline="", encoding="utf-8") as f:
                writer = csv.DictWriter(f, self.header, restval="")
                writer.writeheader()
                writer.writerows(self.rows)
            os.replace(tmp, self.path)
        else:
            with open(self.path, "a", newline="", encoding="utf-8") as f:
                csv.DictWriter(f, self.header, restval="").writerows(rows)


def grid_points(grid):
    """Every combination of the grid's values, as dicts, in the grid's order (last fastest)."""
    names = list(grid)
    values = [v if isinstance(v, (list, tuple)) else [v] for v in grid.values()]
    return [dict(zip(names, combo)) for combo in itertools.product(*values)]


def _cell(value):
    return "" if value is None else flag_text(value)


def _rows(columns):
    names = list(columns)
    length = len(columns[names[0]]) if names else 0
    return [{n: _cell(columns[n][i]) for n in names} for i in range(length)]


def _failed(error, elapsed_s):
    """The outcome of a run that raised ``error``: recorded, and the sweep goes on."""
    return {"ok": False, "rows": [], "extra": {}, "error": "%s: %s" % (type(error).__name__, error),
            "elapsed_s": elapsed_s}


def _run_one(example, params, rng_run, table, defaults, examples_dir, extra_tables=()):
    """One run, in a worker: its records as rows of text, or its error. Never raises."""
    if examples_dir and os.environ.get("EDGELLM_EXAMPLES_DIR") != examples_dir:
        os.environ["EDGELLM_EXAMPLES_DIR"] = examples_dir
    start = time.monotonic()
    try:
        result = run(example, defaults=defaults, RngRun=rng_run, **params)
        rows = _rows(result.table(table))
        extra = {name: _rows(result.table(name)) for name in extra_tables}
    except Exception as e:
        return _failed(e, time.monotonic() - start)
    return {"ok": True, "rows": rows, "extra": extra, "error": "",
            "elapsed_s": time.monotonic() - start}


def extra_table_path(out, name):
    """Where a sweep writing ``out`` puts the rows of its extra table ``name``."""
    stem = out[: -len(".parquet")] if out.endswith(".parquet") else out
    stem = stem[: -len(".csv")] if stem.endswith(".csv") else stem
    return "%s.%s.csv" % (stem, name)


def _key(point, rng_run):
    return tuple(sorted((k, _cell(v)) for k, v in point.items())) + (("RngRun", str(rng_run)),)


def _dask_client(scheduler):
    """A distributed.Client for an address, a cluster or a client."""
    import distributed

    if isinstance(scheduler, distributed.Client):
        return scheduler, False
    if isinstance(scheduler, str):
        return distributed.Client(scheduler), True
    return distributed.Client(scheduler), True


def _worker_setup(package_parent, examples):
    """What every Dask worker runs before the sweep's tasks, as a plugin: the package on its
    sys.path, and whether the package and the examples are there.

    Made here, as a class of this call, so that Dask sends it by value: a worker that cannot
    import edgellm yet could not unpickle a class it has to import.
    """
    import distributed

    class EdgeLlmOnWorker(distributed.WorkerPlugin):
        name = "edgellm-package"

        def setup(self, worker):
            import os
            import sys

            if os.path.isdir(os.path.join(package_parent, "edgellm")) and (
                package_parent not in sys.path
            ):
                sys.path.insert(0, package_parent)

    def missing():
        import os

        gone = [p for p in (os.path.join(package_parent, "edgellm"), examples)
                if p and not os.path.isdir(p)]
        return gone

    return EdgeLlmOnWorker(), missing


def _prepare_workers(client, examples):
    """Make edgellm importable on every worker of a client (a plain ``dask-worker`` has no
    PYTHONPATH of the build), and refuse workers that do not see the package or the examples
    at this machine's paths. Workers that join later get the plugin too."""
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    plugin, missing = _worker_setup(package_parent, examples)
    client.register_worker_plugin(plugin)
    lacking = {w: m for w, m in client.run(missing).items() if m}
    if lacking:
        worker, paths = sorted(lacking.items())[0]
        raise RuntimeError(
            "scheduler = %s: worker %s has no %s; allowed: workers that see this machine's "
            "edgellm package and examples at the same paths (the same machine, or a shared "
            "file system)" % (client.scheduler.address, worker, " or ".join(paths)))


def run_sweep(example, grid, runs=1, out="table.csv", scheduler=None, workers=None,
              params=None, table=None, first_run=1, defaults=None, progress=True,
              extra_tables=()):
    """Run every (grid point, RngRun) of an example, each in its own process, into one CSV.

    ``grid``: flag name -> list of values (a single value is a list of one). ``runs``: RngRuns
    ``first_run`` ... ``first_run + runs - 1`` per point. ``params``: flags common to every
    run. ``table``: which of the example's tables to collect (its main one by default).
    ``scheduler``: None for ``workers`` runs at a time on this machine (all cores by
    default), or a Dask scheduler address (``tcp://host:8786``), ``distributed.Client`` or
    cluster. Its workers must see this package and the examples at this machine's paths (the
    same machine, or a shared file system): each is given the package's directory on its
    sys.path, so a plain ``dask-worker`` needs no PYTHONPATH, and ``EDGELLM_EXAMPLES_DIR`` is
    passed on; a worker that sees neither is refused (RuntimeError naming it). ``defaults``: ns-3 attribute defaults for every run (those of
    ``edgellm.set_default`` if None). ``out`` ends in .csv, or in .parquet when pyarrow is
    importable (the CSV is kept beside it, for resume). ``extra_tables``: more of the
    example's tables to collect from the same runs, each into a tidy CSV of its own with the
    same leading columns, at ``extra_table_path(out, name)`` (``x.csv`` -> ``x.NAME.csv``).
    Returns a SweepResult.
    """
    name = program_name(example)
    spec = EXAMPLES[name]
    table = table or spec.primary
    extra_tables = tuple(extra_tables)
    if table in extra_tables or len(set(extra_tables)) != len(extra_tables):
        raise ValueError("extra_tables = %r is invalid; allowed: tables other than %r, each once"
                         % (extra_tables, table))
    if runs < 1:
        raise ValueError("runs = %r is invalid; allowed: an integer >= 1" % (runs,))
    params = dict(params or {})
    if spec.runs_flag and "runs" not in params and "runs" not in grid:
        # The sweep gives each RngRun a run of its own.
        params["runs"] = 1
    for reserved in ("RngRun", "outDir", "csv"):
        if reserved in grid or reserved in params:
            raise ValueError("%s is set by the sweep; use runs= and first_run= for RngRun"
                             % reserved)
    clash = sorted(set(params) & set(grid))
    if clash:
        raise ValueError("%s both in grid and params" % ", ".join(clash))
    parquet = out.endswith(".parquet")
    if parquet:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise ValueError("out = %r needs pyarrow, which is not importable" % out) from None
        csv_path = out[: -len(".parquet")] + ".csv"
    else:
        csv_path = out
    directory = os.path.dirname(os.path.abspath(csv_path))
    os.makedirs(directory, exist_ok=True)
    defaults = get_defaults() if defaults is None else dict(defaults)
    directory_of_examples = examples_dir()

    records = _TidyCsv(csv_path)
    extra_records = {t: _TidyCsv(extra_table_path(csv_path, t)) for t in extra_tables}
    runs_log = _TidyCsv(csv_path + ".runs.csv")
    done = {
        tuple(sorted((k, r.get(k, "")) for k in grid)) + (("RngRun", r.get("RngRun", "")),)
        for r in runs_log.rows
        if r.get("status") == "ok"
    }
    points = grid_points(grid)
    tasks = [(p, first_run + r) for p in points for r in range(runs)]
    todo = [t for t in tasks if _key(*t) not in done]

    failed = []
    completed = 0

    def record(point, rng_run, outcome):
        nonlocal completed
        lead = {k: _cell(v) for k, v in point.items()}
        lead["RngRun"] = str(rng_run)
        def lead_rows(table_rows):
            out = []
            for row in table_rows:
                full = dict(lead)
                for k, v in row.items():
                    full["record_" + k if k in lead else k] = v
                out.append(full)
            return out

        rows = lead_rows(outcome["rows"])
        if rows:
            records.append(rows)
        for t, extra in extra_records.items():
            more = lead_rows(outcome.get("extra", {}).get(t, []))
            if more:
                extra.append(more)
        status = "ok" if outcome["ok"] else "failed"
        runs_log.append([dict(lead, status=status, records=str(len(rows)),
                              elapsed_s="%.3f" % outcome["elapsed_s"],
                              error=outcome["error"])])
        if outcome["ok"]:
            completed += 1
        else:
            failed.append((point, rng_run, outcome["error"]))

    # The worker function of the module as imported, not of __main__ (python3 -m
    # edgellm.sweep), so that workers find it by name.
    task = importlib.import_module(__package__ + ".sweep")._run_one
    bar = _progress(len(todo), name, progress)
    try:
        if scheduler is None:
            # Each run is a child process already: threads only wait on them. A process pool
            # would re-import the caller's script in every worker, which a script without a
            # __main__ guard cannot survive.
            with concurrent.futures.ThreadPoolExecutor(
                max_workers=workers or os.cpu_count() or 1
            ) as pool:
                futures = {
                    pool.submit(task, name, dict(params, **p), r, table, defaults,
                                directory_of_examples, extra_tables): (p, r)
                    for p, r in todo
                }
                for future in concurrent.futures.as_completed(futures):
                    point, rng_run = futures[future]
                    record(point, rng_run, _outcome(future))
                    _tick(bar, failed)
        else:
            import distributed

            client, owned = _dask_client(scheduler)
            try:
                _prepare_workers(client, directory_of_examples)
                futures = {}
                for p, r in todo:
                    f = client.submit(task, name, dict(params, **p), r, table, defaults,
                                      directory_of_examples, extra_tables, pure=False)
                    futures[f] = (p, r)
                for future in distributed.as_completed(list(futures)):
                    point, rng_run = futures[future]
                    record(point, rng_run, _outcome(future))
                    _tick(bar, failed)
            finally:
                if owned:
                    client.close()
    finally:
        bar.close()

    if parquet:
        import pandas

        pandas.read_csv(csv_path).to_parquet(out)
    return SweepResult(out, runs_log.path, len(tasks), len(tasks) - len(todo), completed, failed)


def _outcome(future):
    """A worker's outcome; a worker that died is a failed run like any other."""
    try:
        return future.result()
    except Exception as e:
        return _failed(e, 0.0)


class _NoBar:
    def update(self, n=1):
        pass

    def set_postfix(self, **kw):
        pass

    def close(self):
        pass


def _progress(total, name, enabled):
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, desc=name, unit="run")


def _tick(bar, failed):
    bar.update(1)
    if failed:
        bar.set_postfix(failed=len(failed))


def _parse_assignment(text, option):
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError("%s %r: expected NAME=VALUE" % (option, text))
    return name, value


def main(argv=None):
    """The command line; returns the exit code (1 if any run failed)."""
    parser = argparse.ArgumentParser(
        prog="python3 -m edgellm.sweep",
        description="Run every (grid point, RngRun) of an example in its own process and "
        "collect its records into one tidy CSV.",
    )
    parser.add_argument("example", help="e.g. edge-llm-handover (or handover)")
    parser.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2",
                        help="a flag and its values, separated by commas (by '|' when the "
                        "values hold commas); repeat for more flags")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a flag common to every run; repeatable")
    parser.add_argument("--default", action="append", default=[], metavar="ns3::C::A=VALUE",
                        help="an ns-3 attribute default for every run; repeatable")
    parser.add_argument("--runs", type=int, default=1, help="RngRuns per point [1]")
    parser.add_argument("--first-run", type=int, default=1, help="the first RngRun [1]")
    parser.add_argument("--out", default="table.csv", help="the table [table.csv]")
    parser.add_argument("--table", help="which table of the example [its main one]")
    parser.add_argument("--extra-table", action="append", default=[], metavar="NAME",
                        help="another table of the same runs, into OUT's stem.NAME.csv; "
                        "repeatable")
    parser.add_argument("--scheduler", help="a Dask scheduler, e.g. tcp://host:8786")
    parser.add_argument("--workers", type=int, help="runs at a time on this machine [all cores]")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    try:
        grid = {}
        for item in args.grid:
            name, values = _parse_assignment(item, "--grid")
            grid[name] = values.split("|" if "|" in values else ",")
        params = dict(_parse_assignment(s, "--set") for s in args.set)
        for item in args.default:
            name, value = _parse_assignment(item, "--default")
            set_default(name, value)
    except (argparse.ArgumentTypeError, ValueError) as e:
        parser.error(str(e))
    try:
        result = run_sweep(args.example, grid, runs=args.runs, out=args.out,
                           scheduler=args.scheduler, workers=args.workers, params=params,
                           table=args.table, first_run=args.first_run,
                           progress=not args.no_progress, extra_tables=args.extra_table)
    except (ValueError, FileNotFoundError) as e:
        print("edgellm.sweep: %s" % e, file=sys.stderr)
        return 1
    print("%d runs: %d done now, %d skipped (done before), %d failed; table %s, runs %s"
          % (result.total, result.completed, result.skipped, len(result.failed), result.out,
             result.runs_file))
    for point, rng_run, error in result.failed:
        print("failed: %s RngRun=%d: %s" % (point, rng_run, error.splitlines()[0] if error
                                             else ""), file=sys.stderr)
    return 1 if result.failed else 0


if __name__ == "__main__":
    sys.exit(main())
