"""Temporary files are private and removed at exit; the Py4J gateway takes its token on loopback only."""

import json
import os
import socket
import stat
import subprocess
import sys
import textwrap
from typing import Any

import pytest

CHILD = textwrap.dedent("""
    import json, os
    from pyflink_table import EnvironmentSettings, TableEnvironment
    from pyflink_table.expressions import col
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t = t_env.from_elements([(i, i % 3) for i in range(50)], ["v", "k"])
    t.group_by(col("k")).select(col("k"), col("v").sum).execute().collect()  # a shuffle writes local files
    conf = t_env.get_spark_session().sparkContext.getConf()
    assert os.environ.get('SPARK_LOCAL_DIRS')
    dirs = [os.environ["SPARK_LOCAL_DIRS"], conf.get("spark.sql.warehouse.dir").replace("file:", "")]
    parent = os.path.dirname(dirs[0])
    found = []
    for root, subdirs, files in os.walk(parent):
        found += [os.path.join(root, n) for n in subdirs + files]
    print("DIRS " + json.dumps({"parent": parent, "mode": os.stat(parent).st_mode, "dirs": dirs, "found": found}))
""")


def test_temporary_directories_are_private_and_removed_at_exit(tmp_path: Any) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=900)
    lines = [line for line in p.stdout.splitlines() if line.startswith("DIRS ")]
    assert p.returncode == 0 and lines, p.stderr[-3000:]
    info = json.loads(lines[0][5:])
    assert stat.S_IMODE(info["mode"]) == 0o700
    assert all(d.startswith(info["parent"] + os.sep) for d in info["dirs"])
    assert any("blockmgr" in f for f in info["found"]), info["found"]  # Spark's shuffle files were in there
    assert not os.path.exists(info["parent"])


def _listening_addresses(port: int) -> set:
    """Local addresses (hex, as /proc/net/tcp shows them) listening on ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                address, hex_port = fields[1].split(":")
                if int(hex_port, 16) == port and fields[3] == "0A":  # 0A: LISTEN
                    found.add(address)
    return found


def test_gateway_requires_its_token_and_listens_on_loopback_only(t_env: Any) -> None:
    from py4j.java_gateway import GatewayParameters, JavaGateway
    from py4j.protocol import Py4JError

    gateway = t_env.get_spark_session().sparkContext._gateway
    params = gateway.gateway_parameters
    assert params.auth_token and len(params.auth_token) >= 16
    # 127.0.0.1 (in /proc/net/tcp, or IPv4-mapped in tcp6), nothing else
    assert _listening_addresses(params.port) <= {"0100007F", "0000000000000000FFFF00000100007F"}
    assert _listening_addresses(params.port)
    # Without the token (or with a wrong one) nothing can be called.
    for token in (None, "not-the-token"):
        intruder = JavaGateway(gateway_parameters=GatewayParameters(port=params.port, auth_token=token))
        try:
            with pytest.raises(Py4JError):
                intruder.jvm.java.lang.System.getProperty("user.name")
        finally:
            intruder.close()
    # The real token works.
    assert gateway.jvm.java.lang.System.getProperty("user.name")
    with socket.create_connection(("127.0.0.1", params.port), timeout=5):
        pass
