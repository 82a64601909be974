"""rigview.batch: `rigview check` over a whole asset library on a Dask distributed cluster.

    python3 -m rigview.batch check ROOT... [--scheduler ADDRESS | --local N] [-o OUT.jsonl]
                                  [--resume OUT.jsonl] [--retries N] [--rigview PATH]
                                  [--chunk N] [--jobs K] [--strict] [--import-timeout SECONDS]

The files are the ones `rigview check ROOT...` would check (the binary lists them:
`rigview check --list-files`). They go to the cluster in chunks: each Dask task runs one
`rigview check --json-lines --jobs K --files-from -` over its chunk (each import in its own
worker process, an importer crash or time-out a finding) and returns the chunk's lines, with
each line's counts worked out on the worker. At most two chunks per worker thread are in
flight; lines are written (one JSON object per line, flushed) as chunks finish, then the
summary line, as `rigview check --json-lines` does; the exit code is the worst result, as
rigview's. The client holds the window and the summary, not the run's lines.

Each file line is rigview's own line for that file with two keys added:
  "stat":   {"size": bytes, "mtime_ns": ns} of the file when it was checked (--resume: the
            workers stat their files and check again those whose size or mtime changed)
  "counts": the file's one-file summary (files, passed, failed, errors, ...), so a resumed
            run's summary adds up files it did not check again.

A Dask worker that dies (killed, out of memory, machine gone) loses no file: the scheduler
gives its tasks to other workers, up to --retries times per task (the scheduler's
`allowed-failures`); a chunk that still fails is run again one file per task, and a file whose
own task killed a worker on every try (distributed.KilledWorker) is reported as an
`importer-crashed` finding, as rigview reports a crashed importer. Memory: each task gives its
rigview the worker's memory limit divided among its threads and imports
(RIGVIEW_MAX_MEMORY_MB). A cut or damaged line of a resumed output is skipped with one warning
and its file checked again.

What runs on the workers imports no compiled code (not rigview._rigview): Dask ships its
functions to the workers by value, and the workers need only the rigview binary and the files
(same paths). The client refuses an output over a file to check through rigview's own rule
(rigview.output_is_not_an_input).

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

# The "schema" of rigview's JSON (app/schema_versions.h), on the lines written here.
CHECK_SCHEMA = "rigview.check/1"


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


def counts_of(obj):
    """A file line's one-file summary, as `rigview check --json-lines` counts it: the rows
    fileJson adds for the report itself (non-finite-output, an unreadable file's own error row)
    are not findings of the file's report."""
    findings = [f for f in obj.get("findings", []) if isinstance(f, dict) and f.get("code") != "non-finite-output"]
    unreadable = "error" in obj
    if unreadable and findings and findings[0].get("code") == "external-path-refused" \
            and findings[0].get("severity") == "error":
        findings = findings[1:]
    codes = {f.get("code") for f in findings}
    passed = bool(obj.get("passed"))
    counts = {k: 0 for k in SUMMARY_KEYS}
    counts.update(files=1, passed=int(passed), failed=int(not passed), unreadable=int(unreadable),
                  importer_crashed=int(unreadable and "importer-crashed" in codes),
                  importer_timeout=int(unreadable and "importer-timeout" in codes))
    for f in findings:
        key = {"error": "errors", "warning": "warnings", "info": "infos"}.get(f.get("severity"))
        if key:
            counts[key] += 1
    return counts


def memory_per_import(jobs):
    """MiB for each of the `jobs` imports a task runs at once on this Dask worker: the worker's
    memory limit (a LocalCluster divides the machine's among its workers) shared by its threads'
    tasks and divided by the jobs; None where the worker has no limit (rigview's own applies)."""
    try:
        from distributed import get_worker
        worker = get_worker()
        limit = worker.memory_manager.memory_limit
        threads = max(1, worker.state.nthreads)
    except (ImportError, ValueError, AttributeError):
        return None
    if not limit:
        return None
    return max(64, int(limit / threads / max(1, jobs) / (1 << 20)))


def check_chunk(rigview, items, cwd, strict=False, import_timeout=None, jobs=1):
    """Check a chunk of files with one `rigview check --json-lines --jobs JOBS --files-from -`
    (the names on its standard input, NUL-ended: no limit on their length or count).
    `items`: [(path, the stat of an earlier run's line, or None)]. A file whose stat is unchanged
    is not checked. Returns [(path, line or None, error or None, summary)] in `items`' order:
    line None and error None: unchanged; error: rigview gave no line for it (why); summary, with
    a line: (its counts, its rank, its error message or None), worked out here so the client
    parses nothing."""
    results = {}
    todo = []
    for path, old in items:
        stat = file_stat(path)
        if old is not None and stat == old:
            results[path] = (None, None, None)
        else:
            todo.append((path, stat))
    if todo:
        for path, _ in todo:
            _test_hooks(path)
        cmd = [rigview] + global_args(import_timeout) + ["check", "--json-lines", "--jobs", str(jobs)]
        cmd += ["--strict"] if strict else []
        cmd += ["--files-from", "-"]
        names = b"".join(os.fsencode(path) + b"\0" for path, _ in todo)
        env = None
        memory = memory_per_import(jobs)
        if memory is not None and "RIGVIEW_MAX_MEMORY_MB" not in os.environ:
            env = dict(os.environ, RIGVIEW_MAX_MEMORY_MB=str(memory))
        p = subprocess.run(cmd, cwd=cwd if cwd and os.path.isdir(cwd) else None, input=names,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        # rigview names a file as it was given, made valid UTF-8.
        by_name = {os.fsencode(path).decode("utf-8", "replace"): (path, stat) for path, stat in todo}
        for raw in p.stdout.decode("utf-8", "replace").splitlines():
            try:
                obj = json.loads(raw)
            except (ValueError, RecursionError):
                continue
            if not isinstance(obj, dict) or "summary" in obj or not isinstance(obj.get("file"), str):
                continue
            hit = by_name.get(obj["file"])
            if hit is None or hit[0] in results:
                continue
            counts = counts_of(obj)
            error = str(obj["error"]) if "error" in obj else None
            results[hit[0]] = (add_keys(raw.strip(), hit[1], counts), None, (counts, line_rank(obj), error))
        tail = p.stderr.decode("utf-8", "replace").strip().splitlines()
        why = "rigview check gave no report (exit status " + str(p.returncode) + (": " + tail[-1] if tail else "") + ")"
        for path, _ in todo:
            results.setdefault(path, (None, why, None))
    return [(path,) + results[path] for path, _ in items]


def check_file(rigview, path, cwd, strict=False, import_timeout=None):
    """One file (check_chunk of one): its line, with "stat" and "counts" added."""
    _, line, error, _ = check_chunk(rigview, [(path, None)], cwd, strict, import_timeout)[0]
    if error:
        raise RuntimeError(error.replace("rigview check gave no report", "rigview check gave no report for " + path, 1))
    return line

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
        "schema": CHECK_SCHEMA,
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

def previous_entry(obj):
    """(stat, counts, rank) of an earlier output's file line, or None when it is not one the
    batch wrote whole (a cut or damaged line, or rigview's own line without "stat")."""
    stat, counts = obj.get("stat"), obj.get("counts")
    if not isinstance(obj.get("file"), str) or not isinstance(stat, dict) or not isinstance(counts, dict):
        return None
    if not all(isinstance(stat.get(k), int) and not isinstance(stat.get(k), bool) and stat[k] >= 0
               for k in ("size", "mtime_ns")):
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts.values()) \
            or counts.get("files") != 1 or not isinstance(obj.get("passed"), bool):
        return None
    return ({"size": stat["size"], "mtime_ns": stat["mtime_ns"]},
            {k: counts.get(k, 0) for k in SUMMARY_KEYS}, line_rank(obj))


def scan_output(path):
    """Walk an earlier output line by line: yields (byte offset, raw line, parsed object or
    None when the line is cut or damaged: not a JSON object, or a file line missing its stat and
    counts or holding values of the wrong kind); summary lines and blank lines are left out."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return
    with f:
        offset = 0
        for raw in f:
            at, offset = offset, offset + len(raw)
            text = raw.decode("utf-8", "replace").strip()
            if not text:
                continue
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError):
                obj = None
            if isinstance(obj, dict) and "summary" in obj and "file" not in obj:
                continue
            if isinstance(obj, dict) and "file" in obj and "stat" not in obj and "counts" not in obj \
                    and isinstance(obj["file"], str):
                continue  # rigview's own line (plain `rigview check --json-lines`): checked again
            yield at, raw, (obj if isinstance(obj, dict) and previous_entry(obj) is not None else None)


def read_previous(path, log=None):
    """{file: (stat, counts, rank)} of an earlier output (the last line of a file wins). Cut or
    damaged lines are skipped with one warning (through `log`): their files are checked again."""
    previous = {}
    damaged, first = 0, None
    for _, raw, obj in scan_output(path):
        if obj is None:
            damaged += 1
            first = first or raw[:60].decode("utf-8", "replace").strip()
            continue
        previous[obj["file"]] = previous_entry(obj)
    if damaged and log:
        log("%s: %d cut or damaged line%s skipped (the first: %r); their files are checked again"
            % (path, damaged, "" if damaged == 1 else "s", first))
    return previous


class Output:
    """Where lines go: stdout, or a file (appended to when resuming), flushed line by line."""

    def __init__(self, path, append):
        self.path = None if path == "-" else path  # "-": standard output
        path = self.path
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


def local_cluster(workers, retries=3, processes=False):
    """A LocalCluster of `workers` workers of one thread each, with no dashboard (its HTTP
    servers serve no route); its scheduler (in this process) sends one task per worker thread
    at a time (worker-saturation 1.0) and lets a task see `retries` workers die.

    processes=False (--local): the workers are threads of this process and talk to the
    scheduler in-process (inproc://, no socket); only their HTTP servers listen, on 127.0.0.1. Each task runs its own `rigview check`
    process (which isolates each import in its own worker process), so a worker process per
    thread would add nothing but its start (Python and Dask imported again) and stop: seconds,
    where threads take milliseconds. processes=True: a process per worker, every socket on
    127.0.0.1 (a cluster whose workers can be killed, as the tests do)."""
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.scheduler.allowed-failures": retries,
                          "distributed.scheduler.worker-saturation": 1.0,
                          "distributed.scheduler.http.routes": [],
                          "distributed.worker.http.routes": []}):
        if not processes:
            return LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                                dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0",
                                scheduler_kwargs={"dashboard": False})
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                            dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0",
                            scheduler_kwargs={"dashboard": False})


# The largest and smallest chunk (files per task) by default.
LARGEST_CHUNK = 500
SMALLEST_CHUNK = 8


def chunk_sizes(files, threads, fixed=None):
    """The files of each task, in order, for `files` files on `threads` worker threads: `fixed`
    each when given (--chunk); else guided: each task takes a quarter of a thread's share of the
    files not yet given out (1/(4 x threads) of them), at most LARGEST_CHUNK (a retried task
    repeats little) and at least SMALLEST_CHUNK, so tasks shrink towards the end and every
    thread finishes within a small task of the others."""
    left = files
    while left > 0:
        size = fixed or max(SMALLEST_CHUNK, min(LARGEST_CHUNK, -(-left // (4 * max(1, threads)))))
        size = min(size, left)
        yield size
        left -= size


def run_check(client, rigview, files, out, previous=None, retries=3, strict=False, import_timeout=None,
              log=None, version=None, chunk_size=None, jobs=1, window=None, task=None):
    """Check `files` on `client`'s cluster in chunks (check_chunk: one `rigview check` for many
    files), giving each new line to `out(file, line)` as its chunk finishes; the files of
    `previous` ({file: (stat, counts, rank)}) whose stat the workers find unchanged are not
    checked again. At most `window` chunks are in flight (default: two per worker thread): a
    new one is submitted as one finishes, so the client holds only those. A chunk that fails
    (its worker died `retries` + 1 times, or rigview gave no line for some file) is run again
    one file per task, so a file that kills its worker is found and the others are checked;
    such a file is an importer-crashed line. `version`: the binary's, for the lines written
    here; `task`: what a chunk runs (default check_chunk; bench/batch_client_throughput.py gives
    one that returns canned lines). Returns (summary dict, worst rank, [(file, error)] of files
    that could not be checked)."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    log = log or (lambda message: None)
    previous = previous or {}
    threads = max(1, sum(client.nthreads().values()))
    sizes = chunk_sizes(len(files), threads, chunk_size)
    window = window or 2 * threads
    summary = {k: 0 for k in SUMMARY_KEYS}
    worst = [0]
    failed = []
    kept = [0]
    cwd = os.getcwd()

    def count(counts, rank):
        for k in SUMMARY_KEYS:
            summary[k] += int(counts.get(k, 0))
        worst[0] = max(worst[0], rank)

    def take(path, line, meta=None):
        if meta is None:
            obj = json.loads(line)
            meta = (obj["counts"], line_rank(obj), str(obj["error"]) if "error" in obj else None)
        count(meta[0], meta[1])
        if meta[2] is not None:  # the file could not be read: its one line on stderr, as rigview's
            log(meta[2])
        out(path, line)

    given = [0]  # files given out in chunks so far
    singles = []  # files of failed chunks, one task each
    again = []  # tasks whose result the cluster lost (with the worker that held it): run again
    lost = {}  # first file of a task -> how many times its result was lost
    in_flight = {}
    ac = as_completed()
    submitted = [0]

    def refill():
        while len(in_flight) < window:
            if again:
                paths = again.pop()
            elif singles:
                paths = [singles.pop()]
            else:
                size = next(sizes, None)
                if size is None:
                    return
                paths = files[given[0]:given[0] + size]
                given[0] += size
            items = [(p, previous[p][0] if p in previous else None) for p in paths]
            submitted[0] += 1
            fut = client.submit(task or check_chunk, rigview, items, cwd, strict, import_timeout, jobs, pure=False,
                                key="rigview-check-%d-%s" % (submitted[0], os.urandom(6).hex()))
            in_flight[fut.key] = paths
            ac.add(fut)

    # The scheduler's allowed-failures, for this run: a task may see --retries workers die.
    old_allowed = client.run_on_scheduler(set_allowed_failures, retries)
    try:
        refill()
        for fut in ac:
            paths = in_flight.pop(fut.key)
            results = None
            if fut.status == "finished":
                try:
                    results = fut.result()
                except Exception:  # finished, but the worker holding the result died since
                    results = None
            if results is not None:
                for path, line, error, meta in results:
                    if line is not None:
                        take(path, line, meta)
                    elif error is None:  # unchanged since the earlier run
                        kept[0] += 1
                        count(previous[path][1], previous[path][2])
                    elif len(paths) > 1:
                        singles.append(path)
                    else:
                        failed.append((path, error))
            elif fut.status == "error":
                error = fut.exception()
                if len(paths) > 1:
                    singles.extend(reversed(paths))  # each alone: the file that fails is found
                elif isinstance(error, KilledWorker):
                    last = getattr(error.last_worker, "address", None)
                    take(paths[0], killed_line(paths[0], file_stat(paths[0]), error.allowed_failures + 1,
                                               "last on " + last if last else "", version))
                else:
                    failed.append((paths[0], str(error)))
            else:  # lost (its result died with a worker) or cancelled: its files are checked again
                lost[paths[0]] = lost.get(paths[0], 0) + 1
                if lost[paths[0]] > retries + 1:
                    raise BatchError("the Dask cluster dropped the task of " + paths[0] + " (" + fut.status
                                     + ") " + str(lost[paths[0]]) + " times; --resume OUT.jsonl goes on from the lines written",
                                     EXIT_INTERNAL_ERROR)
                again.append(paths)
            fut.release()
            refill()
    finally:
        try:
            client.run_on_scheduler(set_allowed_failures, old_allowed)
        except Exception:  # the scheduler gone: nothing to restore
            pass
    if previous:
        log("resumed: %d of %d files unchanged since the earlier run, %d checked"
            % (kept[0], len(files), len(files) - kept[0] - len(failed)))
    return summary, worst[0], failed


def summary_line(summary, version=None):
    """The summary line as `rigview check --json-lines` (of `version`) writes it."""
    obj = {"schema": CHECK_SCHEMA, "summary": summary}
    if version:
        obj["rigview_version"] = version
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def exit_code(worst, failed):
    if failed:
        return EXIT_INTERNAL_ERROR
    return {3: EXIT_BAD_INPUT, 2: EXIT_CHECK_FAILED}.get(worst, EXIT_OK)


def compact(path, files, summary, version=None):
    """Rewrite a resumed output as one line per file, in `files`' order (each file's last whole
    line: the earlier one when unchanged, the new one otherwise), and the summary: a temporary
    file, renamed over it. Two passes over the file; only each file's offset is held."""
    wanted = set(files)
    last = {}
    for offset, _, obj in scan_output(path):
        if obj is not None and obj["file"] in wanted:
            last[obj["file"]] = offset
    tmp = path + ".tmp-" + str(os.getpid())
    with open(path, "rb") as src, open(tmp, "wb") as f:
        for p in files:
            if p in last:
                src.seek(last[p])
                f.write(src.readline().rstrip(b"\r\n") + b"\n")
        f.write(summary_line(summary, version).encode() + b"\n")
    os.replace(tmp, path)


def output_is_not_a_file_checked(out_path, files):
    """Refuse an output that is one of the files to check, by rigview's own rule
    (rigview.output_is_not_an_input: device and inode, through links, '..' and hard links;
    each file stat'ed once). Runs on the client only, before anything is written."""
    if not out_path:
        return
    from rigview import _rigview  # the package this module belongs to (the workers never run this)
    try:
        _rigview.output_is_not_an_input(out_path, files)
    except ValueError as e:
        raise BatchError(str(e).removeprefix("rigview: "), EXIT_USAGE)


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
                       help="a local cluster of N worker threads in this process, each task its own rigview "
                            "check (default: one per core)")
    c.add_argument("-o", "--output", metavar="OUT.jsonl", help="write the lines to OUT.jsonl (default, or -: stdout)")
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
    c.add_argument("--chunk", type=int, metavar="N",
                   help="files per task, each task one `rigview check` over its files (default: tasks shrink "
                        "from at most 500 files towards the end, so the workers finish together)")
    c.add_argument("--jobs", type=int, default=1, metavar="K",
                   help="imports at once within a task (rigview check --jobs K; default 1: one per Dask thread)")
    c.add_argument("--strict", action="store_true", help="warnings fail too (rigview check --strict)")
    c.add_argument("--import-timeout", type=float, metavar="SECONDS",
                   help="seconds an import may take before rigview kills its import worker")
    args = parser.parse_args(argv)
    if args.local is not None and args.local < 1:
        parser.error("--local takes a number of workers >= 1")
    if args.retries < 0:
        parser.error("--retries takes N >= 0")
    if args.chunk is not None and args.chunk < 1:
        parser.error("--chunk takes N >= 1")
    if args.jobs < 1:
        parser.error("--jobs takes K >= 1")
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

    def log(message):
        print(PROG + ": " + message, file=sys.stderr)

    rigview = find_rigview(args.rigview)
    version = rigview_version(rigview)
    files = list_files(rigview, args.roots, args.import_timeout)
    out_path = args.resume or (None if args.output == "-" else args.output)
    output_is_not_a_file_checked(out_path, files)
    previous = read_previous(args.resume, log) if args.resume else {}

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

    def out(path, line):
        output.write(line)

    try:
        if not client.nthreads():
            log("waiting for a Dask worker to join " + client.scheduler.address)
        client.wait_for_workers(1)
        if previous:
            log("resuming: %d of %d files have lines from the earlier run; the workers look at which "
                "changed, and those and the rest are the files to check" % (len(previous), len(files)))
        summary, worst, failed = run_check(client, rigview, files, out, previous, args.retries, args.strict,
                                           args.import_timeout, log, version, args.chunk, args.jobs)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if args.resume:
        output.close()
        compact(args.resume, files, summary, version)
    else:
        output.write(summary_line(summary, version))
        output.close()
    for path, error in failed:
        print(PROG + ": " + path + ": could not be checked: " + error, file=sys.stderr)
    return exit_code(worst, failed)


if __name__ == "__main__":
    sys.exit(main())
