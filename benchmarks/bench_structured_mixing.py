"""Distributed training of the structured perceptron, as McDonald, Hall & Mann (2010)
compare it: serial, one-shot mixing (Alg. 1) and iterative parameter mixing
(Alg. 2, uniform and error-weighted μ) at S = 1, 2, 4, 8, 16, 32 shards; held-out
F1 against epochs on CoNLL-2000 chunking and CoNLL-2002 Spanish NER.

    python benchmarks/bench_structured_mixing.py              # both corpora, the figure
    python benchmarks/bench_structured_mixing.py --quick      # CoNLL-2000, S <= 8

Each point is a fit of ``max_iter = e`` epochs (a run stops early only after an
epoch without a mistake, and the sentence orders are drawn from one seed, so the
fit of ``e`` epochs is the first ``e`` epochs of a longer one). Sentences are dealt
to the shards at random (``shard_rows="random"``); every fit runs on threads of
this process. The figure goes to ``docs/images/structured_mixing.png``.
"""

import argparse
import pathlib
import sys
import time
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rosenblatt.datasets import load_conll  # noqa: E402
from rosenblatt.distributed import ParameterMixing  # noqa: E402
from rosenblatt.structured import SentenceFeatures, SequencePerceptron, chunk_scores  # noqa: E402

SEQUENCES = ROOT.parent / "shared" / "data" / "sequences"
CORPORA = {
    "CoNLL-2000 chunking": ("conll2000-train.txt", "conll2000-test.txt"),
    "CoNLL-2002 Spanish NER": ("conll2002_esp-train.txt", "conll2002_esp-testb.txt"),
}
STRATEGIES = {
    "iterative, uniform μ": dict(strategy="iterative", mixing="uniform"),
    "iterative, error-weighted μ": dict(strategy="iterative", mixing="errors"),
    "one-shot": dict(strategy="one_shot", mixing="uniform"),
}


def f1_of(model, X, lengths, labels, predict):
    predicted = np.split(predict(X, lengths), np.cumsum(lengths)[:-1])
    return 100 * chunk_scores(labels, [list(p) for p in predicted])["micro avg"]["f1"]


def curves(name, shard_counts, epochs):
    train, test = CORPORA[name]
    sentences, labels = load_conll(SEQUENCES / train)
    test_sentences, test_labels = load_conll(SEQUENCES / test)
    features = SentenceFeatures()
    X, lengths = features.fit_transform(sentences)
    X_test, test_lengths = features.transform(test_sentences)
    y = np.concatenate(labels)
    results = {"serial": []}
    for e in range(1, epochs + 1):
        model = SequencePerceptron(max_iter=e, random_state=0).fit(X, y, lengths)
        results["serial"].append(f1_of(model, X_test, test_lengths, test_labels,
                                       model.predict))
    for S in shard_counts:
        for strategy, settings in STRATEGIES.items():
            started, row = time.perf_counter(), []
            for e in range(1, epochs + 1):
                model = ParameterMixing(SequencePerceptron(max_iter=e, random_state=0),
                                        n_shards=S, client="threads", **settings)
                model.fit(X, y, lengths=lengths)
                row.append(f1_of(model, X_test, test_lengths, test_labels,
                                 lambda X, L: model.predict(X, lengths=L)))
            results[(S, strategy)] = row
            print(f"  S={S:2d} {strategy:28s} F1 by epoch: "
                  + " ".join(f"{v:.2f}" for v in row)
                  + f"   ({time.perf_counter() - started:.0f} s)", flush=True)
    return results


def report(name, results, shard_counts, epochs):
    serial = results["serial"]
    print(f"\n## {name}: F1 after {epochs} epochs (serial {serial[-1]:.2f})")
    print("| S | " + " | ".join(STRATEGIES) + " |")
    print("|---|" + "---|" * len(STRATEGIES))
    for S in shard_counts:
        cells = [f"{results[(S, s)][-1]:.2f} ({results[(S, s)][-1] - serial[-1]:+.2f})"
                 for s in STRATEGIES]
        print(f"| {S} | " + " | ".join(cells) + " |")


def figure(all_results, shard_counts, epochs, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(all_results), len(STRATEGIES), figsize=(13, 4 * len(all_results)),
                             squeeze=False, sharey="row")
    colours = plt.cm.viridis(np.linspace(0, 0.9, len(shard_counts)))
    x = np.arange(1, epochs + 1)
    for row, (name, results) in enumerate(all_results.items()):
        for col, strategy in enumerate(STRATEGIES):
            ax = axes[row, col]
            ax.plot(x, results["serial"], color="black", lw=2, label="serial")
            for S, colour in zip(shard_counts, colours):
                ax.plot(x, results[(S, strategy)], color=colour, label=f"S = {S}")
            ax.set_title(f"{name}\n{strategy}", fontsize=10)
            ax.set_xlabel("epochs")
            ax.grid(alpha=0.3)
        axes[row, 0].set_ylabel("held-out F1")
    axes[0, -1].legend(loc="center left", bbox_to_anchor=(1.02, 0.5), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=90, bbox_inches="tight")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args(argv)
    if not SEQUENCES.exists():
        sys.exit(f"no corpora in {SEQUENCES}: nothing to measure")
    warnings.simplefilter("ignore")
    names = ["CoNLL-2000 chunking"] if args.quick else list(CORPORA)
    shard_counts = [1, 2, 4, 8] if args.quick else [1, 2, 4, 8, 16, 32]
    all_results = {}
    for name in names:
        print(f"# {name}", flush=True)
        all_results[name] = curves(name, shard_counts, args.epochs)
    for name, results in all_results.items():
        report(name, results, shard_counts, args.epochs)
    path = ROOT / "docs" / "images" / "structured_mixing.png"
    figure(all_results, shard_counts, args.epochs, path)
    print(f"\nfigure: {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
