# The two commands of the README: `make example` and `make test`. Both set up everything they need,
# and both run the package as users install it: a wheel built from this checkout, installed (not
# editable) into .venv. The tests run with the checkout off sys.path (python -P), so a file missing
# from the wheel fails them.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PYFLINK_VENV := .venv-pyflink
# The Python of the loopback cluster's workers: pyspark, pandas and pyarrow but never pyflink_table.
WORKER_VENV := .venv-cluster-worker
STAMP := $(VENV)/.installed
WHEEL_STAMP := $(VENV)/.wheel-installed
PACKAGE_SOURCES := pyproject.toml setup.py MANIFEST.in $(shell find pyflink_table java-bridge/src/main \
	-type f \( -name '*.py' -o -name '*.java' -o -name '*.properties' -o -name 'py.typed' \) 2>/dev/null)

.PHONY: example test setup install reference docs typecheck bench clean jar-maven java-test check

# The build and test tools (the package's own dependencies come with its wheel).
$(STAMP): pyproject.toml setup.py
	@command -v java >/dev/null || { echo "error: Java 17 is required (apt-get install openjdk-17-jdk-headless)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "pyspark==4.3.0" "pyarrow>=18" "pandas>=2.2,<3" numpy setuptools wheel
	touch $(STAMP)

# Build the wheel (javac compiles the bridge into it) outside the checkout and install it.
$(WHEEL_STAMP): $(STAMP) $(PACKAGE_SOURCES)
	@set -e; out=$$(mktemp -d); \
	$(PY) -m pip wheel -q --no-deps --no-build-isolation -w $$out . ; \
	$(PY) -m pip install -q --no-deps --force-reinstall $$out/pyflink_table-*.whl; \
	$(PY) -m pip install -q "$$(ls $$out/pyflink_table-*.whl)[dev]"; \
	rm -rf $$out
	touch $(WHEEL_STAMP)

install: $(WHEEL_STAMP)

setup: $(WHEEL_STAMP)

# PyFlink 2.3 in its own venv: the behaviour reference for differential tests.
$(PYFLINK_VENV)/.installed:
	test -x $(PYFLINK_VENV)/bin/python || $(PYTHON) -m venv $(PYFLINK_VENV)
	$(PYFLINK_VENV)/bin/python -m pip install -q --upgrade pip
	$(PYFLINK_VENV)/bin/python -m pip install -q "apache-flink==2.3.0"
	touch $(PYFLINK_VENV)/.installed

reference: $(PYFLINK_VENV)/.installed

$(WORKER_VENV)/.installed:
	test -x $(WORKER_VENV)/bin/python || $(PYTHON) -m venv $(WORKER_VENV)
	$(WORKER_VENV)/bin/python -m pip install -q --upgrade pip
	$(WORKER_VENV)/bin/python -m pip install -q "pyspark==4.3.0" "pyarrow>=18" "pandas>=2.2,<3" numpy
	touch $(WORKER_VENV)/.installed

example: $(WHEEL_STAMP)
	$(VENV)/bin/pyflink-table run examples/word_count.py

# The tests import the installed wheel: -P keeps the checkout off the driver's sys.path, and they run
# from tests/ so that Spark's Python workers (started in the driver's working directory, which they
# put on their sys.path) do not find the checkout's pyflink_table either. --durations=30 lists the
# slowest tests at the end of every run, so a CI log shows where the suite's time goes.
test: $(WHEEL_STAMP) $(PYFLINK_VENV)/.installed $(WORKER_VENV)/.installed
	cd tests && PYFLINK_PYTHON=$(abspath $(PYFLINK_VENV))/bin/python \
	PYFLINK_TABLE_WORKER_PYTHON=$(abspath $(WORKER_VENV))/bin/python \
	PYFLINK_TABLE_TEST_INSTALLED=1 $(abspath $(PY)) -P -m pytest -q --durations=30 .

typecheck: $(WHEEL_STAMP)
	$(PY) -m mypy --strict pyflink_table examples

docs: $(WHEEL_STAMP)
	$(PY) -m sphinx -W -b html docs docs/_build/html

# The same bridge jar built by Maven (pom.xml), offline against PySpark's jars; Debian's Maven
# plugins live in /usr/share/maven-repo (apt-get install maven libmaven-compiler-plugin-java
# libmaven-jar-plugin-java libmaven-resources-plugin-java libsurefire-java).
MAVEN_REPO ?= /usr/share/maven-repo
SPARK_JARS = $(shell $(PY) -c "import pyspark, os; print(os.path.dirname(pyspark.__file__) + '/jars')")

jar-maven: $(STAMP)
	mvn -B -q -o -Dstyle.color=never -Dmaven.repo.local=$(MAVEN_REPO) -Dspark.jars.dir=$(SPARK_JARS) package
	@echo "built target/pyflink-table-bridge.jar"

# The Java tests are self-checking main() programs (no JUnit): run every *Test class Maven compiled.
java-test: jar-maven
	@set -e; for c in $$(cd target/test-classes && find . -name '*Test.class' | sed 's|^./||; s|\.class$$||; s|/|.|g'); do \
	  echo "java $$c"; java -cp "target/classes:target/test-classes:$(SPARK_JARS)/*" $$c; done

# Everything CI checks besides the test suite.
check: java-test typecheck docs

bench: $(WHEEL_STAMP) $(PYFLINK_VENV)/.installed
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) $(PYFLINK_VENV) $(WORKER_VENV) build dist *.egg-info pyflink_table/jars docs/_build docs/api docs/_generated target
