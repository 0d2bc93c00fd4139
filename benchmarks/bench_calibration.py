"""Calibration of ``tcsexam stats`` on SIMULATED cohorts: a study that could fail.

Run with ``make bench-calibration`` (about 5 minutes on two idle cores; 10 on a busy
machine). Every cohort below
is SIMULATED from the seeded model described here; none is a TCSExam result. Each
cohort goes through the kit's own :func:`tcsexam_lib.stats.analyse_cohort` (what
``tcsexam stats`` writes), and the claims it makes are checked against the truth the
simulation knows. Printed per scenario, with their goals (PASS or MISS) and the Monte
Carlo standard error of each figure (``± se``):

- coverage of the index interval per model class (weak, middling, strong) and pooled,
  and of each track's interval per model class;
- the rank claims: the share of cohorts whose simultaneous rank intervals all hold,
  whose leader group holds the true leader, and the coverage of the marginal rank
  intervals;
- the share of cohorts whose leader group or tie groups contradict a Holm-significant
  pair (the property the definitions guarantee; goal 0);
- under the nulls: the paired test's type-I error per pair (and, for information, that
  of the uncorrected Welch t-test), Holm's family-wise error per cohort, and the rank
  claims again (every model ties, so any separation is false).

The simulation (model ability ``a``; tasks drawn anew for every cohort, so the truth is
the expectation over the task pool, computed by Gauss–Hermite quadrature):

- theorem: each attempt accepted with probability ``expit(a + b_i + u_mi)``,
  ``b_i ~ N(0, 2^2)`` (task-specific pass rates, U-shaped), ``u_mi ~ N(0, 0.5^2)``;
- conjecture: the same with ``b_i ~ N(-2, 2^2)`` (open problems, rarely solved);
- solver (zero-inflated): an attempt scores 0 with probability ``expit(-1 - a + g_i)``
  (``g_i ~ N(0, 1.2^2)``), else ``expit(0.5 a + b_i + u_mi + e_mij)``,
  ``b_i ~ N(0.2, 0.7^2)``, ``u ~ N(0, 0.3^2)``, ``e ~ N(0, 0.4^2)``;
- construction (heavy-tailed with zeros): 0 with probability
  ``expit(-1.5 - 0.7 a + h_i)`` (``h_i ~ N(0, 1.2^2)``), else the log-normal reward
  ``exp(0.3 a + b_i + u_mi + e_mij)``, ``b_i ~ N(-0.2, 0.6^2)``, ``u ~ N(0, 0.2^2)``,
  ``e ~ N(0, 0.3^2)``.

Scenarios, each at 5, 8 and 20 tasks a track and 1 and 3 attempts a task, 1,000
cohorts each (seed 20261202):

- ``classes``: 6 models, two per class: weak (a = -2.5, -1.5), middling (-0.3, 0.3),
  strong (1.5, 2.5);
- ``identical``: 4 models of ability 0.3 (exchangeable: every pair is null);
- ``shapes``: 4 models with equal expected indexes, two as above and two whose
  construction rewards never fail and are light-tailed (log-normal around the same
  task difficulty, scaled to the same mean): every pair is null, but the shapes differ;
- ``shapes-harsh`` (20 tasks a track only): the same with strong models (a = 1.5) and
  light-tailed rewards that ignore the task's difficulty (nearly constant), so the
  paired differences carry all of the heavy tail and the zeros.
"""

from __future__ import annotations

import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
from scipy.special import expit
from scipy.stats import t as scipy_t

from tcsexam_lib.formulas import WEIGHT_VECTOR
from tcsexam_lib.stats import analyse_cohort
from tcsexam_lib.vocab import TRACKS

SEED = 20261202
LEVEL = 0.95
COHORTS = int(os.environ.get("TCSEXAM_CALIBRATION_COHORTS", "1000"))  # fewer: a quick look only
TASKS = (5, 8, 20)
ATTEMPTS = (1, 3)
CLASSES = {"weak": (-2.5, -1.5), "middling": (-0.3, 0.3), "strong": (1.5, 2.5)}
NULL_ABILITY = 0.3
#: Light-tailed construction of the shapes scenario: log-normal spread of the task
#: effect and of an attempt (no zeros).
LIGHT_TASK_SCALE, LIGHT_NOISE = 0.5, 0.1
#: The harsher shapes: strong models, and light-tailed rewards that do not follow the task's
#: difficulty at all (nearly constant), so the paired differences carry all the skew.
SHAPES_HARSH_ABILITY = 1.5
WEIGHTS = np.asarray(WEIGHT_VECTOR, dtype=float)

GOALS = {
    "index_pooled": (0.935, 0.965),
    "index_class": 0.92,
    "track_class": 0.92,
    "type_i_20": 0.06,
    "fwer": 0.05,
    "contradictions": 0.0,
    "rank_joint": 0.95,
    "leader": 0.95,
    "rank_marginal": 0.95,
}

#: The simulation's parameters per track (see the module docstring).
THEOREM = {"mu": 0.0, "sd": 2.0, "sd_inter": 0.5}
CONJECTURE = {"mu": -2.0, "sd": 2.0, "sd_inter": 0.5}
SOLVER = {
    "zero": -1.0,
    "zero_slope": 1.0,
    "zero_sd": 1.2,
    "slope": 0.5,
    "mu": 0.2,
    "sd": 0.7,
    "sd_inter": 0.3,
    "sd_attempt": 0.4,
}
CONSTRUCTION = {
    "zero": -1.5,
    "zero_slope": 0.7,
    "zero_sd": 1.2,
    "slope": 0.3,
    "mu": -0.2,
    "sd": 0.6,
    "sd_inter": 0.2,
    "sd_attempt": 0.3,
}
_NODES, _NODE_WEIGHTS = np.polynomial.hermite_e.hermegauss(120)
_NODE_WEIGHTS = _NODE_WEIGHTS / _NODE_WEIGHTS.sum()


def _expected_expit(centre: float, spread: float) -> float:
    return float(expit(centre + spread * _NODES) @ _NODE_WEIGHTS)


def true_track_means(ability: float) -> np.ndarray:
    """The expected track means (P, S, C, O) of a model over the task pool and attempts."""
    theorem = _expected_expit(ability + THEOREM["mu"], math.hypot(THEOREM["sd"], 0.5))
    conjecture = _expected_expit(ability + CONJECTURE["mu"], math.hypot(CONJECTURE["sd"], 0.5))
    s, c = SOLVER, CONSTRUCTION
    solver_zero = _expected_expit(s["zero"] - s["zero_slope"] * ability, s["zero_sd"])
    solver_spread = math.sqrt(s["sd"] ** 2 + s["sd_inter"] ** 2 + s["sd_attempt"] ** 2)
    solver = (1 - solver_zero) * _expected_expit(s["slope"] * ability + s["mu"], solver_spread)
    construction_zero = _expected_expit(c["zero"] - c["zero_slope"] * ability, c["zero_sd"])
    log_variance = c["sd"] ** 2 + c["sd_inter"] ** 2 + c["sd_attempt"] ** 2
    reward = math.exp(c["slope"] * ability + c["mu"] + log_variance / 2)
    return np.array([theorem, solver, (1 - construction_zero) * reward, conjecture])


def simulate(
    rng: np.random.Generator,
    abilities: np.ndarray,
    n: int,
    k: int,
    light: np.ndarray,
    task_scale: float = LIGHT_TASK_SCALE,
) -> list[np.ndarray]:
    """SIMULATED task means of one cohort: per track an array ``(models, n)``.

    Models flagged in ``light`` get light-tailed construction rewards without zeros,
    with the same expected reward as the others of their ability.
    """
    m = len(abilities)
    a = abilities[:, None]
    out = []
    for track in TRACKS:
        if track in ("theorem", "conjecture"):
            p = THEOREM if track == "theorem" else CONJECTURE
            b = rng.normal(p["mu"], p["sd"], n)
            logit = a + b + rng.normal(0.0, p["sd_inter"], (m, n))
            scores = rng.random((m, n, k)) < expit(logit)[..., None]
            out.append(scores.mean(axis=-1))
            continue
        p = SOLVER if track == "solver" else CONSTRUCTION
        b = rng.normal(p["mu"], p["sd"], n)
        task_zero = rng.normal(0.0, p["zero_sd"], n)
        zero = rng.random((m, n, k)) < expit(p["zero"] - p["zero_slope"] * a + task_zero)[..., None]
        linear = (p["slope"] * a + b + rng.normal(0.0, p["sd_inter"], (m, n)))[..., None]
        linear = linear + rng.normal(0.0, p["sd_attempt"], (m, n, k))
        value = expit(linear) if track == "solver" else np.exp(linear)
        scores = np.where(zero, 0.0, value)
        if track == "construction" and light.any():
            noise = rng.normal(0.0, LIGHT_NOISE, (m, n, k))
            raw = np.exp((task_scale * (b - p["mu"]))[None, :, None] + noise)
            mean_raw = math.exp((task_scale * p["sd"]) ** 2 / 2 + LIGHT_NOISE**2 / 2)
            target = np.array([true_track_means(x)[2] for x in abilities])[:, None, None]
            scores = np.where(light[:, None, None], target * raw / mean_raw, scores)
        out.append(scores.mean(axis=-1))
    return out


@dataclass(frozen=True)
class Scenario:
    name: str
    n: int
    k: int
    abilities: tuple[float, ...]
    light: tuple[bool, ...]
    classes: tuple[str, ...]

    @property
    def null(self) -> bool:
        return self.name != "classes"


def scenarios() -> list[Scenario]:
    out = []
    class_abilities = tuple(a for pair in CLASSES.values() for a in pair)
    class_names = tuple(name for name, pair in CLASSES.items() for _ in pair)
    for n in TASKS:
        for k in ATTEMPTS:
            out.append(Scenario("classes", n, k, class_abilities, (False,) * 6, class_names))
            out.append(Scenario("identical", n, k, (NULL_ABILITY,) * 4, (False,) * 4, ()))
            shapes_light = (False, False, True, True)
            out.append(Scenario("shapes", n, k, (NULL_ABILITY,) * 4, shapes_light, ()))
            if n == max(TASKS):  # the harsher shapes, where the goal on type-I error is set
                ability = (SHAPES_HARSH_ABILITY,) * 4
                out.append(Scenario("shapes-harsh", n, k, ability, shapes_light, ()))
    return out


def run_scenario(scenario: Scenario, seed: int) -> dict[str, np.ndarray]:
    """Per cohort: hits and errors of every claim (arrays over cohorts)."""
    rng = np.random.default_rng(seed)
    abilities = np.array(scenario.abilities)
    light = np.array(scenario.light)
    truth = np.array([true_track_means(a) for a in abilities])
    true_index = truth @ WEIGHTS
    true_rank = np.array([1 + np.sum(true_index > x) for x in true_index])
    leader = int(np.argmax(true_index))
    rows: dict[str, list] = {key: [] for key in _KEYS}
    for _ in range(COHORTS):
        scale = 0.0 if scenario.name == "shapes-harsh" else LIGHT_TASK_SCALE
        values = simulate(rng, abilities, scenario.n, scenario.k, light, scale)
        out = analyse_cohort(values, level=LEVEL)
        low, high = out.index_ci
        rows["index"].append((low <= true_index) & (true_index <= high))
        track_low, track_high = out.tracks.clipped()
        rows["tracks"].append((track_low <= truth) & (truth <= track_high))
        rank_low = np.array([r[0] for r in out.rank_ci])
        rank_high = np.array([r[1] for r in out.rank_ci])
        rows["rank_joint"].append(np.all((rank_low <= true_rank) & (true_rank <= rank_high)))
        marginal_low = np.array([r[0] for r in out.rank_ci_marginal])
        marginal_high = np.array([r[1] for r in out.rank_ci_marginal])
        rows["rank_marginal"].append((marginal_low <= true_rank) & (true_rank <= marginal_high))
        rows["leader"].append(leader in out.leader_group)
        rows["contradiction"].append(_contradicts(out))
        rows["rejected"].append(out.pairs.p_value <= 1 - LEVEL)
        if scenario.null:
            rows["rejected_plain"].append(_plain_welch_p(values, out) <= 1 - LEVEL)
        rows["familywise"].append(bool(np.any(out.pairs.p_holm <= 1 - LEVEL)))
    return {key: np.array(value) for key, value in rows.items()}


_KEYS = (
    "index",
    "tracks",
    "rank_joint",
    "rank_marginal",
    "leader",
    "contradiction",
    "rejected",
    "rejected_plain",
    "familywise",
)


def _plain_welch_p(values: list[np.ndarray], out) -> np.ndarray:
    """The same pairs' p-values from the uncorrected Welch-Satterthwaite t-test (df n_t - 1,
    no skewness term): what the kit's corrections are measured against."""
    a, b = out.pairs.first, out.pairs.second
    terms, denominator = 0.0, 0.0
    for w, v in zip(WEIGHTS, values, strict=True):
        d = v[a] - v[b]
        n = d.shape[-1]
        term = w * w * d.var(axis=-1, ddof=1) / n
        terms = terms + term
        denominator = denominator + term * term / (n - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = out.pairs.delta / np.sqrt(terms)
        df = terms * terms / denominator
    p = 2 * scipy_t.sf(np.abs(t), np.where(terms > 0, df, 1.0))
    return np.where(terms > 0, p, np.where(out.pairs.delta == 0, 1.0, 0.0))


def _contradicts(out) -> bool:
    """Does a group claim contradict a Holm-significant pair (a ahead of b)?"""
    significant = {
        (int(a), int(b))
        for a, b, s in zip(out.pairs.first, out.pairs.second, out.pairs.significant, strict=True)
        if s
    }
    for group in out.tie_groups:
        members = set(group)
        if any(a in members and b in members for a, b in significant):
            return True
    leaders = set(out.leader_group)
    return any(b in leaders for _, b in significant)


def _rate(hits: np.ndarray) -> tuple[float, float]:
    """Mean over cohorts and its Monte Carlo standard error (cohorts are independent)."""
    per_cohort = hits.reshape(len(hits), -1).mean(axis=1)
    return float(per_cohort.mean()), float(per_cohort.std(ddof=1) / math.sqrt(len(hits)))


def _show(value: tuple[float, float], ok: bool | None = None) -> str:
    verdict = "" if ok is None else (" PASS" if ok else " MISS")
    return f"{value[0]:6.1%} ± {value[1]:.1%}{verdict}"


def report(scenario: Scenario, result: dict[str, np.ndarray], misses: list[str]) -> None:
    label = f"{scenario.name}, {scenario.n} tasks a track, {scenario.k} attempt(s)"
    print(f"\n{label} ({COHORTS} SIMULATED cohorts of {len(scenario.abilities)} models)")

    def check(name: str, value: tuple[float, float], ok: bool) -> str:
        if not ok:
            misses.append(f"{label}: {name} {value[0]:.1%}")
        return _show(value, ok)

    contradiction = _rate(result["contradiction"])
    shown = check("contradictions", contradiction, contradiction[0] == 0)
    print(f"  groups contradicting a test: {shown}")
    if scenario.null:
        type_i = _rate(result["rejected"])
        goal = GOALS["type_i_20"] if scenario.n == 20 else None
        shown = _show(type_i) if goal is None else check("type-I", type_i, type_i[0] <= goal)
        fwer = _rate(result["familywise"])
        print(
            f"  type-I error per pair {shown}"
            f"{'' if goal else ' (goal at 20 tasks only)'}; family-wise error after Holm "
            f"{check('family-wise', fwer, fwer[0] <= GOALS['fwer'])}"
        )
        plain = _rate(result["rejected_plain"])
        print(f"  (for information: the uncorrected Welch t-test would reject {_show(plain)})")
        joint = _rate(result["rank_joint"])
        marginal = _rate(result["rank_marginal"])
        joint_text = check("rank_ci joint", joint, joint[0] >= GOALS["rank_joint"])
        marginal_text = check("marginal", marginal, marginal[0] >= GOALS["rank_marginal"])
        print(
            f"  rank claims (all models tie: any separation is false): every rank_ci holds "
            f"{joint_text}; rank_ci_marginal per model {marginal_text}"
        )
        return
    low, high = GOALS["index_pooled"]
    pooled = _rate(result["index"])
    print(f"  index interval, pooled: {check('index pooled', pooled, low <= pooled[0] <= high)}")
    names = np.array(scenario.classes)
    for name in CLASSES:
        mask = names == name
        index = _rate(result["index"][:, mask])
        cells = [f"index {check(f'index {name}', index, index[0] >= GOALS['index_class'])}"]
        for t, track in enumerate(TRACKS):
            rate = _rate(result["tracks"][:, mask, t])
            cells.append(
                f"{track} {check(f'{track} {name}', rate, rate[0] >= GOALS['track_class'])}"
            )
        print(f"  {name:>8}: " + "; ".join(cells))
    joint, leader = _rate(result["rank_joint"]), _rate(result["leader"])
    marginal = _rate(result["rank_marginal"])
    joint_text = check("rank_ci joint", joint, joint[0] >= GOALS["rank_joint"])
    leader_text = check("leader", leader, leader[0] >= GOALS["leader"])
    marginal_text = check("marginal", marginal, marginal[0] >= GOALS["rank_marginal"])
    print(
        f"  rank claims: every rank_ci holds {joint_text}; leader_group holds the leader "
        f"{leader_text}; rank_ci_marginal per model {marginal_text}"
    )


def _run(args: tuple[Scenario, int]) -> tuple[Scenario, dict[str, np.ndarray]]:
    scenario, seed = args
    return scenario, run_scenario(scenario, seed)


def main() -> int:
    start = time.perf_counter()
    print(
        f"Calibration of tcsexam stats on SIMULATED cohorts (not TCSExam results); seed {SEED}, "
        f"level {LEVEL:.0%}"
    )
    truths = {name: [true_track_means(a) @ WEIGHTS for a in pair] for name, pair in CLASSES.items()}
    print(
        "true indexes: "
        + "; ".join(f"{name} {', '.join(f'{x:.1f}' for x in v)}" for name, v in truths.items())
    )
    plan = scenarios()
    seeds = np.random.SeedSequence(SEED).generate_state(len(plan)).tolist()
    workers = min(2, os.cpu_count() or 1)
    misses: list[str] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for scenario, result in pool.map(_run, zip(plan, seeds, strict=True)):
            report(scenario, result, misses)
    print(f"\n{len(misses)} figure(s) outside their goals" + (":" if misses else ""))
    for miss in misses:
        print(f"  MISS {miss}")
    print(f"({time.perf_counter() - start:.0f} s on {workers} worker(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
