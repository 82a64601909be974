"""`python3 -m rigview ARGS...` (and the `rigview` command a pip install puts on PATH): the
package's own rigview binary, rigview/bin/rigview, run with ARGS."""
import os
import sys


def main():
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "rigview")
    try:
        os.execv(exe, [exe] + sys.argv[1:])
    except OSError as e:
        print("rigview: cannot run " + exe + ": " + e.strerror, file=sys.stderr)
        return 7


if __name__ == "__main__":
    sys.exit(main())
