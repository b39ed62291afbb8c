"""The one place cbam relies on pygls internals: $/cancelRequest for a workspace/executeCommand.

pygls runs a command's coroutine as a task of its own behind the request's future, and a
$/cancelRequest only cancels that outer future; the analysis would go on. pygls has no public
hook for this (its cancel handler says "will only work if the request hasn't started
executing"), so :class:`CbamProtocol` cancels the inner task with the outer future. It
relies on two internals of ``pygls.protocol.JsonRPCProtocol`` that tests/test_pygls_pin.py pins
(so that a pygls update that moves them fails a test, not a user's cancel):

* ``_run_generator(future, *, gen, result_future)`` runs a generator handler (the built-in
  executeCommand is one) and starts the command's own handler through ``_execute_handler``;
* ``_request_futures`` maps request ids to the futures it started, the command's task among
  them.
"""

from __future__ import annotations

from pygls.protocol import LanguageServerProtocol


class CbamProtocol(LanguageServerProtocol):
    def _run_generator(self, future=None, gen=None, result_future=None):
        before = set(self._request_futures)
        super()._run_generator(future, gen=gen, result_future=result_future)
        for key in [k for k in self._request_futures if k not in before]:
            inner = self._request_futures[key]
            if result_future is not None:
                result_future.add_done_callback(lambda f, inner=inner: inner.cancel() if f.cancelled() else None)
