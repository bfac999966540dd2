# SPDX-License-Identifier: GPL-2.0-only
"""Sweeps on the local process pool and on a Dask cluster, resume, failures, the CLI."""

import csv
import os
import subprocess
import sys
import time

import pytest

from edgellm.sweep import grid_points, run_sweep

from conftest import QUICK_HANDOVER

GRID = {"backhaulRate": ["2.25Gbps", "4.5Gbps"]}


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def sorted_rows(rows):
    return sorted(rows, key=lambda r: sorted(r.items()))


def test_grid_points():
    points = grid_points({"a": [1, 2], "b": "x", "c": [True, False]})
    assert points == [
        {"a": 1, "b": "x", "c": True}, {"a": 1, "b": "x", "c": False},
        {"a": 2, "b": "x", "c": True}, {"a": 2, "b": "x", "c": False},
    ]


@pytest.fixture(scope="module")
def local_table(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("local") / "table.csv")
    result = run_sweep("edge-llm-handover", GRID, runs=2, out=out, workers=2,
                       params=QUICK_HANDOVER, progress=False)
    return out, result


def test_local_sweep_table(local_table):
    out, result = local_table
    assert (result.total, result.completed, result.skipped, result.failed) == (4, 4, 0, [])
    rows = read_rows(out)
    # One handover per run; every row names its point and RngRun.
    assert len(rows) == 4
    assert sorted((r["backhaulRate"], r["RngRun"]) for r in rows) == [
        ("2.25Gbps", "1"), ("2.25Gbps", "2"), ("4.5Gbps", "1"), ("4.5Gbps", "2")]
    assert all(r["scheme"] == "ctho" and r["outcome"] == "migrated" for r in rows)
    # Half the rate: the same context needs a longer handover on the same RngRun.
    by = {(r["backhaulRate"], r["RngRun"]): r for r in rows}
    for run in ("1", "2"):
        assert by[("2.25Gbps", run)]["context_tokens"] == by[("4.5Gbps", run)]["context_tokens"]
        assert float(by[("2.25Gbps", run)]["ho_delay_s"]) > float(
            by[("4.5Gbps", run)]["ho_delay_s"])
    runs = read_rows(result.runs_file)
    assert sorted(r["status"] for r in runs) == ["ok"] * 4


def test_dask_sweep_gives_the_same_table(local_table, tmp_path):
    distributed = pytest.importorskip("distributed")
    out = str(tmp_path / "dask.csv")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        result = run_sweep("edge-llm-handover", GRID, runs=2, out=out, scheduler=cluster,
                           params=QUICK_HANDOVER, progress=False)
    assert (result.completed, result.failed) == (4, [])
    assert sorted_rows(read_rows(out)) == sorted_rows(read_rows(local_table[0]))


@pytest.fixture
def worker_processes(tmp_path):
    """A Dask scheduler and two workers as a user starts them: processes of their own, in
    another directory, without PYTHONPATH or EDGELLM_EXAMPLES_DIR. Yields a client of theirs."""
    distributed = pytest.importorskip("distributed")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "EDGELLM_EXAMPLES_DIR")}
    where = tmp_path / "cluster"
    where.mkdir()
    file = str(where / "scheduler.json")
    common = dict(cwd=str(where), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--scheduler-file", file,
         "--port", "0", "--no-dashboard"], **common)
    worker = None
    try:
        for _ in range(600):
            if os.path.exists(file):
                break
            time.sleep(0.1)
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", file,
             "--nworkers", "2", "--nthreads", "1", "--no-dashboard"], **common)
        with distributed.Client(scheduler_file=file) as client:
            client.wait_for_workers(2, timeout=60)
            yield client
    finally:
        for p in (worker, scheduler):
            if p is not None:
                p.terminate()
                p.wait(timeout=30)


def test_dask_sweep_on_plain_worker_processes(local_table, tmp_path, worker_processes):
    # The worker cannot import edgellm by itself; the sweep makes it, as the package and the
    # examples are at the same paths there (one machine, or a shared file system).
    out = str(tmp_path / "workers.csv")
    result = run_sweep("edge-llm-handover", GRID, runs=2, out=out, scheduler=worker_processes,
                       params=QUICK_HANDOVER, progress=False)
    assert (result.completed, result.failed) == (4, [])
    assert sorted_rows(read_rows(out)) == sorted_rows(read_rows(local_table[0]))


def test_dask_worker_without_the_examples_is_refused(tmp_path, worker_processes):
    # A worker that does not see the examples where this machine has them would fail every
    # run: it is refused before the first, by name and path. (Here the worker is on this
    # machine, so the path given is one that exists nowhere.)
    from edgellm.sweep import _prepare_workers

    missing = str(tmp_path / "no-such-examples")
    with pytest.raises(RuntimeError) as error:
        _prepare_workers(worker_processes, missing)
    workers = list(worker_processes.scheduler_info()["workers"])
    assert len(workers) == 2
    assert any("worker %s has no %s" % (w, missing) in str(error.value) for w in workers)
    # The package itself is seen on both, and is importable now.
    assert list(worker_processes.run(lambda: __import__("edgellm").__name__).values()) == [
        "edgellm", "edgellm"]


def test_resume_skips_runs_done(local_table, tmp_path):
    out = str(tmp_path / "resume.csv")
    first = run_sweep("handover", {"backhaulRate": ["4.5Gbps"]}, runs=1, out=out, workers=1,
                      params=QUICK_HANDOVER, progress=False)
    assert first.completed == 1
    before = read_rows(out)
    again = run_sweep("handover", GRID, runs=2, out=out, workers=2, params=QUICK_HANDOVER,
                      progress=False)
    assert (again.total, again.skipped, again.completed) == (4, 1, 3)
    rows = read_rows(out)
    assert rows[0] == before[0]
    assert sorted_rows(rows) == sorted_rows(read_rows(local_table[0]))


def test_failed_run_is_recorded_and_the_sweep_goes_on(tmp_path):
    out = str(tmp_path / "failing.csv")
    result = run_sweep("handover", {"backhaulRate": ["-1Gbps", "4.5Gbps"]}, runs=1, out=out,
                       workers=2, params=QUICK_HANDOVER, progress=False)
    assert result.completed == 1
    assert len(result.failed) == 1
    assert result.failed[0][0] == {"backhaulRate": "-1Gbps"}
    assert [r["backhaulRate"] for r in read_rows(out)] == ["4.5Gbps"]
    runs = {r["backhaulRate"]: r for r in read_rows(result.runs_file)}
    assert runs["-1Gbps"]["status"] == "failed"
    assert "--backhaulRate = -1Gbps is invalid" in runs["-1Gbps"]["error"]
    assert runs["4.5Gbps"]["status"] == "ok"


def test_command_line(tmp_path):
    out = str(tmp_path / "cli.csv")
    command = [sys.executable, "-m", "edgellm.sweep", "edge-llm-handover",
               "--grid", "scheme=ctho,tho", "--set", "numUes=1", "--set", "tokensAfter=20",
               "--set", "quiet=true", "--runs", "1", "--workers", "2", "--out", out,
               "--no-progress"]
    done = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    assert "2 runs: 2 done now, 0 skipped" in done.stdout
    rows = read_rows(out)
    # The grid's scheme, and the record's own beside it.
    assert sorted((r["scheme"], r["record_scheme"]) for r in rows) == [
        ("ctho", "ctho"), ("tho", "tho")]
    tho = [r for r in rows if r["scheme"] == "tho"][0]
    assert tho["transfer_tokens"] == "0"


def test_command_line_refuses_a_bad_grid(tmp_path):
    done = subprocess.run([sys.executable, "-m", "edgellm.sweep", "handover", "--grid",
                           "novalue"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "expected NAME=VALUE" in done.stderr


def test_sweep_refuses_what_it_sets_and_parquet_without_pyarrow(tmp_path):
    with pytest.raises(ValueError, match="RngRun is set by the sweep"):
        run_sweep("handover", {"RngRun": [1, 2]}, out=str(tmp_path / "t.csv"), progress=False)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        with pytest.raises(ValueError, match="needs pyarrow"):
            run_sweep("handover", GRID, out=str(tmp_path / "t.parquet"), progress=False)


def test_extra_table_comes_from_the_same_runs(tmp_path):
    out = str(tmp_path / "ho.csv")
    result = run_sweep("handover", GRID, runs=1, out=out, workers=2, params=QUICK_HANDOVER,
                       progress=False, extra_tables=["sessions"])
    assert result.failed == []
    sessions = read_rows(str(tmp_path / "ho.sessions.csv"))
    handovers = read_rows(out)
    # One session per UE and run, led by the same point and RngRun as its handover.
    assert sorted((r["backhaulRate"], r["RngRun"], r["imsi"]) for r in sessions) == sorted(
        (r["backhaulRate"], r["RngRun"], r["imsi"]) for r in handovers)
    assert all(r["complete"] == "1" and float(r["total_s"]) >= float(r["ttft_s"])
               for r in sessions)
    with pytest.raises(ValueError, match="extra_tables"):
        run_sweep("handover", GRID, out=out, extra_tables=["handovers"], progress=False)
