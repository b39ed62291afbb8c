"""SHA-256 for the modules on the cache-hit path of a new process.

hashlib starts by loading OpenSSL, which costs a few milliseconds of a start-up that
answers an unchanged source in well under a tenth of a second. CPython's built-in
module computes the same digest; hashlib is the fallback where it is missing.
"""

try:
    from _sha256 import sha256  # CPython <= 3.11
except ImportError:  # pragma: no cover - depends on the interpreter
    try:
        from _sha2 import sha256  # type: ignore[no-redef]  # CPython >= 3.12
    except ImportError:
        from hashlib import sha256  # type: ignore[no-redef]

try:
    from _sha1 import sha1
except ImportError:  # pragma: no cover - depends on the interpreter
    from hashlib import sha1  # type: ignore[no-redef]

__all__ = ["sha1", "sha256"]
