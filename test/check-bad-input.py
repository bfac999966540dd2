#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every example, given hostile values as a hostile user would type them: each is refused with
exit 1 and one line on stderr that names what was typed, never a signal, never CommandLine's
whole help, never a run past a short limit.

- The flags are read from each example's --PrintHelp, their kinds from test/invalid-flags.csv
  (time, rate, count, real, signed-real, choice, boolean, dir, file; "-list" for a
  comma-separated list);
  each kind has a table of values that no flag of that kind takes. A flag is also given
  twice (a bad value hidden by a good one) and, unless it is a boolean, without a value.
- Every attribute of test/invalid-inputs.csv (the module's TypeIds) is given its refused
  values and a table of hostile texts as --ns3::Class::Attribute=text, followed by --PrintHelp:
  a refused text exits 1 with the attribute's one line; a taken one reaches the help, exit 0.
- Inputs that once aborted, hung, were taken silently or buried their refusal in the help,
  each with the flag or attribute its line must name.

QUICK (the default) tries one value of each flag and attribute, a different one from flag to
flag, the same every time, and the inputs that once failed; EXTENSIVE tries them all.
Each run is a process of its own, in a scratch directory, on as many threads as there are cores.

    check-bad-input.py SOURCE_DIR EXAMPLES_BUILD_DIR [--fullness=QUICK|EXTENSIVE]
"""

import argparse
import concurrent.futures
import csv
import os
import re
import subprocess
import sys
import tempfile
import time

LIMIT_S = 20  # a refusal takes well under a second; a run that goes on is a failure

# Values that no flag of the kind takes. A value equal to the flag's default is not tried.
HOSTILE = {
    "time": ["", "abc", "-1ms", "-1e-20s", "1e-20s", "1e308", "1e308s", "99999999999999999999",
             "4294967297y", "nan", "inf", "10xs", "1 s", "0x10"],
    "rate": ["", "abc", "4.5", "-1Gbps", "0bps", "1e308Gbps", "99999999999999999999Gbps",
             "18446744073709551616bps", "nan", "inf", "4.5 Gbps", "4.5Gbs"],
    "count": ["", "abc", "-1", "-0", "1.5", "1e308", "99999999999999999999", "4294967297",
              "nan", "inf", "0x10", "1e3"],
    "real": ["", "abc", "-1", "nan", "inf", "-inf", "1e308", "-1e308", "99999999999999999999",
             "0x10"],
    # A real that may be negative (a signed offset).
    "signed-real": ["", "abc", "nan", "inf", "-inf", "1e308", "-1e308", "99999999999999999999",
                    "0x10"],
    "choice": ["", "abc", "-1", "1e308", "nan", "NONE,", "a b"],
    "boolean": ["", "abc", "2", "-1", "yes", "nan"],
    "dir": ["/proc/edge-llm-bad", "/dev/null/sub"],
    "file": ["/dev/full", "/proc/edge-llm-bad.csv", "/dev/null/sub.csv"],
}
# A list also refuses empty items.
LIST_SHAPES = [",", "{0},", ",{0}", "{0},,{0}"]
# Texts for attributes of any type: each is refused with one line, or taken.
HOSTILE_ATTRIBUTE = ["", "abc", "a b", "nan", "inf", "-1", "1e308", "99999999999999999999",
                     "1e-320", "-1bps", "Bogus", "ns3::Bogus", "ns3::Object[x=1]"]

# Inputs that once failed, by how: (program, arguments, what the line names).
ONCE_FAILED = [
    # aborts
    ("edge-llm-handover", ["--bsDistance=1e308"], "--bsDistance"),
    ("edge-llm-handover", ["--bsDistance=99999999999999999999"], "--bsDistance"),
    ("edge-llm-ctho-analytic", ["--ns3::LlmEngine::LoadFactor=nan"], "ns3::LlmEngine::LoadFactor"),
    ("edge-llm-ctho-analytic", ["--ns3::LlmEngine::ChunkTokens=99999999999999999999"],
     "ns3::LlmEngine::ChunkTokens"),
    ("edge-llm-ctho-analytic", ["--ns3::LlmEngine::IterationMode=Bogus"],
     "ns3::LlmEngine::IterationMode"),
    ("edge-llm-ctho-analytic", ["--ns3::LlmEngine::PrefillCycle=1e308"],
     "ns3::LlmEngine::PrefillCycle"),
    ("edge-llm-ctho-analytic", ["--ns3::KvTransferSender::CongestionControl=ns3::Bogus"],
     "ns3::KvTransferSender::CongestionControl"),
    ("edge-llm-ctho-analytic", ["--ns3::ImpactSlotScheduler::SharedRate=-1bps"],
     "ns3::ImpactSlotScheduler::SharedRate"),
    ("edge-llm-ctho-analytic", ["--ns3::PallasScheduler::WindowStep=1e308"],
     "ns3::PallasScheduler::WindowStep"),
    ("edge-llm-ctho-analytic", ["--RngRun=abc"], "RngRun"),
    # hangs
    ("edge-llm-streaming", ["--simTime=99999999999999999999"], "--simTime"),
    ("edge-llm-scenario", ["--simTime=99999999999999999999"], "--simTime"),
    ("edge-llm-impactho", ["--simTime=99999999999999999999"], "--simTime"),
    # times past ns-3's range
    ("edge-llm-impactho", ["--bufferTime=1e308"], "--bufferTime"),
    ("edge-llm-handover", ["--backhaulDelay=1e308"], "--backhaulDelay"),
    ("edge-llm-handover", ["--moveStart=1e308"], "--moveStart"),
    ("edge-llm-impactho", ["--window=1e308"], "--window"),
    ("edge-llm-custom-policy", ["--slot=1e308"], "--slot"),
    ("edge-llm-scenario", ["--outageAfter=1e308"], "--outageAfter"),
    ("edge-llm-scenario", ["--outageFor=1e308"], "--outageFor"),
    ("edge-llm-handover", ["--crossTrafficStart=1e308"], "--crossTrafficStart"),
    ("edge-llm-handover", ["--crossTrafficFor=1e308"], "--crossTrafficFor"),
    ("edge-llm-scenario", ["--stallTimeout=1e308"], "--stallTimeout"),
    # rates without a unit, or beyond 2^64 b/s
    ("edge-llm-handover", ["--plannedBackhaulRate=4.5"], "--plannedBackhaulRate"),
    ("edge-llm-handover", ["--crossTrafficRate=4.5"], "--crossTrafficRate"),
    ("edge-llm-impactho", ["--backhaulRate=4.5"], "--backhaulRate"),
    ("edge-llm-handover", ["--backhaulRate=99999999999999999999Gbps"], "--backhaulRate"),
    # absurd output
    ("edge-llm-handover", ["--prefillA=1e308"], "--prefillA"),
    ("edge-llm-ctho-analytic", ["--prefillCycle=1e-320"], "--prefillCycle"),
    ("edge-llm-custom-policy", ["--window=1e-20s"], "--window"),
    ("edge-llm-handover", ["--prefillCycle=1e-20s"], "--prefillCycle"),
    # a bad value hidden by a later good one
    ("edge-llm-custom-policy", ["--window=abc", "--window=0s"], "--window"),
    ("edge-llm-handover", ["--scheme=nope", "--scheme=ctho"], "--scheme"),
    # a program of one scheme whose help offered "all" and lists, and then refused them
    # naming "all" whatever was typed
    ("edge-llm-scenario", ["--scheme=tho,ctho"], "--scheme = tho,ctho"),
    ("edge-llm-ctho-analytic", ["--ns3::LlmEngine::LoadFactor=nan",
                                "--ns3::LlmEngine::LoadFactor=1"], "ns3::LlmEngine::LoadFactor"),
    # other silent cases
    ("edge-llm-handover", ["--tokensCsv=/dev/full"], "--tokensCsv"),
    ("edge-llm-streaming", ["--spacing=1e308"], "--spacing"),
    ("edge-llm-scenario", ["--columns=0"], "--columns"),
    ("edge-llm-scenario", ["--layout=grid", "--cells=3", "--mobility=routes"], "--cells"),
    ("edge-llm-handover", ["--trigger=a3", "--batching=online", "--numUes=1",
                           "--tokensAfter=20", "--scheme=ctho", "--quiet"],
     "verdict: no handover completed"),
    # messages that blame a scheme
    ("edge-llm-streaming", ["--speed=1e308"], "--speed"),
    ("edge-llm-handover", ["--backhaulRate=4.5"], "--backhaulRate"),
    # refusals under the whole help
    ("edge-llm-handover", ["--backhaulRate="], "--backhaulRate"),
    ("edge-llm-ctho-analytic", ["--sweep"], "--sweep"),
    ("edge-llm-handover", ["--cMax=4294967297"], "--cMax"),
    ("edge-llm-ctho-analytic", ["--ns3::LlmEngine::ChunkTokens=0"], "ns3::LlmEngine::ChunkTokens"),
    ("edge-llm-ctho-analytic", ["--foo=1"], "--foo"),
    ("edge-llm-ctho-analytic", ["ues=2"], "ues=2"),
]


def programs_of(source):
    cmake = open(os.path.join(source, "examples", "CMakeLists.txt")).read()
    block = re.search(r"set\(EDGE_LLM_EXAMPLES\s+([^)]*)\)", cmake)
    return block.group(1).split() if block else []


def help_flags(program):
    """The flags of a program's --PrintHelp, in its Program Options, with their defaults."""
    out = subprocess.run([program, "--PrintHelp"], capture_output=True, text=True,
                         timeout=LIMIT_S).stdout
    options = out.split("Program Options:", 1)[-1].split("General Arguments:", 1)[0]
    flags = {}
    for m in re.finditer(r"^\s+--(\w+):(.*)$", options, re.MULTILINE):
        default = re.search(r"\[([^\[\]]*)\]\s*$", m.group(2))
        flags[m.group(1)] = default.group(1) if default else ""
    return flags


def kinds_of(source):
    """(example, flag) -> kind, from test/invalid-flags.csv."""
    with open(os.path.join(source, "test", "invalid-flags.csv"), newline="",
              encoding="utf-8") as f:
        return {(r["example"], r["flag"]): r["kind"] for r in csv.DictReader(f)}


def attribute_rows(source):
    with open(os.path.join(source, "test", "invalid-inputs.csv"), newline="",
              encoding="utf-8") as f:
        return list(csv.DictReader(f))


def values_of(cell):
    """A cell's values: separated by ";", "(empty)" for the empty text, none for "-"."""
    if cell == "-":
        return []
    return ["" if v.strip() == "(empty)" else v.strip() for v in cell.split(";")]


def hostile_values(kind, default):
    base = kind[:-len("-list")] if kind.endswith("-list") else kind
    values = list(HOSTILE[base])
    if kind.endswith("-list"):
        item = default.split(",")[0] if default else "1"
        values += [shape.format(item) for shape in LIST_SHAPES]
    return [v for v in values if v != default]


def sample(units, fullness):
    """The cases of each unit (a flag, an attribute): QUICK takes one of each, a different one
    from unit to unit, so that the sample goes through the tables; the same every time."""
    if fullness == "EXTENSIVE":
        return [c for unit in units for c in unit]
    return [unit[i % len(unit)] for i, unit in enumerate(units) if unit]


def run(program, arguments, directory):
    """(exit code, stdout, stderr, seconds); exit None when the run went past the limit."""
    start = time.monotonic()
    try:
        done = subprocess.run([program] + arguments, capture_output=True, text=True,
                              cwd=directory, timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        return None, "", "", time.monotonic() - start
    return done.returncode, done.stdout, done.stderr, time.monotonic() - start


def judge(case, outcome):
    """An error for a case's outcome, or None.

    case: (program, arguments, named, may_pass, words): named is what the line must start
    with, words (if any) the allowed values it must give.
    """
    program, arguments, named, may_pass, words = case
    code, out, err, seconds = outcome
    shown = "%s %s" % (program, " ".join(arguments))
    lines = [l for l in err.splitlines() if l.strip()]
    if code is None:
        return "%s: still running after %d s" % (shown, LIMIT_S)
    if code < 0:
        return "%s: killed by signal %d; stderr: %s" % (shown, -code, err.strip()[-500:])
    if code == 0 and may_pass:
        return None  # a text the attribute takes: the run reached --PrintHelp
    if "Program Options:" in out + err:
        return "%s: exit %d with the whole help" % (shown, code)
    if code != 1:
        return "%s: exit %d; stderr: %s" % (shown, code, err.strip()[-500:])
    line = lines[0].lstrip('"') if len(lines) == 1 else ""
    rest = line[len(named):]
    if not line.startswith(named) or (rest and (rest[0].isalnum() or rest[0] == "_")):
        return "%s: exit 1, but stderr is not one line naming %s:\n%s" % (shown, named,
                                                                         err.strip()[-1000:])
    if words is not None and "allowed: " + words not in lines[0]:
        return "%s: the line does not say \"allowed: %s\": %s" % (shown, words, lines[0])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source")
    parser.add_argument("build")
    parser.add_argument("--fullness", choices=["QUICK", "EXTENSIVE"],
                        default=os.environ.get("EDGE_LLM_FULLNESS", "QUICK"))
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    started = time.monotonic()
    errors = []
    kinds = kinds_of(args.source)
    # A case: (program path, arguments, named, may_pass, words).
    units = []
    for program in programs_of(args.source):
        path = os.path.join(build, program)
        for flag, default in help_flags(path).items():
            kind = kinds.get((program, flag))
            if kind is None or (kind[:-len("-list")] if kind.endswith("-list")
                                else kind) not in HOSTILE:
                errors.append("test/invalid-flags.csv: --%s of %s has no kind of %s"
                              % (flag, program, ", ".join(sorted(HOSTILE))))
                continue
            named = "--" + flag
            unit = [(path, ["--%s=%s" % (flag, v)], named, False, None)
                    for v in hostile_values(kind, default)]
            unit.append((path, ["--%s=abc" % flag, "--%s=%s" % (flag, default)], named, False,
                         None))
            if kind != "boolean":
                unit.append((path, ["--" + flag], named, False, None))
            units.append(unit)
    # Attributes: through the analytic example, which reads them as every example does.
    analytic = os.path.join(build, "edge-llm-ctho-analytic")
    for row in attribute_rows(args.source):
        name = row["attribute"]
        if name.startswith("ns3::NrRanStack::"):
            continue  # registered only in builds with 5G-LENA's nr module
        given = lambda value: ["--%s=%s" % (name, value), "--PrintHelp"]
        units.append([(analytic, given(v), name, False, row["allowed"])
                      for v in values_of(row["refused"])] +
                     [(analytic, given(v), name, True, None) for v in HOSTILE_ATTRIBUTE])
    cases = sample(units, args.fullness)
    cases += [(os.path.join(build, p), a, n, False, None) for p, a, n in ONCE_FAILED]
    with tempfile.TemporaryDirectory(prefix="edge-llm-bad-input-") as scratch:

        def attempt(numbered):
            number, (program, arguments, _, _, _) = numbered
            directory = os.path.join(scratch, str(number))
            os.makedirs(directory)
            return run(program, arguments, directory)

        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            outcomes = list(pool.map(attempt, enumerate(cases)))
    for case, outcome in zip(cases, outcomes):
        error = judge((os.path.basename(case[0]),) + case[1:], outcome)
        if error:
            errors.append(error)
    for e in errors:
        print(e)
    print("%s: %d hostile inputs to %d examples and the module's attributes, %d refused or "
          "handled wrongly, in %.0f s"
          % (args.fullness, len(cases), len(programs_of(args.source)), len(errors),
             time.monotonic() - started))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
