"""Pins the pygls internals server/protocol.py relies on (see its docstring), so that a pygls
update that changes them fails here; test_lsp.py's test_cancel_request_stops_the_analysis
checks the behaviour end to end."""

from __future__ import annotations

import asyncio
import inspect

from cbam.server.protocol import CbamProtocol
from pygls.protocol import JsonRPCProtocol


def test_run_generator_keeps_its_signature() -> None:
    params = inspect.signature(JsonRPCProtocol._run_generator).parameters
    assert list(params) == ["self", "future", "gen", "result_future"]
    assert params["gen"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["result_future"].kind is inspect.Parameter.KEYWORD_ONLY


def test_a_cancelled_command_cancels_the_task_it_started() -> None:
    """executeCommand's generator yields the command handler; pygls starts it as a task it files
    under _request_futures; cancelling the request's future must cancel that task."""

    async def main() -> None:
        started = asyncio.Event()
        stopped = asyncio.Event()

        async def command() -> None:
            started.set()
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                stopped.set()
                raise

        def execute_command():
            result = yield command, (), {}
            return result

        proto = CbamProtocol.__new__(CbamProtocol)
        proto._request_futures = {}
        outer: asyncio.Future = asyncio.get_running_loop().create_future()
        proto._run_generator(None, gen=execute_command(), result_future=outer)
        await asyncio.wait_for(started.wait(), 5)
        assert len(proto._request_futures) == 1  # pygls filed the command's task here
        outer.cancel()
        await asyncio.wait_for(stopped.wait(), 5)

    asyncio.run(main())
