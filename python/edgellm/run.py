# SPDX-License-Identifier: GPL-2.0-only
"""Run the module's examples, each in a process of its own, and read back their records.

A simulation runs as the example program itself: a fresh process per run, so that ns-3's
global state (attribute defaults, the random number generator, a fatal error) never reaches
the interpreter, and the same RngRun gives the same records every time.
"""

import csv
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

__all__ = [
    "EXAMPLES",
    "RunResult",
    "SimulationError",
    "examples_dir",
    "example_path",
    "flag_text",
    "get_defaults",
    "program_name",
    "read_csv_columns",
    "reset_defaults",
    "run",
    "run_ctho_analytic",
    "run_custom_policy",
    "run_handover",
    "run_impactho",
    "run_pallas",
    "run_scenario",
    "run_streaming",
    "set_default",
]


class SimulationError(RuntimeError):
    """An example exited with a non-zero code; the message is its refusal of a flag or an
    attribute when it printed one, else what it printed on stderr."""

    def __init__(self, message, example=None, command=None, returncode=None, stderr="", stdout=""):
        super().__init__(message)
        self.example = example
        self.command = command
        self.returncode = returncode
        self.stderr = stderr
        self.stdout = stdout


class _Example:
    """How one example writes its records (every one into the directory --outDir names)."""

    def __init__(self, primary, runs_flag=False):
        self.primary = primary
        self.runs_flag = runs_flag


#: The examples, by program name, with the flag that makes them write records and the table
#: a sweep collects by default.
EXAMPLES = {
    "edge-llm-handover": _Example("handovers"),
    "edge-llm-scenario": _Example("handovers"),
    "edge-llm-impactho": _Example("handovers", runs_flag=True),
    "edge-llm-pallas": _Example("handovers", runs_flag=True),
    "edge-llm-streaming": _Example("sessions"),
    "edge-llm-ctho-analytic": _Example("analytic"),
    "edge-llm-custom-policy": _Example("handovers"),
}

# Attribute defaults for every later run, "ns3::Class::Attribute" -> value text, in order.
_defaults = {}


def program_name(example):
    """The program name of an example given as "handover" or "edge-llm-handover"."""
    name = os.path.basename(example)
    if name not in EXAMPLES and "edge-llm-" + name in EXAMPLES:
        name = "edge-llm-" + name
    if name not in EXAMPLES:
        raise ValueError(
            "example = %r is invalid; allowed: %s" % (example, ", ".join(sorted(EXAMPLES)))
        )
    return name


def examples_dir():
    """The directory of the example programs: $EDGELLM_EXAMPLES_DIR, else the build's."""
    directory = os.environ.get("EDGELLM_EXAMPLES_DIR")
    if directory:
        return directory
    try:
        from . import _build
    except ImportError:
        raise FileNotFoundError(
            "no examples directory: set EDGELLM_EXAMPLES_DIR to the build's examples/"
        ) from None
    return _build.EXAMPLES_DIR


def example_path(example):
    """The path of an example's program; FileNotFoundError if it is not there."""
    path = os.path.join(examples_dir(), program_name(example))
    if not os.access(path, os.X_OK):
        raise FileNotFoundError(
            "%s is not an executable program (EDGELLM_EXAMPLES_DIR or the build's examples/)"
            % path
        )
    return path


def flag_text(value):
    """A Python value as a flag's text: booleans as true/false, lists joined by commas."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(flag_text(v) for v in value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


# A refusal of the C++ side, one line: "ns3::Class::Attribute = v is invalid; allowed: ...", or
# the same of an example's flag, "--flag = v is invalid; allowed: ...".
_REFUSAL = re.compile(r"^(ns3::\S+|--\S+) = .* is invalid; allowed: .*$", re.MULTILINE)


def _refusals(stderr):
    """The refusal lines of a program's stderr, joined; "" if it printed none."""
    return "\n".join(m.group(0).rstrip() for m in _REFUSAL.finditer(stderr))


def _attribute_error(name, value, stderr):
    """ns-3's refusal of an attribute on a command line, without the help that follows it."""
    lines = []
    for line in stderr.splitlines():
        if line.startswith(("Usage:", "Program Options:", "General Arguments:")) or (
            "[General Arguments]" in line
        ):
            break
        if line.strip():
            lines.append(line.rstrip())
    text = "\n".join(lines) or "refused"
    return "--%s=%s: %s" % (name, value, text)


def _attribute_checker():
    """The program that parses a command line as an example would, and does nothing else."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "edgellm-attribute-check")
    if not os.access(path, os.X_OK):
        raise FileNotFoundError("%s is missing: build the package with CMake" % path)
    return path


def set_default(name, value):
    """Give the ns-3 attribute ``name`` the default ``value`` in every later run.

    The name is looked up in ns-3's TypeId registry (ValueError listing the attributes of the
    TypeId when it has none of that name). An attribute a class inherits may be named under
    that class, as ``attribute_names`` lists it: it is set, and recorded, under the class that
    declares it (``ns3::ImpactHoScheduler::Window`` is ``ns3::ImpactSlotScheduler::Window``),
    the only name ns-3 takes, so every class that has it gets the default. The value is parsed
    by ns-3's CommandLine in a
    child process, so that ns-3 itself accepts or refuses it without risk to this interpreter.
    A refused value raises ValueError with the attribute's refusal as C++ prints it,
    "ns3::Class::Attribute = value is invalid; allowed: ..." (test/invalid-inputs.csv lists
    every attribute's allowed values); ns-3's own message when it printed no such line.
    """
    if not isinstance(name, str) or not name.startswith("ns3::"):
        raise ValueError("name = %r is invalid; allowed: ns3::Class::Attribute" % (name,))
    text = flag_text(value)
    from . import _edgellm

    try:
        name = _edgellm.attribute_info(name)["name"]
        unknown = ""
    except ValueError as e:
        unknown = str(e)
    command = [_attribute_checker(), "--%s=%s" % (name, text)]
    done = subprocess.run(command, capture_output=True, text=True)
    refused = _refusals(done.stderr)
    if refused and not unknown:
        raise ValueError(refused)
    if done.returncode != 0 or unknown:
        message = _attribute_error(name, text, done.stderr + done.stdout)
        raise ValueError(message + ("\n" + unknown if unknown else ""))
    _defaults[name] = text


def get_defaults():
    """The defaults set_default recorded, name -> value text."""
    return dict(_defaults)


def reset_defaults():
    """Forget every default set_default recorded."""
    _defaults.clear()


def _convert(cells):
    """A CSV column as Python numbers where every cell is one; empty cells become None."""
    present = [c for c in cells if c != ""]
    for kind in (int, float):
        try:
            values = [kind(c) for c in present]
        except ValueError:
            continue
        it = iter(values)
        return [next(it) if c != "" else None for c in cells]
    return [c if c != "" else None for c in cells]


def read_csv_columns(path):
    """A CSV file as a dict of columns (lists), in the file's column order."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            return {}
        rows = list(reader)
    columns = {}
    for i, name in enumerate(header):
        columns[name] = _convert([row[i] if i < len(row) else "" for row in rows])
    return columns


def _concat(tables):
    """Several dicts of columns as one: the union of the columns, None where one lacks it."""
    names = []
    for table in tables:
        names += [n for n in table if n not in names]
    out = {n: [] for n in names}
    for table in tables:
        length = len(next(iter(table.values()))) if table else 0
        for n in names:
            out[n] += table.get(n, [None] * length)
    return out


def _read_results(directory, primary):
    """Every CSV and sidecar under directory: tables by name, sidecars by relative path.

    An example that runs several points or RngRuns writes each to a subdirectory of its own;
    the rows of a subdirectory carry its relative path in a column ``run_dir``.
    """
    pieces = {}
    sidecars = {}
    for dirpath, dirnames, files in os.walk(directory):
        dirnames.sort()
        rel = os.path.relpath(dirpath, directory)
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            key = name if rel == "." else os.path.join(rel, name)
            if name.endswith(".csv"):
                columns = read_csv_columns(path)
                if rel != "." and columns:
                    length = len(next(iter(columns.values())))
                    columns = {"run_dir": [rel] * length, **columns}
                pieces.setdefault(name[: -len(".csv")], []).append(columns)
            elif name.endswith(".json"):
                with open(path, encoding="utf-8") as f:
                    sidecars[key[: -len(".json")]] = json.load(f)
    tables = {name: _concat(parts) for name, parts in pieces.items()}
    metadata = {}
    if primary and primary + ".csv" in sidecars:
        metadata = sidecars[primary + ".csv"]
    elif sidecars:
        metadata = sidecars[sorted(sidecars)[0]]
    return tables, sidecars, metadata


class RunResult:
    """What one run of an example left: its records as dicts of columns, and its metadata.

    ``handovers`` and ``sessions`` are the per-handover and per-session records (empty dicts
    when the example writes none), each a dict of equally long lists that
    ``pandas.DataFrame`` takes as it is; ``tables`` has every CSV the run wrote, by file name
    without ``.csv``; ``metadata`` is the sidecar of the main table (module and ns-3 versions,
    RngSeed and RngRun, the flags and changed attributes), ``sidecars`` every sidecar.
    """

    def __init__(self, example, command, stdout, stderr, tables, sidecars, metadata, elapsed_s):
        self.example = example
        self.command = command
        self.stdout = stdout
        self.stderr = stderr
        self.tables = tables
        self.sidecars = sidecars
        self.metadata = metadata
        self.elapsed_s = elapsed_s

    @property
    def handovers(self):
        """One row per handover record, as a dict of columns."""
        return self.tables.get("handovers", {})

    @property
    def sessions(self):
        """One row per session, as a dict of columns."""
        return self.tables.get("sessions", {})

    def table(self, name=None):
        """A table by name; by default the one a sweep of this example collects."""
        if name is None:
            name = EXAMPLES[self.example].primary
        if name not in self.tables:
            raise KeyError(
                "%s wrote no table %r; it wrote: %s"
                % (self.example, name, ", ".join(sorted(self.tables)) or "none")
            )
        return self.tables[name]

    def __repr__(self):
        sizes = ", ".join(
            "%s=%d" % (n, len(next(iter(t.values()))) if t else 0)
            for n, t in sorted(self.tables.items())
        )
        return "RunResult(example=%r, tables={%s}, elapsed_s=%.2f)" % (
            self.example,
            sizes,
            self.elapsed_s,
        )


def run(example, out_dir=None, timeout=None, defaults=None, **params):
    """Run an example in a child process and return its records (a RunResult).

    ``params`` are the example's flags, named exactly as on its command line (``numUes=2``,
    ``backhaulRate="4.5Gbps"``), ``RngRun`` and ``RngSeed`` among them; lists are joined with
    commas and booleans written true/false. The defaults of ``set_default`` come first on the
    command line (``defaults``, a dict of "ns3::..." -> value, replaces them). The records are
    written to a temporary directory, read, and the directory removed, unless ``out_dir``
    names one to keep them in. A non-zero exit raises SimulationError with the refusals the
    example printed (a flag's or an attribute's, as C++ words them), else its stderr.
    """
    name = program_name(example)
    spec = EXAMPLES[name]
    attributes = _defaults if defaults is None else {k: flag_text(v) for k, v in defaults.items()}
    if "outDir" in params:
        raise ValueError(
            "outDir = %r is chosen by run(); pass out_dir= to keep the records"
            % (params["outDir"],)
        )
    command = [example_path(name)]
    command += ["--%s=%s" % (k, v) for k, v in attributes.items()]
    command += ["--%s=%s" % (k, flag_text(v)) for k, v in params.items()]
    keep = out_dir is not None
    directory = os.path.abspath(out_dir) if keep else tempfile.mkdtemp(prefix="edgellm-")
    try:
        command.append("--outDir=" + directory)
        start = time.monotonic()
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise SimulationError(
                "%s did not end within %s s" % (name, timeout), example=name, command=command
            ) from e
        elapsed = time.monotonic() - start
        if done.returncode != 0:
            refused = _refusals(done.stderr)
            text = done.stderr.strip() or done.stdout.strip()[-2000:]
            raise SimulationError(
                refused or "%s exited with %d: %s" % (name, done.returncode, text),
                example=name,
                command=command,
                returncode=done.returncode,
                stderr=done.stderr,
                stdout=done.stdout,
            )
        tables, sidecars, metadata = _read_results(directory, spec.primary)
    finally:
        if not keep:
            shutil.rmtree(directory, ignore_errors=True)
    return RunResult(name, command, done.stdout, done.stderr, tables, sidecars, metadata, elapsed)


def _wrapper(example):
    def call(out_dir=None, timeout=None, defaults=None, **params):
        return run(example, out_dir=out_dir, timeout=timeout, defaults=defaults, **params)

    call.__name__ = "run_" + example[len("edge-llm-") :].replace("-", "_")
    call.__doc__ = "run(%r, **params): see run()." % example
    return call


run_handover = _wrapper("edge-llm-handover")
run_scenario = _wrapper("edge-llm-scenario")
run_impactho = _wrapper("edge-llm-impactho")
run_pallas = _wrapper("edge-llm-pallas")
run_streaming = _wrapper("edge-llm-streaming")
run_ctho_analytic = _wrapper("edge-llm-ctho-analytic")
run_custom_policy = _wrapper("edge-llm-custom-policy")
