"""benchmarks.ants_phases: its instrumented copy of the step loop plays the kernel's game
(it raises otherwise) and shares out the whole step."""
import pytest

from benchmarks.ants_phases import PHASES, profile


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_phase_profile_matches_the_kernel(policy):
    rows, ants = profile(policy, batch=4, steps=3, warmup=2, repeats=1)
    assert ants > 0
    assert all(rows[name] >= 0 for name in PHASES)
    assert sum(rows[name] for name in PHASES) == pytest.approx(rows["instrumented"])
