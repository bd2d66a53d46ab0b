# papers: the two commands a fresh machine needs are `make run` and `make test`.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LIBRARY := data/library
SEEDS := data/iclr2026-optimization-theory-digest.txt data/iclr2026-abstracts.txt

.PHONY: run test test-fast soak lint bench eval bundle clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	$(BIN)/python -m compileall -q src  # bytecode even where PYTHONDONTWRITEBYTECODE is set
	@touch $(STAMP)

## run: create the venv, install, and search the bundled library for "muon"
run: $(STAMP)
	$(BIN)/papers --library $(LIBRARY) search muon

## test: the whole suite on every core (slow end-to-end checks included), then ruff; ~5 min on 2 cores
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist worksteal
	$(BIN)/ruff check src tests benchmarks

## test-fast: skip the checks marked slow; ~2.5 min on 2 cores
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist worksteal -m "not slow"

## soak: the fault and crash suites' long random matrices (a new seed each run), every alias variant of the taxonomy's windowed search, every index file damaged every way, Ctrl-C in every phase, every word of the query builder's check, the parallel writer on libraries of 240 and 520 papers, the wheel in a fresh virtualenv; CI runs it too
soak: $(STAMP)
	PAPERS_SOAK=1 $(BIN)/python -m pytest -q -n auto tests/store/test_faults.py tests/store/test_crash.py \
		tests/search/test_index_damage.py tests/search/test_querylang.py \
		tests/render/test_terminal.py::test_ctrl_c_during_an_ingest_leaves_the_library_before_or_after \
		tests/render/test_terminal.py::test_ctrl_c_during_a_rebuild_keeps_the_index_usable \
		tests/tags/test_taxonomy.py::test_windowed_alias_search_agrees_with_a_full_scan \
		tests/cli/test_conventions.py::test_wheel_installs_and_runs_in_a_fresh_virtualenv \
		tests/engine/test_parallel.py::test_the_parallel_writer_builds_the_one_process_index

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

## bench: timings side by side in one run, written to BENCHMARKS.md (~5 min), then the glossary bridge's cost, a concept's cost in cold processes at 10k papers (library cached in benchmarks/.cache) the per-hit cost against papis (own venv) and papers browse's keystroke and first screen; BENCH_ARGS="--sizes 1000,10000,100000"
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py --output BENCHMARKS.md $(BENCH_ARGS)
	$(BIN)/python benchmarks/bridge_cost.py
	$(BIN)/python benchmarks/concept_cost.py
	$(BIN)/python benchmarks/per_hit.py
	$(BIN)/python benchmarks/browse_cost.py

## eval: search quality per judged set and language (recall, P@10, nDCG@10; default and --exact), and the "no paper" answers a literal scan contradicts (~1.5 min; 3 on a busy machine); then the share of papers the taxonomy tags, on the bundled seeds and tests/data/areas (~20 s)
eval: $(STAMP)
	$(BIN)/python benchmarks/eval.py $(EVAL_ARGS)
	$(BIN)/python benchmarks/tag_coverage.py

## bundle: regenerate the bundled library's records from the seed documents
bundle: $(STAMP)
	rm -rf $(LIBRARY)
	$(BIN)/papers --library $(LIBRARY) ingest $(SEEDS)

clean:
	rm -rf $(VENV) $(LIBRARY)/.index build dist src/*.egg-info .pytest_cache .ruff_cache
