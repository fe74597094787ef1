# Top-level Makefile of jitter_tsc: thin entry points, each runs a script in harness/.
# `make help` lists them. Everything built goes to build/ and out/ (git-ignored).

H := harness
.PHONY: help run check measure series bench soak mutants sync tree kernel clean

help:
	@echo "make run     lay the tree, build the guest kernel, boot it and print the report"
	@echo "make check   every test step (tree, series, checkpatch, bisect, builds, W=1/sparse,"
	@echo "             KUnit, KUnit+debug, boot test, docs, cutoffs); logs in out/logs/"
	@echo "make measure this CPU's loop figures and jitter_tsc beside jitterentropy (no kernel build)"
	@echo "make series  git format-patch of the series into out/series/"
	@echo "make bench   the entropy benchmark (harness/bench/bench.sh)"
	@echo "make soak    boot the guest 20 times (SOAK_BOOTS=N): no health-test failure"
	@echo "make mutants mutations of the driver that the KUnit cases must kill"
	@echo "make sync    bring edits made in build/linux back into the repo"
	@echo "make tree    build/linux = pristine base + the series (incremental)"
	@echo "make kernel  build the guest bzImage in build/obj-guest"
	@echo "make clean   remove build/ and out/"

tree:
	@$(H)/tree.sh

kernel: tree
	@$(H)/kernel.sh

run: kernel
	@test -x $(H)/guest/run.sh || { echo "run: harness/guest/run.sh is missing" >&2; exit 1; }
	@$(H)/guest/run.sh build/obj-guest/arch/x86/boot/bzImage

check:
	@$(H)/check.sh

measure:
	@$(H)/measure/measure.sh

series:
	@$(H)/series.sh

mutants: tree
	@$(H)/kunit/mutants.py

sync:
	@$(H)/sync.sh

bench:
	@test -x $(H)/bench/bench.sh || { echo "bench: harness/bench/bench.sh is missing" >&2; exit 1; }
	@$(H)/bench/bench.sh

soak: kernel
	@$(H)/measure/soak.sh $(SOAK_BOOTS)

clean:
	rm -rf build out
