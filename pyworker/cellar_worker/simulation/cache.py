"""Per-process cache of built simulations.

Building a PyBaMM simulation (parameter processing, meshing, discretisation, solver set-up)
costs far more than solving a small model, so a built simulation is kept and re-solved
for every design point that only changes input-parameter values. A built simulation is
not safe to solve from two threads at once, so each key holds a small pool of idle
instances: a job takes one out (a hit) or builds a new one (a miss), and gives it back
when done. The least recently used keys are dropped beyond ``max_entries`` instances.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from .. import settings

T = TypeVar("T")

DEFAULT_MAX_ENTRIES = settings.DEFAULT_CACHE_SIZE


class BuiltSimulationCache(Generic[T]):
    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES):
        self.max_entries = max_entries
        self._idle: OrderedDict[str, list[T]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: str, build: Callable[[], T]) -> tuple[T, bool]:
        """An idle instance for ``key`` (hit) or a freshly built one (miss)."""
        with self._lock:
            idle = self._idle.get(key)
            if idle:
                self._idle.move_to_end(key)
                return idle.pop(), True
        return build(), False

    def give_back(self, key: str, instance: T) -> None:
        """Return an instance after a successful solve so the next job can reuse it."""
        with self._lock:
            self._idle.setdefault(key, []).append(instance)
            self._idle.move_to_end(key)
            while sum(len(pool) for pool in self._idle.values()) > self.max_entries:
                oldest_key, oldest = next(iter(self._idle.items()))
                oldest.pop(0)
                if not oldest:
                    del self._idle[oldest_key]


def cache_size_from_env() -> int:
    """The simulation cache's size: SIMULATION_CACHE_SIZE (see ``cellar_worker.settings``)."""
    return settings.current().simulation_cache_size
