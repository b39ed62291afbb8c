"""cbam: a verifier for C programs that lives in the editor."""

import os as _os

__version__ = "0.1.0"

# A source checkout keeps cbam.engine and cbam.server in engine/ and server/ beside this folder
# (pyproject.toml's package-dir); an installed cbam has them inside it. The checkout's editable
# install is a plain path entry (`make`: editable_mode=compat), found by this line, instead of
# setuptools' import hook, which every Python start-up would load (22 ms of pathlib and
# importlib machinery, a tenth of a new process's fixed cost).
_root = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if not _os.path.isdir(_os.path.join(__path__[0], "engine")) and _os.path.isfile(
        _os.path.join(_root, "engine", "__init__.py")):
    __path__.append(_root)

# Every dataclass's methods are compiled from text when its class is created, and every regular
# expression when it is first used; the code is kept across processes (see codecache).
from . import codecache as _codecache  # noqa: E402

_codecache.install()
