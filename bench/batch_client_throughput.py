"""How many files a second the rigview.batch client (python/rigview/batch.py's run_check) takes
in when the workers cost nothing: a LocalCluster of 2 worker processes whose tasks return canned
lines (no rigview runs), N made-up file names, the lines written to /dev/null. What it measures
is the client's side of a cluster run (and, in a LocalCluster, the scheduler's, which runs in
the client's process) (submitting chunks through the bounded window, receiving
and parsing each line, summing the summary, writing), so it says how many machines' worth of
small files one client can keep up with. docs/python.md has the figures.

    PYTHONPATH=build/python python3 bench/batch_client_throughput.py [FILES] [CHUNK]
"""
import os
import sys
import time

from distributed import Client

from rigview import batch

LINE = ('{"file":"%s","findings":[{"code":"loop-seam","count":1,"examples":[],"message":"a seam",'
        '"names":["walk"],"severity":"info","subject":"clip 0","value":0.5}],"passed":true,'
        '"rigview_version":"bench","schema":"rigview.check/1","worst":"info"}')


def canned_chunk(rigview, items, cwd, strict=False, import_timeout=None, jobs=1):
    """check_chunk's answer for `items`, made up: each file passed with one info finding."""
    counts = dict.fromkeys(batch.SUMMARY_KEYS, 0)
    counts.update(files=1, passed=1, infos=1)
    stat = {"size": 1234, "mtime_ns": 1700000000000000000}
    return [(path, batch.add_keys(LINE % path, stat, counts), None, (counts, 0, None)) for path, _ in items]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
    chunk = int(sys.argv[2]) if len(sys.argv) > 2 else None
    files = ["/library/characters/set%03d/character_%07d.fbx" % (i // 1000, i) for i in range(n)]
    cluster = batch.local_cluster(2, processes=True)  # the workers' CPU apart from the client's
    client = Client(cluster)
    try:
        client.wait_for_workers(2)
        with open(os.devnull, "w") as sink:
            start, cpu = time.perf_counter(), time.process_time()
            summary, worst, failed = batch.run_check(client, "rigview", files, lambda p, line: sink.write(line + "\n"),
                                                     chunk_size=chunk, task=canned_chunk)
            took, cpu = time.perf_counter() - start, time.process_time() - cpu
    finally:
        client.close()
        cluster.close()
    assert summary["files"] == n and not failed, (summary, failed)
    tasks = sum(1 for _ in batch.chunk_sizes(n, 2, chunk))
    used = chunk or batch.LARGEST_CHUNK
    # Wall time includes waiting for the 2 canned workers; the client's own CPU time (this
    # process: the scheduler of a LocalCluster runs here too) is what bounds the client.
    print("%d files in %.2f s wall: %.0f files/s with 2 canned workers (chunks of at most %d, %d tasks); "
          "client and scheduler CPU %.2f s: %.0f files/s, %.2f ms a task"
          % (n, took, n / took, used, tasks, cpu, n / cpu, 1e3 * cpu / tasks))


if __name__ == "__main__":
    main()
