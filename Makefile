# The two commands of the README: `make example` and `make test`. Both set up everything they need.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PYFLINK_VENV := .venv-pyflink
STAMP := $(VENV)/.installed

.PHONY: example test setup reference docs typecheck bench clean jar-maven java-test check

$(STAMP): pyproject.toml setup.py
	@command -v java >/dev/null || { echo "error: Java 17 is required (apt-get install openjdk-17-jdk-headless)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "pyspark==4.3.0" "pyarrow>=18" "pandas>=2.2,<3" numpy setuptools wheel
	$(PY) -m pip install -q --no-build-isolation -e ".[dev]"
	touch $(STAMP)

setup: $(STAMP)

# PyFlink 2.3 in its own venv: the behaviour reference for differential tests.
$(PYFLINK_VENV)/.installed:
	test -x $(PYFLINK_VENV)/bin/python || $(PYTHON) -m venv $(PYFLINK_VENV)
	$(PYFLINK_VENV)/bin/python -m pip install -q --upgrade pip
	$(PYFLINK_VENV)/bin/python -m pip install -q "apache-flink==2.3.0"
	touch $(PYFLINK_VENV)/.installed

reference: $(PYFLINK_VENV)/.installed

example: $(STAMP)
	$(VENV)/bin/pyflink-table run examples/word_count.py

test: $(STAMP) $(PYFLINK_VENV)/.installed
	PYFLINK_PYTHON=$(abspath $(PYFLINK_VENV))/bin/python $(PY) -m pytest -q tests

typecheck: $(STAMP)
	$(PY) -m mypy --strict pyflink_table examples

docs: $(STAMP)
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

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) $(PYFLINK_VENV) build dist *.egg-info pyflink_table/jars docs/_build docs/api docs/_generated target
