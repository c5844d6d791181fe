"""The gallery's order: the executed ``plot_*`` pages by name (the five texts), then the
structured pages (sequence tagging, then dependency parsing), then the scripts shown
without running (MNIST, the Dask cluster)."""

#: the pages that are not a text's, in the order they come after the texts
STRUCTURED = ("plot_sequence_tagging.py", "plot_dependency_parsing.py",
              "plot_eisner_chart.py")


class TextsFirst:
    def __init__(self, src_dir):
        self.src_dir = src_dir

    def __call__(self, filename):
        later = STRUCTURED.index(filename) + 1 if filename in STRUCTURED else 0
        return (not filename.startswith("plot_"), later, filename)
