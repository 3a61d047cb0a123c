"""simt: a paper GPU. Run CUDA kernels on numpy arrays and see what a profiler on an H100 would show."""

import os
from typing import Any, Literal, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

Dim = Union[int, Tuple[int], Tuple[int, int], Tuple[int, int, int]]
"""A grid or block size: ``256``, ``(16, 16)`` or ``(8, 8, 4)``."""

Arg = Union[npt.NDArray[Any], Sequence[float], int, float, bool, np.generic, str, None]
"""A kernel argument: a numpy array (its dtype must be the parameter's element type: ``float*``
takes float32), a list of numbers (converted to the parameter's type), a number, ``None``
(NULL), or a launch-section expression such as ``"rand(4096)"``."""

class SimtError(Exception):
    """A kernel or launch simt refused, or one that failed at run time.

    ``str(e)`` is the diagnostic as the command line draws it (miette, no colour)."""

    code: Optional[str]
    """The diagnostic's code, e.g. ``simt::run::out_of_bounds``."""
    message: str
    """The one-line message."""
    file: Optional[str]
    """The file the diagnostic points into (``<string>`` for source text)."""
    line: Optional[int]
    """1-based line of the first label, if it has one."""
    column: Optional[int]
    """1-based column of the first label, if it has one."""
    label: Optional[str]
    """The first label's text."""
    help: Optional[str]
    """How to fix it."""
    exit: int
    """The command line's exit status for it: 1 a run-time failure, 2 anything else."""
    errors: list[dict[str, Any]]
    """Every diagnostic of the failure, as ``simt run --json`` lists them."""

class Result:
    """What :func:`run` returns: arrays after the run, counters, findings and the report.

    The dict-valued properties are the fields of ``simt run --json`` of the same names."""

    def __getitem__(self, name: str) -> npt.NDArray[Any]:
        """Array ``name`` after the run, with its dtype and shape."""
    def __contains__(self, name: str) -> bool: ...
    @property
    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Every array after the run, by name (empty for a sampled run)."""
    @property
    def json(self) -> dict[str, Any]:
        """The whole ``simt run --json`` object."""
    @property
    def kernel(self) -> str: ...
    @property
    def gpu(self) -> str: ...
    @property
    def counters(self) -> dict[str, int]:
        """``blocks``, ``threads``, ``warp_instr``, ``gld_sectors``, ``smem_wavefronts``, ``divergent``, ``race_count``, ..."""
    @property
    def derived(self) -> dict[str, float]:
        """``dram_bytes``, ``bytes_requested_per_byte_moved``, ``simt_efficiency``, ``sectors_per_request``, ..."""
    @property
    def ncu(self) -> dict[str, float]:
        """The counters under Nsight Compute metric names."""
    @property
    def races(self) -> list[dict[str, Any]]: ...
    @property
    def uninit(self) -> list[dict[str, Any]]: ...
    @property
    def hints(self) -> list[dict[str, Any]]: ...
    @property
    def occupancy(self) -> dict[str, Any]: ...
    @property
    def time(self) -> dict[str, Any]:
        """The roofline estimate: ``t`` (seconds), ``t_mem``, ``t_issue``, ``bound``."""
    @property
    def time_refined(self) -> dict[str, Any]: ...
    @property
    def lines(self) -> list[dict[str, Any]]:
        """Per source line that issued: ``line``, ``source`` and its counters."""
    @property
    def barriers(self) -> list[dict[str, Any]]: ...
    @property
    def expects(self) -> list[dict[str, Any]]: ...
    @property
    def ok(self) -> bool:
        """Whether every ``expect`` of the launch section held."""
    @property
    def launch(self) -> dict[str, Any]: ...
    @property
    def sample(self) -> Optional[dict[str, Any]]: ...
    @property
    def printf(self) -> str: ...
    @property
    def report(self) -> str:
        """The text report, as ``simt run`` prints it."""
    def text(self, lines: bool = False) -> str:
        """The text report; with ``lines=True`` the per-line view after it."""
    def html(self, full: bool = False) -> str:
        """The HTML report: a ``<div>``, or with ``full=True`` a whole self-contained page."""
    def save_html(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the HTML report, a whole page, to ``path``."""
    def lane_map(self, line: int) -> dict[str, Any]:
        """Lane → address → sector or lane → word → bank for the memory accesses of ``line``."""
    def _repr_html_(self) -> str: ...

def run(
    source: Union[str, os.PathLike[str]],
    grid: Optional[Dim] = None,
    block: Optional[Dim] = None,
    args: Optional[Mapping[str, Arg]] = None,
    gpu: str = "h100",
    kernel: Optional[str] = None,
    dyn_smem: Optional[int] = None,
    sample: Union[float, Literal["auto"], None] = None,
    threads: Optional[int] = None,
    seed: int = 0,
    regs: int = 32,
    timeout: Optional[float] = None,
    max_steps: Optional[int] = None,
    max_block_steps: Optional[int] = None,
) -> Result:
    """Runs a kernel and returns its arrays, counters and report.

    ``source`` is the kernel's text or a path to a ``.sk``/``.cu`` file; a file's launch
    section supplies what ``args``, ``grid`` and ``block`` leave out. ``gpu`` is a preset name
    (see :func:`gpus`) or a JSON file. ``sample`` simulates a fraction of the blocks and
    extrapolates. ``max_steps`` and ``max_block_steps`` are the command line's ``--max-steps`` and
    ``--max-block-steps`` (catching endless loops). The launch runs without the GIL; Ctrl-C stops
    it with ``KeyboardInterrupt``.
    Raises :class:`SimtError` for a mistake in the kernel or the launch."""

def check(source: Union[str, os.PathLike[str]]) -> dict[str, Any]:
    """Parses and type-checks without running: the kernels and their parameters."""

def occupancy(
    threads: int,
    regs: int = 32,
    smem: int = 0,
    blocks: Optional[int] = None,
    gpu: str = "h100",
    carveout: Optional[int] = None,
    bytes_per_request: Optional[float] = None,
    in_flight: float = 1.0,
) -> dict[str, Any]:
    """NVIDIA's occupancy calculator for one launch shape (``simt occupancy --json``)."""

def gpus() -> list[dict[str, Any]]:
    """The GPU presets and their numbers; each ``preset`` is a ``gpu=`` name."""
