"""The rules of a run-set parameter file (``reports/params.py``): each rule's two halves agree.

Hypothesis draws parameter files (keys, typos among them; paths to files, folders and
nothing; output folders inside, above and beside the inputs; cohorts with model ids and
protocols): where a rule's fast test holds its explanation finds nothing, and a file a
rule list refuses is explained.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from conftest import assert_rules_agree
from hypothesis import given
from hypothesis import strategies as st

from tcsexam_lib.reports.params import (
    COHORT_MATCH_RULES,
    KEY_RULES,
    OUTPUT_APART_RULES,
    OUTPUT_FOLDER_RULES,
    PATH_RULES,
    ParamsInput,
)
from tcsexam_lib.scoring.cohort import Cohort, ModelPlan

ROOT = Path(tempfile.mkdtemp(prefix="params-rules-")).resolve()
(ROOT / "records").mkdir()
(ROOT / "refs").mkdir()
(ROOT / "cohort.json").write_text("{}", encoding="utf-8")
(ROOT / "attempts.csv").write_text("", encoding="utf-8")
(ROOT / "out" / "lite-offline").mkdir(parents=True)
SOURCE = ROOT / "params.yaml"

PLACES = [
    "cohort.json",
    "attempts.csv",
    "records",
    "refs",
    "nowhere",
    "out",
    "out/lite-offline/x",
    "out/index.html",
    "records/out",
    ".",
]


@given(
    keys=st.lists(st.sampled_from(["suite", "protocol", "protocl", "outptu", "x"]), unique=True),
)
def test_the_keys_rule_explains_exactly_what_it_refuses(keys):
    data = {"suite": "lite", **{key: "v" for key in keys}}
    assert_rules_agree(KEY_RULES, ParamsInput(SOURCE, data))


@given(
    places=st.fixed_dictionaries(
        {key: st.sampled_from(PLACES) for key in ("cohort", "attempts", "records")},
        optional={"references_dir": st.sampled_from(PLACES), "output": st.sampled_from(PLACES)},
    ),
    override=st.sampled_from([None, "out", "attempts.csv", "records/out"]),
)
def test_the_path_and_output_rules_explain_exactly_what_they_refuse(places, override):
    data = {"suite": "lite", "protocol": "offline", **places}
    output = None if override is None else ROOT / override
    params = ParamsInput(SOURCE, data, output)
    for rules in (PATH_RULES, OUTPUT_FOLDER_RULES, OUTPUT_APART_RULES):
        assert_rules_agree(rules, params)


@given(
    models=st.lists(
        st.sampled_from(["m", "a/b", ".hidden", "c\\d", "ok-2"]), unique=True, min_size=1
    ),  # fmt: skip
    protocol=st.sampled_from(["online", "offline"]),
)
def test_the_cohort_rules_explain_exactly_what_they_refuse(models, protocol):
    cohort = Cohort("lite", protocol, "r", {model: ModelPlan(1) for model in models})
    data = {"suite": "lite", "protocol": "offline", "cohort": "cohort.json"}
    assert_rules_agree(COHORT_MATCH_RULES, ParamsInput(SOURCE, data, cohort=cohort))
