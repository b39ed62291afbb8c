"""SHA-256 for the modules on the cache-hit path of a new process.

hashlib starts by loading OpenSSL, which costs a few milliseconds of a start-up that
answers an unchanged source in well under a tenth of a second. CPython's built-in
module computes the same digest; hashlib is the fallback where it is missing.
"""

try:
    from _sha256 import sha256  # CPython <= 3.11
except ImportError:  # pragma: no cover - depends on the interpreter
    try:
        from _sha2 import sha256  # CPython >= 3.12
    except ImportError:
        from hashlib import sha256

try:
    from _sha1 import sha1
except ImportError:  # pragma: no cover - depends on the interpreter
    from hashlib import sha1



def code_files(root: str, folders: tuple[str, ...] = (".",)) -> list[str]:
    """The Python sources (and cbam's own headers and C library files) under ``folders`` of ``root``, sorted: what a
    digest of cbam's own code reads. os.walk, not pathlib (with urllib.parse and ipaddress,
    3 ms of a new process)."""
    import os

    files = []
    for sub in folders:
        for d, subdirs, names in os.walk(os.path.join(root, sub)):
            subdirs[:] = [x for x in subdirs if x != "__pycache__"]
            files += [os.path.join(d, n) for n in names if n.endswith((".py", ".h", ".c"))]
    return sorted(files)


__all__ = ["code_files", "sha1", "sha256"]
