"""From a text file to a trained model (issue 33): rosenblatt in memory, in blocks
and on the command line, against Vowpal Wabbit and scikit-learn, by CPU time.

    pip install -e ".[bench]"
    python benchmarks/bench_file_to_model.py --data /tmp/f2m/click1m      # 1M rows, 5 rounds
    python benchmarks/bench_file_to_model.py --streaming-only --rows 10000000 \\
        --data /tmp/f2m/click10m --compare /tmp/f2m/click1m                  # 10M in blocks
    python benchmarks/bench_file_to_model.py --choose-r --data /tmp/f2m/click1m  # AROW's r

The data is the click log of ``benchmarks/click_log.py`` (seed 0): ``--rows`` rows,
about 40 Zipf-popular draws of 2**20 hashed binary features a row (duplicates
dropped), a dense Gaussian target, 8 % of the labels flipped; 80 % to train, 20 %
to test, as LIBSVM and as VW text. It is written into ``--data`` when missing
(``--streaming-only`` writes the LIBSVM files only, in blocks of rows, so that 10M
rows fit in memory: the same distribution and the same kind of target, other rows).

Every contender reads the training file itself and makes one pass over it in file
order; each round times every contender once, one after the other (interleaved),
and each ratio is taken against Vowpal Wabbit *in the same round*; the table gives
the median and [min-max] over the rounds. The test accuracy of each model on the
held-out file is computed outside the timing.

- **vw hinge**: ``vowpalwabbit.Workspace("-d train.vw -b 20 --loss_function hinge -f
  model --quiet")`` and ``run_parser()`` through pyvw, VW's own driver in this
  process (its parser thread included in the CPU time); VW's default update.
- **load_libsvm + AP** / **load_vw + AP**: the whole file read into memory, then
  ``AveragedPerceptron(max_iter=1, shuffle="none").fit``.
- **blocks one pass** / **blocks two passes**: ``ChunkedFile(train.svm, 100_000,
  n_features=2**20, one_pass=...)`` and ``rosenblatt.streaming.fit_chunks`` (what
  ``rosenblatt train --chunk-size`` runs); with ``one_pass=False`` opening the file
  makes a pass of its own before the epoch (the path before issue 33's change).
- **blocks ..., VW file**: the same from ``train.vw`` (its features hashed).
- **... AROW**: ``AROW(max_iter=1, shuffle="none")`` instead (the user guide's "start
  with" learner; its covariance is diagonal at 2**20 features), and with ``r=30``,
  the ``r`` that ``--choose-r`` picks on the training file's last fifth held out.
- **cli whole** / **cli blocks**: ``python -m rosenblatt train train.svm --model
  averaged --n-features 1048576 --set shuffle=none`` with ``--set max_iter=1`` (in
  memory) or ``--chunk-size 100000 --epochs 1``, as a child process: its CPU time
  (user + system, from ``os.wait4``) includes the interpreter's start and the
  imports, reported alone as **cli --help** (``rosenblatt train --help``).
- **sklearn**: ``load_svmlight_file`` then ``SGDClassifier(loss="hinge", max_iter=1,
  tol=None, shuffle=False)``.

CPU time is ``time.process_time()`` (every thread of this process) or a child's
``ru_utime + ru_stime``. Peak memory is a child's ``ru_maxrss`` (from ``os.wait4``,
that child's alone): the command line's, and the block path's in a child that runs
``ChunkedFile`` + ``fit_chunks`` after the imports (``--streaming-only``).
"""

import argparse
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
warnings.simplefilter("ignore")

from bench_ab import cpu_model  # the CPU line every benchmark prints
from click_log import click_files

WIDTH = 2**20
CHUNK = 100_000


def write_large_click_log(folder, n_rows, n_test=200_000, block=250_000, hash_bits=20,
                          per_row=40, zipf=1.1, noise=0.08, seed=0):
    """LIBSVM ``train.svm`` (``n_rows``) and ``test.svm`` (``n_test``) of the click log's
    distribution, drawn ``block`` rows at a time (``make_click_log`` holds every draw
    in memory: 10M rows would take 6 GB). The popularity, its spread over the columns
    and the target weights are drawn first, then the rows."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    n_features = 2 ** hash_bits
    popularity = np.arange(1, n_features + 1, dtype=np.float64) ** -zipf
    cdf = np.cumsum(popularity / popularity.sum())
    spread = rng.permutation(n_features)
    weights = rng.standard_normal(n_features)
    for part, total in (("train", n_rows), ("test", n_test)):
        with open(folder / f"{part}.svm", "w") as svm:
            for start in range(0, total, block):
                n = min(block, total - start)
                draws = spread[np.minimum(np.searchsorted(cdf, rng.random((n, per_row))),
                                          n_features - 1)]
                draws.sort(axis=1)
                keep = np.ones_like(draws, dtype=bool)
                keep[:, 1:] = draws[:, 1:] != draws[:, :-1]
                scores = np.where(keep, weights[draws], 0.0).sum(axis=1)
                labels = np.where(scores > 0, 1, -1)
                labels[rng.random(n) < noise] *= -1
                svm.write("".join(
                    f"{labels[i]} " + " ".join(f"{j + 1}:1" for j in draws[i][keep[i]].tolist())
                    + "\n" for i in range(n)))
    return {name: folder / name for name in ("train.svm", "test.svm")}


def spread(values, fmt="{:.2f}"):
    return (f"{fmt.format(statistics.median(values))} "
            f"[{fmt.format(min(values))}-{fmt.format(max(values))}]")


def run_child(command):
    """Run ``command``; ``(CPU seconds, peak RSS in MB, stdout)`` of that child alone.

    The CPU time is the child's (``os.wait4`` on it: ``RUSAGE_CHILDREN`` would add
    every child so far). The peak RSS is GNU time's ``%M`` of it: a process started
    from this one (fork, vfork or posix_spawn alike) begins with this process's
    high-water mark on Linux, so ``ru_maxrss`` would report this process's size;
    ``/usr/bin/time`` is small, and starts the command itself."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as peak:
        process = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", peak.name,
                                    *map(str, command)], stdout=out, stderr=err,
                                   env={**os.environ, "PYTHONPATH": str(ROOT)})
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = status  # reaped here: Popen must not wait for it again
        out.seek(0)
        err.seek(0)
        if status:
            raise SystemExit(f"{' '.join(map(str, command))} failed:\n{err.read().decode()}")
        kilobytes = float(peak.read().split()[-1])
        return usage.ru_utime + usage.ru_stime, kilobytes / 1024, out.read().decode()


def accuracy(model, files):
    from rosenblatt.datasets import load_libsvm

    X, y = load_libsvm(files["test.svm"], n_features=WIDTH)
    return float(np.mean(model.predict(X) == y))


def averaged():
    from rosenblatt import AveragedPerceptron

    return AveragedPerceptron(max_iter=1, shuffle="none", random_state=0)


def arow(r=1.0):
    """The user guide's "start with" learner (its covariance diagonal at 2**20)."""
    from rosenblatt import AROW

    return AROW(max_iter=1, shuffle="none", random_state=0, r=r)


#: AROW's r for the click log, as ``--choose-r`` picks it on the training file's last
#: fifth (rows of ~32 ones: x'Σx starts at ~32, so r=1 shrinks Σ too fast)
CHOSEN_R = 30.0


def choose_r(args):
    """AROW's ``r`` chosen without the test file: trained on the first 80 % of the
    training file, scored on the rest; then trained on all of it with the best ``r``
    and scored on the test file."""
    from rosenblatt.datasets import load_vw

    files = click_files(args.rows, args.data)
    X, y = load_vw(files["train.vw"], n_features=WIDTH)
    X_test, y_test = load_vw(files["test.vw"], n_features=WIDTH)
    cut = int(0.8 * X.shape[0])
    scores = {r: arow(r).fit(X[:cut], y[:cut]).score(X[cut:], y[cut:])
              for r in (1.0, 3.0, 10.0, 30.0, 100.0)}
    for r, score in scores.items():
        print(f"AROW r={r:<6g} validation accuracy {score:.4f}")
    best = max(scores, key=scores.get)
    print(f"chosen r={best:g}: test accuracy {arow(best).fit(X, y).score(X_test, y_test):.4f}"
          f" (the bench's CHOSEN_R = {CHOSEN_R:g})")


def run_vw(files, work):
    import vowpalwabbit

    model = work / "vw.model"
    start = time.process_time()
    trainer = vowpalwabbit.Workspace(f"-d {files['train.vw']} -b 20 --loss_function hinge "
                                     f"-f {model} --quiet")
    trainer.run_parser()
    trainer.finish()
    seconds = time.process_time() - start
    predictions = work / "vw.pred"
    tester = vowpalwabbit.Workspace(f"-t -i {model} -d {files['test.vw']} -p {predictions} "
                                    "--quiet")
    tester.run_parser()
    tester.finish()
    scores = np.loadtxt(predictions, usecols=0)
    from rosenblatt.datasets import load_libsvm

    _, y = load_libsvm(files["test.svm"], n_features=WIDTH)
    return seconds, float(np.mean(np.where(scores > 0, 1, -1) == y))


def run_load_libsvm(files, work, learner=averaged):
    from rosenblatt.datasets import load_libsvm

    start = time.process_time()
    X, y = load_libsvm(files["train.svm"], n_features=WIDTH)
    model = learner().fit(X, y)
    return time.process_time() - start, accuracy(model, files)


def run_load_vw(files, work):
    from rosenblatt.datasets import load_vw

    start = time.process_time()
    X, y = load_vw(files["train.vw"], hash_bits=20)
    model = averaged().fit(X, y)
    return time.process_time() - start, accuracy(model, files)


def run_blocks(files, work, one_pass=True, learner=averaged, source="train.svm"):
    from rosenblatt.datasets import ChunkedFile
    from rosenblatt.streaming import fit_chunks

    start = time.process_time()
    chunks = ChunkedFile(files[source], CHUNK, n_features=WIDTH, one_pass=one_pass)
    model = fit_chunks(learner(), chunks)
    return time.process_time() - start, accuracy(model, files)


def cli_command(files, work, blocks):
    return [sys.executable, "-m", "rosenblatt", "train", str(files["train.svm"]), "--model",
            "averaged", "--n-features", str(WIDTH), "--set", "shuffle=none", "--set",
            "random_state=0", "-o", str(work / "cli.npz"), "--quiet",
            *(["--chunk-size", str(CHUNK), "--epochs", "1"] if blocks else
              ["--set", "max_iter=1"])]


def run_cli(files, work, blocks):
    from rosenblatt.io import load

    seconds, peak, _ = run_child(cli_command(files, work, blocks))
    return seconds, accuracy(load(work / "cli.npz"), files), peak


def run_help(files, work):
    seconds, peak, _ = run_child([sys.executable, "-m", "rosenblatt", "train", "--help"])
    return seconds, None, peak


BLOCK_CHILD = """
import resource, sys, time, warnings
warnings.simplefilter("ignore")
from rosenblatt import AveragedPerceptron
from rosenblatt.datasets import ChunkedFile
from rosenblatt.streaming import fit_chunks
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.process_time()
chunks = ChunkedFile(sys.argv[1], int(sys.argv[2]), n_features=2**20, one_pass=True)
model = fit_chunks(AveragedPerceptron(max_iter=1, shuffle="none", random_state=0), chunks)
seconds = time.process_time() - start
print(seconds, chunks.n_rows, base / 1024)
"""


def run_sklearn(files, work):
    from sklearn.datasets import load_svmlight_file
    from sklearn.linear_model import SGDClassifier

    def read(path):  # SGDClassifier takes int32 indices only; the loader gives int64
        X, y = load_svmlight_file(str(path), n_features=WIDTH)
        X.indices, X.indptr = X.indices.astype(np.int32), X.indptr.astype(np.int32)
        return X, y

    start = time.process_time()
    X, y = read(files["train.svm"])
    model = SGDClassifier(loss="hinge", max_iter=1, tol=None, shuffle=False,
                          random_state=0).fit(X, y)
    seconds = time.process_time() - start
    X_test, y_test = read(files["test.svm"])
    return seconds, float(np.mean(model.predict(X_test) == y_test))


CONTENDERS = {
    "vw hinge (pyvw, -b 20)": run_vw,
    "load_libsvm + AP": run_load_libsvm,
    "load_vw + AP": run_load_vw,
    "blocks one pass (fit_chunks)": run_blocks,
    "blocks two passes": lambda files, work: run_blocks(files, work, one_pass=False),
    "blocks one pass, VW file": lambda files, work: run_blocks(files, work, source="train.vw"),
    "blocks two passes, VW file": lambda files, work: run_blocks(files, work, one_pass=False,
                                                                 source="train.vw"),
    "load_libsvm + AROW": lambda files, work: run_load_libsvm(files, work, arow),
    "blocks one pass AROW": lambda files, work: run_blocks(files, work, learner=arow),
    f"blocks one pass AROW r={CHOSEN_R:g}": lambda files, work: run_blocks(
        files, work, learner=lambda: arow(CHOSEN_R)),
    f"blocks one pass AROW r={CHOSEN_R:g}, VW file": lambda files, work: run_blocks(
        files, work, learner=lambda: arow(CHOSEN_R), source="train.vw"),
    "cli whole (train --set max_iter=1)": lambda files, work: run_cli(files, work, False),
    "cli blocks (--chunk-size 100000)": lambda files, work: run_cli(files, work, True),
    "cli --help (import floor)": run_help,
    "sklearn load_svmlight_file + SGD": run_sklearn,
}


def full(args):
    files = click_files(args.rows, args.data)
    size = files["train.svm"].stat().st_size / 1e6
    n_train = args.rows - int(round(args.rows * 0.2))
    names = [name for name in CONTENDERS if not (args.skip_sklearn and "sklearn" in name)]
    times = {name: [] for name in names}
    quality, peaks = {}, {name: [] for name in names}
    with tempfile.TemporaryDirectory() as folder:
        work = pathlib.Path(folder)
        # warm the numba caches (a first run compiles) and the page cache
        for warm in (run_blocks, run_load_libsvm, run_load_vw, run_vw, CONTENDERS[
                "blocks one pass, VW file"], CONTENDERS["blocks one pass AROW"]):
            warm(files, work)
        run_cli(files, work, True)
        for round_ in range(args.rounds):
            for name in names:
                result = CONTENDERS[name](files, work)
                times[name].append(result[0])
                quality[name] = result[1]
                if len(result) > 2:
                    peaks[name].append(result[2])
                print(f"round {round_ + 1}  {name:36s} {result[0]:7.2f} s CPU", flush=True)
    vw = times[names[0]]
    print(f"\nclick log {args.rows:,} rows ({n_train:,} to train: {size:.0f} MB LIBSVM, "
          f"{files['train.vw'].stat().st_size / 1e6:.0f} MB VW), {args.rounds} rounds; "
          f"{cpu_model()}, {os.cpu_count()} CPUs; Python {platform.python_version()}")
    print(f"{'contender':36s} {'CPU s':>20s} {'x VW':>18s} {'MB/s':>7s} {'rows/s':>10s} "
          f"{'test acc':>8s} {'peak RSS MB':>11s}")
    for name in names:
        seconds = times[name]
        ratios = [s / v for s, v in zip(seconds, vw)]
        median = statistics.median(seconds)
        acc = quality[name]
        peak = f"{statistics.median(peaks[name]):.0f}" if peaks[name] else ""
        print(f"{name:36s} {spread(seconds):>20s} {spread(ratios):>18s} {size / median:7.1f} "
              f"{n_train / median:10,.0f} {'' if acc is None else f'{acc:.4f}':>8s} {peak:>11s}")


def streaming(args):
    """The block path only, on ``--data`` (and ``--compare``, a smaller set) in
    interleaved rounds: CPU, MB/s and rows/s, and the peak RSS of a child process
    against the same child's RSS after the imports."""
    sets = [pathlib.Path(args.data)] + ([pathlib.Path(args.compare)] if args.compare else [])
    for folder in sets:
        if not (folder / "train.svm").exists():
            write_large_click_log(folder, args.rows)
    results = {folder: {"cpu": [], "child": [], "peak": [], "base": [], "rows": None}
               for folder in sets}
    with tempfile.TemporaryDirectory() as scratch:
        script = pathlib.Path(scratch) / "blocks.py"
        script.write_text(BLOCK_CHILD)
        for round_ in range(args.rounds):
            for folder in sets:
                files = {"train.svm": folder / "train.svm", "test.svm": folder / "test.svm"}
                seconds, acc = run_blocks(files, pathlib.Path(scratch))
                results[folder]["cpu"].append(seconds)
                results[folder]["acc"] = acc
                total, peak, out = run_child([sys.executable, str(script),
                                              str(files["train.svm"]), str(CHUNK)])
                inside, rows, base = out.split()
                results[folder]["child"].append(float(inside))
                results[folder]["peak"].append(peak)
                results[folder]["base"].append(float(base))
                results[folder]["rows"] = int(rows)
                print(f"round {round_ + 1}  {folder.name:12s} in-process {seconds:6.2f} s, "
                      f"child {float(inside):6.2f} s (process {total:.2f} s), peak RSS "
                      f"{peak:.0f} MB (after imports {float(base):.0f} MB)", flush=True)
    print(f"\nblocks of {CHUNK:,} rows, ChunkedFile(one_pass=True) + fit_chunks("
          f"AveragedPerceptron(max_iter=1, shuffle='none')), {args.rounds} rounds; "
          f"{cpu_model()}, {os.cpu_count()} CPUs")
    print(f"{'data':14s} {'rows':>12s} {'MB':>7s} {'CPU s':>20s} {'MB/s':>7s} {'rows/s':>11s} "
          f"{'test acc':>8s} {'peak RSS MB':>18s} {'after imports':>13s}")
    rates = {}
    for folder in sets:
        r = results[folder]
        size = (folder / "train.svm").stat().st_size / 1e6
        median = statistics.median(r["cpu"])
        rates[folder] = [size / s for s in r["cpu"]]
        print(f"{folder.name:14s} {r['rows']:12,d} {size:7.0f} {spread(r['cpu']):>20s} "
              f"{size / median:7.1f} {r['rows'] / median:11,.0f} {r['acc']:8.4f} "
              f"{spread(r['peak'], '{:.0f}'):>18s} {statistics.median(r['base']):13.0f}")
    if args.compare:
        big, small = rates[sets[0]], rates[sets[1]]
        print(f"MB/s of {sets[0].name} over {sets[1].name}, per round: "
              f"{spread([b / s for b, s in zip(big, small)])}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--data", default=None, help="folder of the click log files "
                                                       "(written when missing)")
    parser.add_argument("--streaming-only", action="store_true",
                        help="the block path only (for 10,000,000 rows): rate and peak RSS")
    parser.add_argument("--compare", default=None,
                        help="with --streaming-only: a second (smaller) set, interleaved")
    parser.add_argument("--skip-sklearn", action="store_true")
    parser.add_argument("--choose-r", action="store_true",
                        help="only choose AROW's r on a fifth of the training file held out")
    args = parser.parse_args()
    args.data = args.data or f"/tmp/click_log_{args.rows}"
    if args.choose_r:
        choose_r(args)
    elif args.streaming_only:
        streaming(args)
    else:
        full(args)


if __name__ == "__main__":
    main()
