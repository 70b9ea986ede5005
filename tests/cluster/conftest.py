"""The fixtures of tests/cluster (defined in cluster_fixtures.py, a module mypy can tell apart
from the other folders' conftest.py; pytest finds fixtures by their names here)."""

from cluster_fixtures import cluster, database_url, module_cluster

__all__ = ["cluster", "database_url", "module_cluster"]
