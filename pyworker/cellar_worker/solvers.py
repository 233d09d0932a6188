"""Extra solver processes: every core solves.

A solve holds the GIL, so threads would share one core. The main worker process solves one
simulation-queue activity at a time itself and runs ``SIMULATION_CONCURRENCY - 1`` more
processes (``python -m cellar_worker.solvers``), each a Temporal worker on the same queue with
one slot. Temporal hands each its own chunks, so more machines on the queue share the work the
same way. A solver that dies is started again (after 1 s, doubling to 30 s while it keeps
dying); each stops when the main process stops, or dies with it (Linux's parent-death signal).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import sys

log = logging.getLogger("cellar_worker")

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # runs in the child between fork and exec
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


async def _supervise(index: int, stop: asyncio.Event) -> None:
    delay = 1.0
    env = {**os.environ, "CELLAR_SOLVER": str(index)}
    cwd = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    while not stop.is_set():
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cellar_worker.solvers", env=env, cwd=cwd, preexec_fn=_die_with_parent
        )
        waiter = asyncio.ensure_future(proc.wait())
        stopper = asyncio.ensure_future(stop.wait())
        await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)  # it finishes its activity within the grace, as we do
            await waiter
            stopper.cancel()
            return
        stopper.cancel()
        log.warning(
            "solver process exited; starting it again", extra={"solver": index, "code": proc.returncode, "in_s": delay}
        )
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=delay)
        delay = min(delay * 2, 30.0)


async def run_solver_pool(count: int, stop: asyncio.Event) -> None:
    """Runs `count` solver processes until `stop`, then waits for them to finish."""
    await asyncio.gather(*(_supervise(index, stop) for index in range(1, count + 1)))


if __name__ == "__main__":
    from cellar_worker.main import exit_with, main

    exit_with(main(solver=True))
