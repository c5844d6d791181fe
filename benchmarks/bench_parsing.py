"""The dependency parser on Universal Dependencies: UD English EWT and Portuguese Bosque.

    python benchmarks/bench_parsing.py                     # every section, ~30 minutes
    python benchmarks/bench_parsing.py --sections ewt      # one or more of: ewt bosque mixing

Trains :class:`~rosenblatt.structured.DependencyParser` with its defaults (only the
decoder changed, and ``random_state=0``) on the train file with the file's gold
tags (UPOS, XPOS, LEMMA, FEATS: the setting of UDPipe 1's "gold tags" line, UAS
88.1 / LAS 86.2 on EWT test), and scores the test file as the CoNLL 2018 shared
task does with gold tokenisation: every word, punctuation included; LAS on the
universal relation. Training and parsing are timed as CPU time of the call
alone (the files read beforehand; the decoders compiled by a warm-up on a few
sentences first, as a model in service would be).

- ``ewt``: first-order projective (Eisner), first-order non-projective
  (Chu-Liu-Edmonds), second-order (siblings, projective) and grandparent
  (siblings and grandchildren, projective) on EWT.
- ``bosque``: non-projective against projective decoding on Bosque (8.7 % of its
  training trees are non-projective).
- ``mixing``: iterative parameter mixing on 4 shards against the serial fit at
  equal epochs, and one-shot mixing (each shard trained alone, averaged once).

The treebanks are read from ``../shared/data/treebanks`` (see its README).
"""

import argparse
import os
import pathlib
import sys
import time
import warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_ab import cpu_model  # the CPU line every benchmark prints

from rosenblatt.datasets import load_conllu
from rosenblatt.distributed import ParameterMixing
from rosenblatt.structured import DependencyParser, attachment_scores

TREEBANKS = ROOT.parent / "shared" / "data" / "treebanks"


def read(name):
    return (load_conllu(TREEBANKS / f"{name}-ud-train.conllu.gz"),
            load_conllu(TREEBANKS / f"{name}-ud-test.conllu.gz"))


def warm_up(train, **params):
    """Compile the kernels (numba caches them on disk; the first run pays once)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        DependencyParser(max_iter=1, **params).fit(train[:20]).predict(train[:5])


def run(train, test, **params):
    """Fit and parse; ``(train CPU s, parse CPU s, scores, model)``."""
    warm_up(train, **{k: v for k, v in params.items() if k == "decoder"})
    parser = DependencyParser(random_state=0, **params)
    start = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser.fit(train)
    trained = time.process_time()
    parsed = parser.predict(test)
    done = time.process_time()
    return trained - start, done - trained, attachment_scores(test, parsed), parser


def row(name, train_s, parse_s, scores):
    print(f"| {name} | {100 * scores['uas']:.2f} | {100 * scores['las']:.2f} | "
          f"{train_s:.1f} | {parse_s:.2f} |", flush=True)


HEADER = ("| model | UAS | LAS | train CPU s | parse CPU s |\n"
          "|---|---|---|---|---|")


def ewt(decoders):
    train, test = read("en_ewt")
    print(f"\n### UD English EWT: train {len(train):,} sentences, test {len(test):,} "
          f"({sum(map(len, test)):,} words), gold tags\n\n{HEADER}")
    for decoder in decoders:
        train_s, parse_s, scores, _ = run(train, test, decoder=decoder)
        row(decoder, train_s, parse_s, scores)


def bosque(decoders):
    train, test = read("pt_bosque")
    print(f"\n### UD Portuguese Bosque: train {len(train):,} sentences, test {len(test):,} "
          f"({sum(map(len, test)):,} words), gold tags\n\n{HEADER}")
    for decoder in [d for d in decoders if d not in ("second-order", "grandparent")]:
        train_s, parse_s, scores, _ = run(train, test, decoder=decoder)
        row(decoder, train_s, parse_s, scores)


def mixing(decoders):
    train, test = read("en_ewt")
    print("\n### Parameter mixing on EWT, 4 shards (sentences dealt at random), threads\n\n"
          "| training | UAS | LAS | train CPU s | wall s |\n|---|---|---|---|---|")
    serial_cpu, _, scores, serial = run(train, test)
    print(f"| serial, {serial.n_iter_} epochs | {100 * scores['uas']:.2f} | "
          f"{100 * scores['las']:.2f} | {serial_cpu:.1f} | |", flush=True)
    for strategy in ("iterative", "one_shot"):
        model = ParameterMixing(DependencyParser(random_state=0), n_shards=4,
                                strategy=strategy)
        start, wall = time.process_time(), time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(train)
        cpu_s, wall_s = time.process_time() - start, time.perf_counter() - wall
        scores = attachment_scores(test, model.estimator_.predict(test))
        print(f"| {strategy} mixing, 4 shards, {model.estimator_.n_iter_} epochs | "
              f"{100 * scores['uas']:.2f} | {100 * scores['las']:.2f} | {cpu_s:.1f} | "
              f"{wall_s:.1f} |", flush=True)


SECTIONS = {"ewt": ewt, "bosque": bosque, "mixing": mixing}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sections", nargs="+", choices=sorted(SECTIONS),
                        default=list(SECTIONS))
    parser.add_argument("--decoders", nargs="+", default=["eisner", "chu-liu-edmonds",
                                                            "second-order", "grandparent"],
                        help="the decoders of the ewt and bosque sections (bosque: the "
                             "first-order ones)")
    args = parser.parse_args()
    print(f"# {cpu_model()}, {os.cpu_count()} cores; CPU time (process_time), "
          f"DependencyParser defaults: {DependencyParser().get_params()}")
    for name in args.sections:
        SECTIONS[name](args.decoders)


if __name__ == "__main__":
    main()
