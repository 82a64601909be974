"""rigview.batch: `rigview check` over a whole asset library on a Dask distributed cluster.

    python3 -m rigview.batch check ROOT... [--scheduler ADDRESS | --local N] [-o OUT.jsonl]
                                  [--resume OUT.jsonl] [--retries N] [--rigview PATH]
                                  [--strict] [--import-timeout SECONDS]

The files are the ones `rigview check ROOT...` would check (the binary lists them:
`rigview check --list-files`). Each file is one Dask task that runs `rigview check
--json-lines FILE` (which imports the file in its own worker process and turns an importer
crash or time-out into a finding) and returns that file's line. Lines are written as tasks
finish (one JSON object per line, flushed), then the summary line, as `rigview check
--json-lines` does; the exit code is the worst result, as rigview's.

Each file line is rigview's own line for that file with two keys added:
  "stat":   {"size": bytes, "mtime_ns": ns} of the file when it was checked (--resume
            re-checks a file whose size or mtime changed)
  "counts": the file's one-file summary (files, passed, failed, errors, ...), so a resumed
            run's summary adds up files it did not check again.

A Dask worker that dies (killed, out of memory, machine gone) loses no file: the scheduler
gives its tasks to other workers, up to --retries times per task (the scheduler's
`allowed-failures`); a file whose task killed a worker on every try (distributed.KilledWorker)
is reported as an `importer-crashed` finding, as rigview reports a crashed importer.

This module imports no compiled code (not rigview._rigview): Dask ships its functions to the
workers by value, and the workers need only the rigview binary and the files (same paths).

Test hook (for tests only): where the workers' environment has RIGVIEW_BATCH_TEST_HOOKS=FILE,
each task reads FILE, a JSON object:
  {"exit": NAME}                   a task for a file named NAME ends its worker process
                                   (os._exit) on every try
  {"hang": NAME, "pidfile": PATH}  the first task for a file named NAME (while PATH does not
                                   exist) writes its worker's process id to PATH and sleeps,
                                   for the test to kill that worker
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

# Exit codes (README's, app/exit_codes.h).
EXIT_OK = 0
EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_BAD_INPUT = 3
EXIT_OUTPUT_FAILED = 4
EXIT_INTERNAL_ERROR = 7

# The summary's keys, as `rigview check --json-lines` writes them.
SUMMARY_KEYS = ("errors", "failed", "files", "importer_crashed", "importer_timeout", "infos", "passed",
                "unreadable", "warnings")

PROG = "rigview.batch"


class BatchError(Exception):
    """A problem that ends the run: one line on stderr and an exit code."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


if __name__ != "__main__":
    # Functions of this module go to the workers by value: they need not have it installed.
    try:
        import cloudpickle
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
    except (ImportError, AttributeError, ValueError):
        pass


# ---------------------------------------------------------------------------------------------
# Where the rigview binary is.

def find_rigview(explicit=None):
    """--rigview, else $RIGVIEW_BIN, else the package's own (rigview/bin/rigview: an installed
    package, or the build tree's link to build/rigview), else beside this package (source tree:
    <repo>/build/rigview), else `rigview` on PATH."""
    if explicit:
        return os.path.abspath(explicit)
    env = os.environ.get("RIGVIEW_BIN")
    if env:
        return os.path.abspath(env)
    candidates = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "rigview")]
    for here in (os.path.abspath(__file__), os.path.realpath(__file__)):
        top = os.path.dirname(os.path.dirname(os.path.dirname(here)))  # python/rigview/batch.py -> <top>
        candidates += [os.path.join(top, "build", "rigview"), os.path.join(top, "rigview")]
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    found = shutil.which("rigview")
    if found:
        return found
    raise BatchError("no rigview binary found: give --rigview PATH or set RIGVIEW_BIN (looked in "
                     + ", ".join(candidates) + " and on PATH)", EXIT_USAGE)


def rigview_version(rigview):
    """The version of the rigview binary (`rigview --version`'s first line: "rigview X"), for
    the lines the batch writes itself; None when it does not say."""
    try:
        p = subprocess.run([rigview, "--version"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
    except OSError as e:
        raise BatchError("cannot run " + rigview + ": " + e.strerror, EXIT_USAGE)
    first = p.stdout.decode("utf-8", "replace").split("\n", 1)[0].split()
    return first[1] if p.returncode == 0 and len(first) == 2 and first[0] == "rigview" else None


def global_args(import_timeout):
    """rigview's options that go before the subcommand."""
    return ["--import-timeout", repr(float(import_timeout))] if import_timeout is not None else []


def list_files(rigview, roots, import_timeout=None):
    """The files `rigview check ROOTS` checks, in its order (rigview check --list-files)."""
    cmd = [rigview] + global_args(import_timeout) + ["check", "--list-files", "--"] + list(roots)
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise BatchError("cannot run " + rigview + ": " + e.strerror, EXIT_USAGE)
    if p.returncode != 0:
        message = p.stderr.decode("utf-8", "replace").strip() or ("rigview check --list-files exited with "
                                                                   + str(p.returncode))
        raise BatchError(message.splitlines()[0].removeprefix("rigview: "), p.returncode)
    # Paths are bytes on disk: keep them exact (surrogateescape) so each is passed back as it came.
    return [os.fsdecode(name) for name in p.stdout.split(b"\0") if name]


# ---------------------------------------------------------------------------------------------
# The per-file task (runs on a Dask worker).

def _test_hooks(path):
    hooks_file = os.environ.get("RIGVIEW_BATCH_TEST_HOOKS")
    if not hooks_file:
        return
    try:
        with open(hooks_file) as f:
            hooks = json.load(f)
    except (OSError, ValueError):
        return
    name = os.path.basename(path)
    if hooks.get("exit") == name:
        os._exit(1)
    pidfile = hooks.get("pidfile")
    if hooks.get("hang") == name and pidfile and not os.path.exists(pidfile):
        with open(pidfile + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(pidfile + ".tmp", pidfile)
        time.sleep(120)


def file_stat(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def check_file(rigview, path, cwd, strict=False, import_timeout=None):
    """Run `rigview check --json-lines PATH`; return (the file's line as rigview wrote it, with
    "stat" and "counts" added, as text; the line's rank: 0 ok, 2 failed, 3 unreadable)."""
    _test_hooks(path)
    stat = file_stat(path)
    cmd = [rigview] + global_args(import_timeout) + ["check", "--json-lines", "--jobs", "1"]
    cmd += ["--strict"] if strict else []
    cmd += ["--", path]
    p = subprocess.run(cmd, cwd=cwd if cwd and os.path.isdir(cwd) else None, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    file_line = summary = None
    for raw in p.stdout.decode("utf-8", "replace").splitlines():
        try:
            obj = json.loads(raw)
        except ValueError:
            continue
        if isinstance(obj, dict) and "summary" in obj:
            summary = obj["summary"]
        elif isinstance(obj, dict) and "file" in obj and file_line is None:
            file_line = raw.strip()
    if file_line is None or summary is None:
        tail = p.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RuntimeError("rigview check gave no report for " + path + " (exit status " + str(p.returncode)
                           + (": " + tail[-1] if tail else "") + ")")
    return add_keys(file_line, stat, summary)


def add_keys(line, stat, counts):
    """rigview's line (a JSON object, text) with "counts" and "stat" added at its end; the rest
    stays byte for byte what rigview wrote."""
    extra = json.dumps({"counts": counts, "stat": stat}, sort_keys=True, separators=(",", ":"))
    body = line.rstrip()
    assert body.endswith("}") and extra.startswith("{")
    return body[:-1] + ("," if body != "{}" else "") + extra[1:]


def line_rank(obj):
    """rigview's severity rank of a file line: 3 unreadable, 2 failed, 0 passed."""
    if "error" in obj:
        return 3
    return 0 if obj.get("passed") else 2


def killed_line(path, stat, tries, error, version=None):
    """The line of a file whose task killed a Dask worker on every try: an importer-crashed
    finding, in the shape rigview (of `version`) writes for a crashed importer."""
    message = ("the check killed its Dask worker on " + str(tries) + (" try" if tries == 1 else " tries")
               + " (distributed.KilledWorker" + (", " + error if error else "") + ")")
    path = os.fsencode(path).decode("utf-8", "replace")  # valid UTF-8, as rigview writes names
    obj = {
        "error": path + ": " + message,
        "file": path,
        "findings": [{"code": "importer-crashed", "count": 1, "examples": [], "message": message, "names": [],
                      "severity": "error", "subject": "", "value": 0.0}],
        "passed": False,
        "worst": "error",
    }
    if version:
        obj["rigview_version"] = version
    counts = {k: 0 for k in SUMMARY_KEYS}
    counts.update(files=1, failed=1, unreadable=1, importer_crashed=1, errors=1)
    return add_keys(json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False), stat, counts)


# ---------------------------------------------------------------------------------------------
# Resume: an earlier output's lines.

def read_previous(path):
    """{file: (line text, parsed object)} of an earlier output; the last line of a file wins;
    summary lines and lines cut short (a run killed mid-write) are skipped."""
    previous = {}
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return previous
    for raw in data.split(b"\n"):
        text = raw.decode("utf-8", "replace").strip()
        if not text:
            continue
        try:
            obj = json.loads(text)
        except ValueError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get("file"), str) and "stat" in obj and "counts" in obj:
            previous[obj["file"]] = (text, obj)
    return previous


# ---------------------------------------------------------------------------------------------
# The run.

class Output:
    """Where lines go: stdout, or a file (appended to when resuming), flushed line by line."""

    def __init__(self, path, append):
        self.path = path
        if path is None:
            self.f = sys.stdout.buffer
            return
        try:
            if append and os.path.exists(path):
                self.f = open(path, "r+b")
                self.f.seek(0, os.SEEK_END)
                if self.f.tell() > 0:
                    self.f.seek(-1, os.SEEK_END)
                    if self.f.read(1) != b"\n":  # a line cut short: end it, so the next starts clean
                        self.f.write(b"\n")
            else:
                self.f = open(path, "wb")
        except OSError as e:
            raise BatchError("cannot write " + path + ": " + e.strerror, EXIT_OUTPUT_FAILED)

    def write(self, line):
        try:
            self.f.write(line.encode("utf-8", "surrogateescape") + b"\n")
            self.f.flush()
        except OSError as e:
            if self.path is None:  # stdout gone (a closed pipe): nothing more can go there
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise BatchError("cannot write " + (self.path or "the report to standard output") + ": "
                             + (e.strerror or str(e)), EXIT_OUTPUT_FAILED)

    def close(self):
        if self.path is not None:
            self.f.close()


def set_allowed_failures(value, dask_scheduler=None):
    """On the scheduler: set its allowed-failures, return the old value."""
    old = dask_scheduler.allowed_failures
    dask_scheduler.allowed_failures = value
    return old


def local_cluster(workers, retries=3):
    """A LocalCluster of `workers` processes of one thread each, no dashboard; its scheduler
    (in this process) sends one task per worker thread at a time (worker-saturation 1.0) and
    lets a task see `retries` workers die."""
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.scheduler.allowed-failures": retries,
                          "distributed.scheduler.worker-saturation": 1.0}):
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)


def run_check(client, rigview, files, out, previous=None, retries=3, strict=False, import_timeout=None,
              log=None, version=None):
    """Check `files` on `client`'s cluster, giving each line to `out(file, line)` as it comes;
    files in `previous` ({file: (text, obj)}) whose stat is unchanged are not checked again;
    `version`: the binary's, for the lines written here.
    Returns (summary dict, worst rank, [(file, error)] of files that could not be checked)."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    log = log or (lambda message: None)
    previous = previous or {}
    results = {}  # file -> parsed line (kept and new)
    todo = []
    for path in files:
        old = previous.get(path)
        if old is not None and old[1].get("stat") is not None and old[1]["stat"] == file_stat(path):
            results[path] = old[1]
        else:
            todo.append(path)
    if results:
        log("resuming: %d of %d files unchanged since the earlier run, %d to check"
            % (len(results), len(files), len(todo)))

    failed = []
    cwd = os.getcwd()
    # The scheduler's allowed-failures, for this run: a task may see --retries workers die.
    old_allowed = client.run_on_scheduler(set_allowed_failures, retries)
    try:
        # At most as many tasks in flight as the cluster has threads, so a worker that dies
        # holds (and makes suspect) only the task that was running on it.
        pending = iter(todo)
        ac = as_completed()
        in_flight = {}
        submitted = [0]

        def refill():
            limit = max(1, sum(client.nthreads().values()))
            while len(in_flight) < limit:
                path = next(pending, None)
                if path is None:
                    return
                submitted[0] += 1
                fut = client.submit(check_file, rigview, path, cwd, strict, import_timeout,
                                    key="rigview-check-%d-%s" % (submitted[0], os.urandom(6).hex()))
                in_flight[fut.key] = path
                ac.add(fut)

        refill()
        for fut in ac:
            path = in_flight.pop(fut.key)
            if fut.status == "finished":
                line = fut.result()
            elif fut.status != "error":  # cancelled: the scheduler lost
                raise BatchError("the Dask cluster dropped the task of " + path + " (" + fut.status
                                 + "); --resume OUT.jsonl goes on from the lines written", EXIT_INTERNAL_ERROR)
            else:
                error = fut.exception()
                if isinstance(error, KilledWorker):
                    last = getattr(error.last_worker, "address", None)
                    line = killed_line(path, file_stat(path), error.allowed_failures + 1,
                                       "last on " + last if last else "", version)
                else:
                    failed.append((path, str(error)))
                    line = None
            fut.release()
            if line is not None:
                results[path] = json.loads(line)
                out(path, line)
            refill()
    finally:
        try:
            client.run_on_scheduler(set_allowed_failures, old_allowed)
        except Exception:  # the scheduler gone: nothing to restore
            pass

    summary = {k: 0 for k in SUMMARY_KEYS}
    worst = 0
    for path in files:  # the files that could not be read, one line each on stderr, as rigview's
        if path in results and "error" in results[path]:
            log(str(results[path]["error"]))
    for obj in results.values():
        for k in SUMMARY_KEYS:
            summary[k] += int(obj["counts"].get(k, 0))
        worst = max(worst, line_rank(obj))
    return summary, worst, failed


def summary_line(summary, version=None):
    """The summary line as `rigview check --json-lines` (of `version`) writes it."""
    obj = {"summary": summary}
    if version:
        obj["rigview_version"] = version
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def exit_code(worst, failed):
    if failed:
        return EXIT_INTERNAL_ERROR
    return {3: EXIT_BAD_INPUT, 2: EXIT_CHECK_FAILED}.get(worst, EXIT_OK)


def compact(path, files, previous_text, new_lines, summary, version=None):
    """Rewrite a resumed output as one line per file (the earlier line when unchanged, the
    new one otherwise) and the summary: a temporary file, renamed over it."""
    lines = dict(previous_text)
    lines.update(new_lines)
    tmp = path + ".tmp-" + str(os.getpid())
    with open(tmp, "wb") as f:
        for p in files:
            if p in lines:
                f.write(lines[p].encode("utf-8", "surrogateescape") + b"\n")
        f.write(summary_line(summary, version).encode() + b"\n")
    os.replace(tmp, path)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python3 -m rigview.batch",
                                     description="rigview check over an asset library on a Dask cluster")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="rig diagnostics of every model file under ROOT, one Dask task per file",
                       description="Check every model file under ROOT (as `rigview check ROOT` would) on a Dask "
                                   "cluster; one JSON line per file as each finishes, then the summary line.")
    c.add_argument("roots", nargs="+", metavar="ROOT", help="model files or folders (searched recursively)")
    where = c.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler (tcp://host:8786)")
    where.add_argument("--local", type=int, metavar="N",
                       help="a local cluster of N worker processes (default: one per core)")
    c.add_argument("-o", "--output", metavar="OUT.jsonl", help="write the lines to OUT.jsonl (default: stdout)")
    c.add_argument("--resume", metavar="OUT.jsonl",
                   help="an earlier output: files it reports with the same size and mtime are not checked "
                        "again; new lines are appended to it, and at the end it holds one line per file and "
                        "the summary")
    c.add_argument("--retries", type=int, default=3, metavar="N",
                   help="times a file's task is given to another worker after its worker died (default 3); "
                        "a file that killed its worker every time is an importer-crashed finding")
    c.add_argument("--rigview", metavar="PATH", help="the rigview binary (default: $RIGVIEW_BIN, the build "
                                                       "beside this package, or rigview on PATH)")
    c.add_argument("--connect-timeout", type=float, default=30.0, metavar="SECONDS",
                   help="seconds to wait for the scheduler (--scheduler) to answer (default 30)")
    c.add_argument("--strict", action="store_true", help="warnings fail too (rigview check --strict)")
    c.add_argument("--import-timeout", type=float, metavar="SECONDS",
                   help="seconds an import may take before rigview kills its import worker")
    args = parser.parse_args(argv)
    if args.local is not None and args.local < 1:
        parser.error("--local takes a number of workers >= 1")
    if args.retries < 0:
        parser.error("--retries takes N >= 0")
    if args.resume and args.output and os.path.abspath(args.resume) != os.path.abspath(args.output):
        parser.error("--resume appends to its own file: give -o the same file or leave it out")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return _main(args)
    except BatchError as e:
        print(PROG + ": " + str(e), file=sys.stderr)
        return e.code


def _main(args):
    from distributed import Client

    rigview = find_rigview(args.rigview)
    version = rigview_version(rigview)
    files = list_files(rigview, args.roots, args.import_timeout)
    out_path = args.resume or args.output
    previous = read_previous(args.resume) if args.resume else {}

    def log(message):
        print(PROG + ": " + message, file=sys.stderr)

    cluster = None
    if args.scheduler:
        try:
            client = Client(args.scheduler, timeout=args.connect_timeout)
        except (OSError, TimeoutError) as e:
            raise BatchError("cannot reach the Dask scheduler at " + args.scheduler + ": " + str(e), EXIT_USAGE)
    else:
        cluster = local_cluster(args.local or os.cpu_count() or 1, args.retries)
        client = Client(cluster)
    output = Output(out_path, append=bool(args.resume))
    new_lines = {}

    def out(path, line):
        new_lines[path] = line
        output.write(line)

    try:
        if not client.nthreads():
            log("waiting for a Dask worker to join " + client.scheduler.address)
        client.wait_for_workers(1)
        summary, worst, failed = run_check(client, rigview, files, out, previous, args.retries, args.strict,
                                           args.import_timeout, log, version)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if args.resume:
        output.close()
        kept = {p: previous[p][0] for p in files if p in previous and p not in new_lines}
        compact(args.resume, files, kept, new_lines, summary, version)
    else:
        output.write(summary_line(summary, version))
        output.close()
    for path, error in failed:
        print(PROG + ": " + path + ": could not be checked: " + error, file=sys.stderr)
    return exit_code(worst, failed)


if __name__ == "__main__":
    sys.exit(main())
