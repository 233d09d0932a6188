"""The optimizer loop: SciPy on the fitted parameters scaled to [0, 1] across their bounds.

Each fitted parameter is mapped linearly (or log-uniformly with ``"scale": "log"``) from
its bounds onto [0, 1], so one optimizer setting suits parameters of any magnitude. The
methods:

- ``scipy.optimize.minimize`` with ``L-BFGS-B``, ``Nelder-Mead`` (the default), ``Powell``,
  ``TNC`` or ``SLSQP``, bounds [0, 1], ``tol=tolerance``, ``maxiter=max_iterations``
  (gradient methods use SciPy's default finite differences). Nelder-Mead's first simplex
  steps 5 % of each range from the start point (inwards at a bound), rather than SciPy's
  5 % of the start value, which is degenerate at a zero bound;
- ``least_squares`` (``scipy.optimize.least_squares``, trust-region reflective) on the
  residuals, for the RMSE and SSE costs; ``ftol = xtol = gtol = tolerance``;
- ``differential_evolution`` (global, seeded, no polishing), one iteration per generation,
  the start point in its first population.

``max_iterations`` caps optimizer iterations and ``max_evaluations`` (optional) model
solves, for every method. A candidate the model cannot be solved for costs
``FAILED_COST`` (residuals of ``FAILED_RESIDUAL``), so the optimizer steps away from it;
the start point itself must solve (the caller checks it first).

Progress is shared with the activity through :class:`Progress`, and cancellation is
checked before every model solve. The optimizer's trace (the start point, then each iteration's
point and cost) is kept in ``Progress.trace``, thinned to at most ``MAX_TRACE`` entries.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy.optimize

from .spec import FittedParameter, OptimizerSettings

FAILED_COST = 1e6
FAILED_RESIDUAL = 1e3
SIMPLEX_STEP = 0.05
DE_SEED = 0
# Trace entries kept per fit: past this, every other entry is dropped and only every 2nd, 4th, ...
# iteration is recorded, so a long fit's trace stays a bounded, evenly spaced sample.
MAX_TRACE = 200


class FitCancelled(Exception):
    """The caller asked the fit to stop."""


class NoFeasiblePoint(Exception):
    """Every evaluated point failed (only a design optimization may start from an infeasible point)."""


class _Stop(Exception):
    """An iteration or evaluation budget ran out."""


@dataclass
class Progress:
    """What the fit has done so far; read by the heartbeat loop from another thread."""

    iteration: int = 0
    # The fit's iteration budget, so the heartbeat says how far along it is (steps_done/steps_total, as simulations do).
    max_iterations: int = 0
    evaluations: int = 0
    best_cost: float | None = None
    best_parameters: dict[str, float] | None = None
    failed_evaluations: int = 0
    # Which fit of an array fit this is ("joint" or {"index", "key"}) and the results of the
    # fits already finished in this activity; both go into the heartbeat, so that a retried
    # attempt resumes the right fit and skips the finished ones (array_fit.py).
    fit: object = None
    completed: dict | None = None
    # The optimizer's trace: {"iteration", "cost", "best_cost", "inputs" (in [0, 1] across the
    # bounds), "inputs_unscaled"} per recorded iteration; not heartbeated (it only grows the details).
    trace: list = field(default_factory=list)
    _trace_stride: int = 1
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def begin(self, fit, completed: dict | None) -> None:
        """Start counting a new fit of an array fit from zero."""
        with self._lock:
            self.iteration = self.evaluations = self.failed_evaluations = 0
            self.best_cost = self.best_parameters = None
            self.fit, self.completed = fit, completed
            self.trace, self._trace_stride = [], 1

    def log(self, iteration: int, cost: float | None, inputs: dict[str, float], values: dict[str, float]) -> None:
        """Record one point of the trace (thinned to ``MAX_TRACE`` entries)."""
        with self._lock:
            if iteration % self._trace_stride:
                return
            self.trace.append(
                {
                    "iteration": iteration,
                    "cost": cost,
                    "best_cost": self.best_cost,
                    "inputs": dict(inputs),
                    "inputs_unscaled": dict(values),
                }
            )
            if len(self.trace) > MAX_TRACE:
                self._trace_stride *= 2
                self.trace = [entry for entry in self.trace if entry["iteration"] % self._trace_stride == 0]

    def record(self, cost: float, values: dict[str, float]) -> None:
        with self._lock:
            self.evaluations += 1
            if self.best_cost is None or cost < self.best_cost:
                self.best_cost = cost
                self.best_parameters = dict(values)

    def snapshot(self) -> dict:
        """Heartbeat details; also the checkpoint a retried attempt resumes from."""
        with self._lock:
            snapshot = {
                "steps_done": min(self.iteration, self.max_iterations) if self.max_iterations else self.iteration,
                "steps_total": self.max_iterations,
                "iteration": self.iteration,
                "evaluations": self.evaluations,
                "best_cost": self.best_cost,
                "best_parameters": dict(self.best_parameters) if self.best_parameters else None,
            }
            if self.fit is not None:
                snapshot["fit"] = self.fit
            if self.completed is not None:
                snapshot["completed"] = self.completed
            return snapshot


@dataclass
class Outcome:
    best_parameters: dict[str, float]
    best_cost: float
    best_residuals: list[np.ndarray]
    converged: bool
    message: str


class Problem:
    """Cost and residuals of candidate values, counted into ``progress``.

    ``residuals(values)`` returns one residual array per data set (or raises
    ``EvaluationFailed``); ``combine(arrays)`` turns them into the scalar cost; ``stack``
    into one weighted residual vector whose sum of squares least_squares minimizes.
    """

    def __init__(
        self,
        fitted: list[FittedParameter],
        residuals: Callable[[dict[str, float]], list[np.ndarray]],
        combine: Callable[[list[np.ndarray]], float],
        stack: Callable[[list[np.ndarray]], np.ndarray],
        n_residuals: int,
        progress: Progress,
        should_cancel: Callable[[], bool],
        failure_type: type[Exception],
        max_evaluations: int | None,
    ):
        self.fitted = fitted
        self._residuals = residuals
        self._combine = combine
        self._stack = stack
        self.n_residuals = n_residuals
        self.progress = progress
        self.should_cancel = should_cancel
        self.failure_type = failure_type
        self.max_evaluations = max_evaluations
        self.evaluations = 0  # this attempt's
        self.best: tuple[float, dict[str, float], list[np.ndarray]] | None = None
        self._memo: dict[tuple, list[np.ndarray] | None] = {}

    def values(self, x) -> dict[str, float]:
        return {p.name: p.from_unit(xi) for p, xi in zip(self.fitted, np.atleast_1d(x))}

    def unit(self, values: dict[str, float]) -> np.ndarray:
        return np.array([p.to_unit(values[p.name]) for p in self.fitted])

    def _evaluate(self, x) -> list[np.ndarray] | None:
        """Residual arrays at ``x`` (None: the model failed there)."""
        key = tuple(float(v) for v in np.atleast_1d(x))
        if key in self._memo:
            return self._memo[key]
        if self.should_cancel():
            raise FitCancelled()
        if self.max_evaluations is not None and self.evaluations >= self.max_evaluations:
            raise _Stop(f"reached max_evaluations ({self.max_evaluations})")
        values = self.values(x)
        try:
            arrays = self._residuals(values)
        except self.failure_type:
            arrays = None
        self.evaluations += 1
        if arrays is None:
            with self.progress._lock:
                self.progress.failed_evaluations += 1
            self.progress.record(FAILED_COST, values)
        else:
            self.remember(values, arrays)
        # Optimizers re-ask for points they have seen (SciPy evaluates x0 again); keep a few.
        if len(self._memo) > 64:
            self._memo.clear()
        self._memo[key] = arrays
        return arrays

    def remember(self, values: dict[str, float], arrays: list[np.ndarray]) -> None:
        """Count a successful evaluation and keep it if it is the best so far."""
        cost = self._combine(arrays)
        self.progress.record(cost, values)
        if self.best is None or cost < self.best[0]:
            self.best = (cost, dict(values), arrays)
        self._memo[tuple(float(v) for v in self.unit(values))] = arrays

    def known_cost(self, x) -> float | None:
        """The cost at ``x`` if it was evaluated lately (``FAILED_COST`` if the model failed there)."""
        key = tuple(float(v) for v in np.atleast_1d(x))
        if key not in self._memo:
            return None
        arrays = self._memo[key]
        return FAILED_COST if arrays is None else self._combine(arrays)

    def log(self, x, reported=None) -> None:
        """The trace entry of the point ``x`` at the current iteration; ``reported``: the
        optimizer's own scalar cost there, used when ``x`` is no longer remembered."""
        x = np.clip(np.atleast_1d(np.asarray(x, dtype=float)), 0.0, 1.0)
        inputs = {p.name: float(xi) for p, xi in zip(self.fitted, x)}
        cost = self.known_cost(x)
        if cost is None and np.ndim(reported) == 0 and reported is not None:
            cost = float(reported)
        self.progress.log(self.progress.iteration, cost, inputs, self.values(x))

    def cost(self, x) -> float:
        arrays = self._evaluate(x)
        return FAILED_COST if arrays is None else self._combine(arrays)

    def residual_vector(self, x) -> np.ndarray:
        arrays = self._evaluate(x)
        return np.full(self.n_residuals, FAILED_RESIDUAL) if arrays is None else self._stack(arrays)


def minimize(problem: Problem, start: dict[str, float], settings: OptimizerSettings) -> Outcome:
    """Run the optimizer from ``start``; the best evaluated point wins."""
    x0 = np.clip(problem.unit(start), 0.0, 1.0)
    n = len(x0)
    progress = problem.progress
    iterations_left = [settings.max_iterations]

    problem.log(x0)

    def callback(intermediate_result=None):
        with progress._lock:
            progress.iteration += 1
        x = getattr(intermediate_result, "x", None)
        if x is not None:
            # least_squares reports its residual vector as ``fun``: only a scalar is a cost.
            problem.log(x, getattr(intermediate_result, "fun", None))
        iterations_left[0] -= 1
        if iterations_left[0] < 0:
            raise _Stop(f"reached max_iterations ({settings.max_iterations})")

    converged, message = False, ""
    try:
        if settings.method == "least_squares":
            tol = settings.tolerance if settings.tolerance is not None else 1e-8
            result = scipy.optimize.least_squares(
                problem.residual_vector,
                x0,
                bounds=(np.zeros(n), np.ones(n)),
                ftol=tol,
                xtol=tol,
                gtol=tol,
                callback=callback,
            )
        elif settings.method == "differential_evolution":
            result = scipy.optimize.differential_evolution(
                problem.cost,
                [(0.0, 1.0)] * n,
                x0=x0,
                maxiter=settings.max_iterations,
                tol=settings.tolerance if settings.tolerance is not None else 0.01,
                polish=False,
                rng=DE_SEED,
                callback=callback,
            )
        else:
            options: dict = {}
            if settings.method != "TNC":  # TNC has no iteration option: the callback stops it
                options["maxiter"] = settings.max_iterations
            if settings.method == "Nelder-Mead":
                options["initial_simplex"] = _simplex(x0)
            result = scipy.optimize.minimize(
                problem.cost,
                x0,
                method=settings.method,
                bounds=[(0.0, 1.0)] * n,
                tol=settings.tolerance,
                options=options,
                callback=callback,
            )
        converged, message = bool(result.success), str(result.message)
    except _Stop as stop:
        message = str(stop)
    if problem.best is None:
        raise NoFeasiblePoint(message or "no evaluated point could be solved")
    best_cost, best_parameters, best_arrays = problem.best
    return Outcome(best_parameters, best_cost, best_arrays, converged, message)


def _simplex(x0: np.ndarray) -> np.ndarray:
    points = [x0]
    for i in range(len(x0)):
        vertex = x0.copy()
        vertex[i] += SIMPLEX_STEP if x0[i] + SIMPLEX_STEP <= 1.0 else -SIMPLEX_STEP
        points.append(vertex)
    return np.array(points)


def elapsed(started: float) -> float:
    return round(time.monotonic() - started, 6)
