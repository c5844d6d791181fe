"""Training on more than one machine: iterative parameter mixing on Dask, or threads.

Importing this module does not import Dask; a Dask client is only used when one is
passed or active. Install the extra with ``pip install "rosenblatt[dask]"``.
"""

from ._mixing import ParameterMixing

__all__ = ["ParameterMixing"]
