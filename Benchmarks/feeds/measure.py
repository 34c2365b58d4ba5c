"""One measured run for the feed benchmarks: wall, peak RSS and CPU, checked for its exit and its line count."""
import os, subprocess, sys, tempfile, time


def measured(command, env=None, expect_lines=None):
    """(wall seconds, peak RSS MiB, CPU seconds: user + system, from wait4's rusage) of one run of `command`; exits
    the benchmark when it fails or writes other than `expect_lines` lines."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        process = subprocess.Popen(command, env={**os.environ, **(env or {})}, stdout=out, stderr=subprocess.PIPE)
        stderr = process.stderr.read().decode(errors="replace")
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            sys.exit(f"{command[0]} exited {code}: {stderr[-2000:]}")
        if expect_lines is not None:
            out.seek(0)
            lines = sum(chunk.count(b"\n") for chunk in iter(lambda: out.read(1 << 20), b""))
            if lines != expect_lines:
                sys.exit(f"{command[0]} wrote {lines} lines, expected {expect_lines}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime
