# Two commands on a fresh machine: `make bench` and `make test`. Both install what is missing.
BUILD ?= build
JOBS ?= $(shell nproc)
PY := /usr/bin/python3
NCPBENCH := $(BUILD)/ncpbench

DEB_PACKAGES := cmake ninja-build g++ pkg-config libeigen3-dev libsuitesparse-dev libhdf5-dev \
  libfmt-dev libcli11-dev libfcl-dev liburdfdom-dev libgtest-dev libbenchmark-dev libfclib-dev libsiconos-numerics-dev libmujoco-dev \
  python3-matplotlib python3-h5py python3-numpy python3-scipy pybind11-dev python3-pybind11 python3-pytest

.PHONY: deps build test bench clean datasets regress

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

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The main job: every solver on the shipped default datasets, results + report + figure. It needs
# only the command-line tool, so it builds that target alone (not the tests and benchmarks).
bench: deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS) --target ncpbench
	./scripts/bench.sh $(BUILD)

# Accuracy regression check against the committed baselines (results/baselines/).
regress: build
	./scripts/regress.sh $(BUILD)

# Regenerates the shipped default datasets (deterministic).
datasets: build
	./scripts/make_datasets.sh $(BUILD)

clean:
	rm -rf $(BUILD)
