"""A demonstration analysis outside cbam: the sign of each integer variable (negative, zero,
positive, or any). It is one package with one CPA and one registry line in the tests
(``registry.register(SIGN)``): BAM, CEGAR, the cache, the command line and the server are not
touched, and it runs under BAM with recursion, is cached and reused, and shows in summaries.
"""

from __future__ import annotations

from cbam.engine.cpa.registry import Analysis, Configuration, Setup, addressed_variables

from .cpa import SignCPA


def _cpa(setup: Setup) -> SignCPA:
    return SignCPA(setup.program)


ANALYSIS = Analysis("sign", _cpa, None, None, addressed_variables)

# The one line that registers it (a test calls registry.register(SIGN)).
SIGN = Configuration("sign", ("tests.sign_analysis",), "Signs of integer variables (a demonstration domain).",
                     False)
