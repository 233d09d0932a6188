"""A parsed protocol's backward jumps (Goto loops) unrolled into the flat list of steps that is simulated."""

from __future__ import annotations

from .errors import configuration_error
from .ucp import PlannedStep, Protocol, Step

DEFAULT_MAX_BACKWARD_JUMPS = 1000
# Expansion guard: each simulated step costs solver time and output rows, so a protocol
# is refused if its loops unroll into more steps than this.
MAX_EXPANDED_STEPS = 50_000


def _outermost_gotos(steps: tuple[Step, ...]) -> set[int]:
    """Gotos whose loop is not enclosed by another loop; their jumps start new cycles."""
    spans = {s.index: (s.goto_step, s.index) for s in steps if s.type == "Goto"}
    return {
        index
        for index, (start, end) in spans.items()
        if not any(
            other != index and other_start <= start and end <= other_end
            for other, (other_start, other_end) in spans.items()
        )
    }


def expand(protocol: Protocol, max_backward_jumps: int = DEFAULT_MAX_BACKWARD_JUMPS) -> list[PlannedStep]:
    """Unroll the Goto loops into the flat list of steps that is simulated.

    A Goto with ``repeat: n`` jumps back ``n`` times, so its loop body runs ``n + 1``
    times; when the loop is left its counter is re-armed, so a nested loop runs again in
    full on each pass of the enclosing one. Every jump counts towards
    ``max_backward_jumps``. ``Cycle count`` grows by one at each jump of an outermost
    loop.
    """
    if isinstance(max_backward_jumps, bool) or not isinstance(max_backward_jumps, int) or max_backward_jumps < 0:
        raise configuration_error("max_backward_jumps: must be an integer >= 0")
    steps = protocol.steps
    outermost = _outermost_gotos(steps)
    remaining: dict[int, int] = {}
    planned: list[PlannedStep] = []
    jumps = 0
    cycle = 0
    position = 0
    while position < len(steps):
        step = steps[position]
        if step.type != "Goto":
            planned.append(PlannedStep(step, cycle))
            if len(planned) > MAX_EXPANDED_STEPS:
                raise configuration_error(f"protocol.steps: the loops unroll into more than {MAX_EXPANDED_STEPS} steps")
            position += 1
            continue
        left = remaining.get(position, step.goto_repeat)
        if left == 0:
            remaining.pop(position, None)
            position += 1
            continue
        remaining[position] = left - 1
        jumps += 1
        if jumps > max_backward_jumps:
            raise configuration_error(
                f"{step.path}: the protocol needs more than max_backward_jumps={max_backward_jumps} "
                "backward jumps in total (nested loops included)"
            )
        if position in outermost:
            cycle += 1
        position = step.goto_step
    return planned
