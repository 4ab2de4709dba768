# Two commands on a fresh machine: `make bench` and `make test`. Both install what is missing.
BUILD ?= build
JOBS ?= $(shell nproc)
PY := /usr/bin/python3
NCPBENCH := $(BUILD)/ncpbench

DEB_PACKAGES := cmake ninja-build g++ pkg-config libeigen3-dev libsuitesparse-dev libhdf5-dev \
  libfmt-dev libcli11-dev libfcl-dev liburdfdom-dev libgtest-dev libbenchmark-dev libfclib-dev libsiconos-numerics-dev libmumps-headers-dev libmujoco-dev \
  libbullet-dev libdart-dev libdart-external-odelcpsolver-dev \
  libopenmpi-dev openmpi-bin \
  clang-format parallel python3-matplotlib python3-h5py python3-numpy python3-scipy pybind11-dev python3-pybind11 python3-pytest python3-cvxopt

.PHONY: deps build test bench clean datasets regress sanitize sanitize-readers fuzz fuzz-long

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
	  grep -q 'install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then echo "deps: all installed"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "deps: installing $$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "deps: missing packages; run as root:"; \
	  echo "  sudo apt-get install -y $$missing"; exit 1; fi

build: deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

# The default datasets are generated, not committed (about a minute); tests check every shipped one.
test: build
	./scripts/make_datasets.sh --if-missing $(BUILD)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The main job: every solver on the shipped default datasets, results + report + figure. It builds
# what a user runs (target `tools`: the command-line tool and the Python module), not the tests
# and benchmarks.
bench: deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS) --target tools
	./scripts/bench.sh $(BUILD)

# Accuracy regression check against the committed baselines (results/baselines/), then a short
# reproduction (004-fig7: 2 cases, 200 iterations without time limits) against its committed
# results file: residuals and statuses decide, times do not. Exit 1 when a solver got less
# accurate, 2 when something could not run.
REPRO_BASE := results/baselines/reproduce/004-fig7.h5
REPRO_NEW := results/regress/reproduce
regress: build
	@rc=0; ./scripts/regress.sh $(BUILD) || rc=$$?; \
	$(NCPBENCH) reproduce 004-fig7 --cases 2 --max-iters 200 --no-traces -q -o $(REPRO_NEW) >/dev/null || exit 2; \
	$(NCPBENCH) compare $(REPRO_BASE) $(REPRO_NEW)/004-fig7.h5 \
	  -o $(REPRO_NEW)/004-fig7-compare.md >/dev/null; c=$$?; \
	tail -1 $(REPRO_NEW)/004-fig7-compare.md | sed 's/^/reproduce 004-fig7: /'; \
	[ $$c -gt $$rc ] && rc=$$c; exit $$rc

# The test suite under AddressSanitizer (+ LeakSanitizer) and UndefinedBehaviorSanitizer, in its
# own build folder. SAN_CMAKE narrows what is built (CI: the readers' tests, see .ci/run);
# the Python module and the plug-in example need an instrumented interpreter and are left out,
# and so is the walk-through (it builds a plug-in and runs the CLI, whose paths the CLI tests cover).
SAN_BUILD ?= build-sanitize
SAN_TARGETS ?= ncpbench_tests ncpbench
SAN_CMAKE ?=
SAN_EXCLUDE ?= python_pytest|plugin_example|walkthrough
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_odr_violation=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize/lsan.supp:print_suppressions=0
sanitize: deps
	cmake -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNCPBENCH_SANITIZE=ON -DNCPBENCH_TESTS=ON \
	  -DNCPBENCH_CUDA=OFF $(SAN_CMAKE)
	$(SAN_ENV) cmake --build $(SAN_BUILD) -j $(JOBS) --target $(SAN_TARGETS)
	@# The tests read the default datasets: made by the instrumented tool when it was built.
	if [ -x $(SAN_BUILD)/ncpbench ]; then $(SAN_ENV) ./scripts/make_datasets.sh --if-missing $(SAN_BUILD); fi
	cd $(SAN_BUILD) && $(SAN_ENV) ctest --output-on-failure -j $(JOBS) -E '$(SAN_EXCLUDE)'

# libFuzzer on every reader and parser (fuzz/), FUZZ_SECONDS per target (JOBS targets at once),
# with clang in its own build folder; seeds from the shipped files, crashing inputs kept in fuzz/corpus/ (which
# `make test` replays).
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= dataset fclib results options
FUZZ_PACKAGES := clang libclang-rt-14-dev
FUZZ_SANITIZERS ?= address,undefined
define fuzz_targets_in  # $(1): build folder, $(2): sanitizers
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(FUZZ_PACKAGES)"
	cmake -S . -B $(1) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DNCPBENCH_FUZZ=ON \
	  -DNCPBENCH_FUZZ_SANITIZERS=$(2) \
	  -DNCPBENCH_CUDA=OFF -DNCPBENCH_TESTS=OFF -DNCPBENCH_BENCHMARKS=OFF
	cmake --build $(1) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
endef
fuzz: build
	$(call fuzz_targets_in,$(FUZZ_BUILD),$(FUZZ_SANITIZERS))
	FUZZ_JOBS=$(JOBS) ./scripts/fuzz.sh $(BUILD) $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The long campaign: FUZZ_RUNS executions of every target (a million by default), the targets
# side by side on the machine's cores, with UBSan alone (about four times the executions per
# second of ASan+UBSan on these libhdf5-bound reads; `make fuzz` keeps ASan). Its corpus grows
# in build-fuzz-long/corpus and seeds the next campaign.
FUZZ_RUNS ?= 1000000
FUZZ_MAX_SECONDS ?= 0  # a cap per target (0: none)
FUZZ_WORKERS ?= 1  # processes per target, on one corpus (FUZZ_TARGETS=dataset FUZZ_WORKERS=2)
fuzz-long: build
	$(call fuzz_targets_in,build-fuzz-long,undefined)
	FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_JOBS=$(JOBS) FUZZ_WORKERS=$(FUZZ_WORKERS) \
	  ./scripts/fuzz.sh $(BUILD) build-fuzz-long \
	  $(FUZZ_MAX_SECONDS) $(FUZZ_TARGETS)

# The part of `make sanitize` that CI runs: the readers' tests, which build in
# minutes (the whole suite under the sanitizers takes longer than CI allows).
SAN_READER_TESTS := io_dataset;io_declared_size;io_guarded_read;io_fclib
sanitize-readers:
	@$(MAKE) --no-print-directory sanitize SAN_BUILD=build-sanitize-readers SAN_TARGETS=ncpbench_tests \
	  SAN_EXCLUDE='python_pytest|plugin_example|walkthrough|misuse_campaign' \
	  SAN_CMAKE="-DNCPBENCH_TEST_GLOB='$(SAN_READER_TESTS)' -DNCPBENCH_TEST_LINK=ncp_io \
	  -DNCPBENCH_BENCHMARKS=OFF $(SAN_CMAKE)"

# Regenerates the shipped default datasets (deterministic).
datasets: build
	./scripts/make_datasets.sh $(BUILD)

clean:
	rm -rf $(BUILD)
