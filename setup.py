"""Package discovery for the folder -> import-name mapping declared in pyproject.toml.

engine/ installs as cbam.engine and server/ as cbam.server; setuptools' automatic
discovery would name them "engine" and "server", so the package list is built here.
"""

from setuptools import find_packages, setup

MAPPING = {"cbam": "cbam", "cbam.engine": "engine", "cbam.server": "server"}


def _packages() -> list[str]:
    found: list[str] = []
    for name, folder in MAPPING.items():
        found.append(name)
        found.extend(f"{name}.{sub}" for sub in find_packages(folder))
    return found


setup(packages=_packages(), package_dir=MAPPING)
