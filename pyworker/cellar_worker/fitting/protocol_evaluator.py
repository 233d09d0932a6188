"""Predictions driven by a UCP protocol, through the simulation package's job checks and
solver, interpolated onto the measured times."""

from __future__ import annotations

import dataclasses

import numpy as np
import pybamm

from ..simulation import solving
from ..simulation.errors import SimulationError, solver_error
from ..simulation.job import prepare_request
from .data import Dataset
from .evaluator import INITIAL_SOC, EvaluationCancelled, EvaluationFailed, Evaluator, classify_failure


class ProtocolEvaluator(Evaluator):
    """Simulates a UCP protocol through the simulation package's job checks and solver."""

    def __init__(self, spec: dict, dataset: Dataset, protocol, fixed: dict, fitted_initial: dict[str, float], ignored):
        self.spec = spec
        self.dataset = dataset
        self.protocol = protocol
        self.ignored_parameters = list(ignored)
        self.fixed = dict(fixed)
        self.fitted_names = list(fitted_initial)
        self.soc_fitted = INITIAL_SOC in fitted_initial
        self.job = self._job(fitted_initial)
        self.baked_fitted = [name for name in self.fitted_names if name in self.job.baked]
        # Computed once unless the initial SOC is itself fitted (see the module docstring).
        state = solving.state_inputs(self.job)
        self._fixed_state = state
        self._main: tuple[str, pybamm.Simulation] | None = self._take(self.job, state)

    def _job(self, values: dict[str, float]):
        job = prepare_request(
            {
                "simulation_id": "fit",
                "model": self.spec,
                "protocol": self.protocol,
                "inputs": {**self.fixed, **values},
                "output_prefix": "fits/unused/",
            }
        )
        # The solver keeps only the variables the job reads (voltage and current): the
        # target must be one of them.
        target = self.dataset.target_name
        return job if target in job.output_variables else dataclasses.replace(job, extra_variables=[target])

    def _take(self, job, state: dict[str, float]) -> tuple[str, pybamm.Simulation]:
        inputs = {**job.input_parameters, **job.protocol_inputs, **state}
        key = job.cache_key()
        simulation, _ = solving.CACHE.take(key, lambda: solving.build_simulation(job, tighten=False, inputs=inputs))
        return key, simulation

    def close(self) -> None:
        main, self._main = self._main, None
        if main is not None:
            solving.give_back(*main)

    def predict(self, values: dict[str, float], should_cancel=None) -> np.ndarray:
        try:
            job = self._job(values) if self.baked_fitted or self.soc_fitted else self.job
            state = solving.state_inputs(job) if self.soc_fitted else self._fixed_state
            inputs = {
                **job.input_parameters,
                **{name: values[name] for name in self.fitted_names if name in job.input_parameters},
                **job.protocol_inputs,
                **state,
            }
            if self.baked_fitted:
                key, simulation = self._take(job, state)
                try:
                    solution = solving.solve_built(job, simulation, inputs, None, should_cancel)
                finally:
                    solving.give_back(key, simulation)
            else:
                solution = solving.solve_built(job, self._main[1], inputs, None, should_cancel)
            times = np.asarray(solution["Time [s]"].entries).ravel()
            self.simulated_until = float(times[-1])
            predicted = np.interp(
                self.dataset.time,
                times,
                np.asarray(solution[self.dataset.target_name].entries).ravel(),
            )
        except solving.SimulationCancelled:
            raise EvaluationCancelled() from None
        except solving.SolverFailure as failure:
            raise EvaluationFailed(
                solver_error(f"{solving.where_in_protocol(failure.step)}: the solver failed: {failure.detail}")
            ) from None
        except SimulationError as error:
            raise EvaluationFailed(error) from None
        except Exception as error:  # noqa: BLE001
            raise EvaluationFailed(classify_failure(error)) from None
        if not np.all(np.isfinite(predicted)):
            raise EvaluationFailed(solver_error("the solver failed: the model output is not finite"))
        return predicted
