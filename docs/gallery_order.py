"""The gallery's order: the executed ``plot_*`` pages by name (the five texts, then
sequence tagging), then the scripts shown without running (MNIST, the Dask cluster)."""


class TextsFirst:
    def __init__(self, src_dir):
        self.src_dir = src_dir

    def __call__(self, filename):
        return (not filename.startswith("plot_"), filename)
