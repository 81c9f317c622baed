"""Package discovery for the ``pokerzoo`` namespace (everything else is in pyproject.toml).

The import namespace is ``pokerzoo`` but its parts live at the repository's top level
(``envs/`` is ``pokerzoo.envs``, ...). setuptools' own discovery cannot prefix the packages it
finds, so this finds every package under each part and maps it: a new game's folders are
packaged without anyone listing them.
"""

from setuptools import find_packages, setup

PARTS = {
    "pokerzoo.envs": "envs",
    "pokerzoo.agents": "agents",
    "pokerzoo.training": "training",
    "pokerzoo.configs": "configs",
}

packages = []
for name, folder in PARTS.items():
    packages.append(name)
    packages += [f"{name}.{sub}" for sub in find_packages(folder)]

setup(packages=packages, package_dir=PARTS)
