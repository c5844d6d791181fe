"""Reading LIBSVM: ``load_libsvm`` (compiled) against scikit-learn's ``load_svmlight_file``,
and the whole ``rosenblatt train`` path on a click log, before and after.

    PYTHONPATH=. python benchmarks/click_log.py --rows 1000000 --out /tmp/click1m
    git archive <commit before the compiled reader> | tar -x -C /tmp/before
    PYTHONPATH=. python benchmarks/bench_read.py --click /tmp/click1m/train.svm \\
        --before /tmp/before

MB/s are file megabytes (10**6 bytes) per CPU second of the process; the readers
alternate in every round (the machine is shared) and the table gives the median
[min-max] over the rounds. The train path is timed as the CPU time (user + system)
of a ``python -m rosenblatt train`` child process, the old and the new package
alternating.
"""

import argparse
import os
import pathlib
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from bench_ab import cpu_model  # the CPU line every benchmark prints

from sklearn.datasets import load_svmlight_file

ROOT = pathlib.Path(__file__).resolve().parents[1]
A9A = ROOT.parent / "shared" / "data" / "a9a"



def spread(values, fmt="{:.1f}"):
    return (f"{fmt.format(statistics.median(values))} "
            f"[{fmt.format(min(values))}-{fmt.format(max(values))}]")


def cpu_of(function):
    start = time.process_time()
    function()
    return time.process_time() - start


def reading(path, rounds):
    """MB/s of both readers on ``path``, interleaved rounds."""
    from rosenblatt.datasets import load_libsvm

    load_libsvm(path)  # compile (or load the cached kernel) outside the rounds
    megabytes = path.stat().st_size / 1e6
    ours, theirs = [], []
    for _ in range(rounds):
        ours.append(megabytes / cpu_of(lambda: load_libsvm(path)))
        theirs.append(megabytes / cpu_of(lambda: load_svmlight_file(str(path))))
    ratios = [a / b for a, b in zip(ours, theirs)]
    print(f"{path.name:12s} {megabytes:8.1f} MB  load_libsvm {spread(ours)} MB/s  "
          f"load_svmlight_file {spread(theirs)} MB/s  ratio {spread(ratios, '{:.2f}')}x",
          flush=True)


def train_cpu(package, path, out):
    """CPU seconds (user + system) of one ``rosenblatt train`` child on ``path``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # run from the package's folder: ``-m`` puts the working directory first on sys.path
    done = subprocess.run([sys.executable, "-m", "rosenblatt", "train", str(path), "--model",
                           "ftrl", "--hash-bits", "20", "--set", "max_iter=1", "--set",
                           "shuffle=none", "-o", str(out)], cwd=package, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(package)})
    if done.returncode:
        sys.exit(f"rosenblatt train failed with {package}:\n{done.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def training(path, before, rounds):
    out = pathlib.Path(tempfile.mkdtemp()) / "m.npz"
    before = before.resolve()
    train_cpu(ROOT, path, out)  # warm the numba caches of both packages first
    train_cpu(before, path, out)
    new, old = [], []
    for _ in range(rounds):
        old.append(train_cpu(before, path, out))
        new.append(train_cpu(ROOT, path, out))
    print(f"rosenblatt train {path.name} --model ftrl --hash-bits 20 max_iter=1: CPU s "
          f"before {spread(old, '{:.2f}')}  after {spread(new, '{:.2f}')}  "
          f"after/before {spread([a / b for a, b in zip(new, old)], '{:.2f}')}", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a9a", type=pathlib.Path, default=A9A)
    parser.add_argument("--click", type=pathlib.Path, default=pathlib.Path(
        "/tmp/click1m/train.svm"))
    parser.add_argument("--rounds", type=int, default=7, help="rounds on a9a")
    parser.add_argument("--click-rounds", type=int, default=3)
    parser.add_argument("--before", type=pathlib.Path, default=None,
                        help="a copy of the package before the compiled reader, for the "
                             "train path (skipped without it)")
    parser.add_argument("--skip-reading", action="store_true",
                        help="time only the train path")
    args = parser.parse_args(argv)
    print(f"{cpu_model()}, {os.cpu_count()} CPUs; Python {platform.python_version()}")
    if not args.skip_reading:
        reading(args.a9a, args.rounds)
    if args.click.exists():
        if not args.skip_reading:
            reading(args.click, args.click_rounds)
        if args.before is not None:
            training(args.click, args.before, args.click_rounds)
    else:
        print(f"{args.click}: missing; make it with benchmarks/click_log.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
