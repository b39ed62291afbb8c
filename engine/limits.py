"""Resource limits for a verification process (kept apart from the engine so that setting
them imports nothing heavy)."""

from __future__ import annotations

import resource


def limit_memory(mb: int) -> None:
    """Cap this process's address space; an analysis that hits it ends as UNKNOWN (memory)."""
    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = mb * 1024 * 1024
        if hard == resource.RLIM_INFINITY or limit <= hard:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        pass
