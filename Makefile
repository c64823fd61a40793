# Shortcuts over ./dev; `make` lists them.
.PHONY: help run test lint check bench clean

help:  ## list the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

run:  ## the demo: the controller on its embedded store, fed by DEMO tables
	./dev run

test:  ## the whole test suite
	./dev test

lint:  ## ruff and mypy
	./dev lint

check: lint test  ## lint, types and tests

bench:  ## the benchmarks (see docs/PERFORMANCE.md)
	./dev bench

clean:  ## remove the venv, caches and the embedded store's data
	rm -rf .venv var .pytest_cache .mypy_cache .ruff_cache
