# The pages' doctests are tests; what the docs build generates, and its configuration, are not.
collect_ignore_glob = ["_build/*", "generated/*", "auto_examples/*", "conf.py",
                       "gallery_order.py"]
