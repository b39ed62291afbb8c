"""A real editor's LSP client drives the server: Neovim's built-in client, headless."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from .test_lsp import BUGGY, TWO_VIOLATIONS

LUA = r"""
local out_path = "%(out)s"
local done = false
local result = {}
local client_id = vim.lsp.start_client({
  name = "cbam",
  cmd = { "%(python)s", "-m", "cbam", "lsp" },
  root_dir = "%(root)s",
  settings = { cbam = { cacheDir = "%(cache)s", timeout = 60 } },
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
      if params and params.diagnostics and #params.diagnostics > 0 then
        result = params
        done = true
      end
    end,
  },
})
vim.cmd("edit %(file)s")
vim.lsp.buf_attach_client(0, client_id)
vim.wait(90000, function() return done end, 100)
local f = io.open(out_path, "w")
f:write(vim.fn.json_encode({ done = done, params = result }))
f:close()
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
"""


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed (make test installs it on Debian)")
def test_neovim_shows_the_violation_and_its_path(tmp_path):
    src = tmp_path / "b.c"
    src.write_text(BUGGY)
    out = tmp_path / "out.json"
    script = tmp_path / "drive.lua"
    script.write_text(LUA % {"out": out, "python": sys.executable, "root": tmp_path, "cache": tmp_path / "cache",
                             "file": src})
    r = subprocess.run(["nvim", "--headless", "-n", "-u", "NONE", "-c", f"luafile {script}"], capture_output=True,
                       text=True, timeout=150)
    assert out.exists(), r.stderr
    data = json.loads(out.read_text())
    assert data["done"], "Neovim received no diagnostics"
    diags = data["params"]["diagnostics"]
    assert len(diags) == 1 and diags[0]["source"] == "cbam" and diags[0]["severity"] == 1
    assert diags[0]["range"]["start"]["line"] == 11
    related = diags[0].get("relatedInformation") or []
    msgs = [x["message"] for x in related]
    folded = diags[0]["message"]
    assert any("call average(" in m for m in msgs) or "call average(" in folded


STREAM_LUA = r"""
local out_path = "%(out)s"
local t0 = vim.loop.hrtime()
local function ms() return (vim.loop.hrtime() - t0) / 1e6 end
local pubs = {}
local progress_end = nil
local client_id = vim.lsp.start_client({
  name = "cbam",
  cmd = { "%(python)s", "-m", "cbam", "lsp" },
  root_dir = "%(root)s",
  settings = { cbam = { cacheDir = "%(cache)s", timeout = 120, extraSearchSeconds = 120 } },
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
      local lines = {}
      for _, d in ipairs(params.diagnostics or {}) do table.insert(lines, d.range.start.line) end
      table.insert(pubs, { at = ms(), lines = lines, version = params.version })
    end,
    ["$/progress"] = function(err, params, ctx, config)
      if params.value and params.value.kind == "end" then progress_end = ms() end
    end,
  },
})
vim.cmd("edit %(file)s")
vim.lsp.buf_attach_client(0, client_id)
vim.wait(120000, function() return progress_end ~= nil end, 50)
local f = io.open(out_path, "w")
f:write(vim.fn.json_encode({ pubs = pubs, progress_end = progress_end or vim.NIL }))
f:close()
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
"""


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed (make test installs it on Debian)")
def test_neovim_receives_two_violations_one_after_the_other(tmp_path):
    """The first violation arrives while the search goes on (before its progress ends), the
    second later, both for the version Neovim opened."""
    src = tmp_path / "two.c"
    src.write_text(TWO_VIOLATIONS)
    out = tmp_path / "out.json"
    script = tmp_path / "drive.lua"
    script.write_text(STREAM_LUA % {"out": out, "python": sys.executable, "root": tmp_path,
                                    "cache": tmp_path / "cache", "file": src})
    r = subprocess.run(["nvim", "--headless", "-n", "-u", "NONE", "-c", f"luafile {script}"], capture_output=True,
                       text=True, timeout=180)
    assert out.exists(), r.stderr
    data = json.loads(out.read_text())
    pubs = [p for p in data["pubs"] if p["lines"]]
    assert data["progress_end"] is not None, f"the search never ended: {pubs}"
    assert [sorted(p["lines"]) for p in pubs][:2] == [[14], [12, 14]], pubs
    first, second = pubs[0], pubs[1]
    assert first["at"] < second["at"] and first["at"] < data["progress_end"], (pubs, data["progress_end"])
    assert sorted(pubs[-1]["lines"]) == [12, 14]
    assert all(p["version"] == 0 for p in pubs) or len({p["version"] for p in pubs}) == 1


HOVER_LUA = r"""
local out_path = "%(out)s"
local published = false
local client_id = vim.lsp.start_client({
  name = "cbam",
  cmd = { "%(python)s", "-m", "cbam", "lsp" },
  root_dir = "%(root)s",
  settings = { cbam = { cacheDir = "%(cache)s", timeout = 60 } },
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, params, ctx, config) published = true end,
  },
})
vim.cmd("edit %(file)s")
vim.lsp.buf_attach_client(0, client_id)
vim.wait(90000, function() return published end, 100)
local client = vim.lsp.get_client_by_id(client_id)
local resp = client.request_sync("textDocument/hover", {
  textDocument = { uri = vim.uri_from_fname("%(file)s") }, position = { line = 2, character = 5 },
}, 20000, 0)
local f = io.open(out_path, "w")
f:write(vim.fn.json_encode({ published = published, hover = resp and resp.result or vim.NIL }))
f:close()
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
"""


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed (make test installs it on Debian)")
def test_neovim_hover_shows_the_summary_the_horn_clause_engine_proved(tmp_path):
    from .test_lsp import RECURSIVE_TWICE

    src = tmp_path / "t.c"
    src.write_text(RECURSIVE_TWICE)
    out = tmp_path / "out.json"
    script = tmp_path / "drive.lua"
    script.write_text(HOVER_LUA % {"out": out, "python": sys.executable, "root": tmp_path, "cache": tmp_path / "cache",
                                   "file": src})
    r = subprocess.run(["nvim", "--headless", "-n", "-u", "NONE", "-c", f"luafile {script}"], capture_output=True,
                       text=True, timeout=150)
    assert out.exists(), r.stderr
    data = json.loads(out.read_text())
    assert data["published"], "Neovim received no diagnostics"
    text = data["hover"]["contents"]["value"]
    assert "**twice**" in text and "\\result" in text, text
    # Spacer's proof or the guessed summaries' (CPArec's): they race to it (tests/test_horn.py),
    # and the hover names the one that came first.
    assert ("whole-program invariants" in text) != ("CPArec" in text), text


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed (make test installs it on Debian)")
def test_neovim_verifies_a_file_of_a_project_with_the_library_it_calls(tmp_path):
    """compile_commands.json compiles a library and its test program: the test program's
    violation has its error path through the library's file."""
    from .conftest import ROOT

    linked = ROOT / "tests" / "programs" / "linked"
    for name in ("stack.h", "stack.c", "stack_main.c"):
        shutil.copy(linked / name, tmp_path / name)
    (tmp_path / "compile_commands.json").write_text(json.dumps([
        {"directory": str(tmp_path), "file": f, "arguments": ["cc", "-c", f]} for f in ("stack.c", "stack_main.c")]))
    out = tmp_path / "out.json"
    script = tmp_path / "drive.lua"
    script.write_text(LUA % {"out": out, "python": sys.executable, "root": tmp_path, "cache": tmp_path / "cache",
                             "file": tmp_path / "stack_main.c"})
    r = subprocess.run(["nvim", "--headless", "-n", "-u", "NONE", "-c", f"luafile {script}"], capture_output=True,
                       text=True, timeout=150)
    assert out.exists(), r.stderr
    data = json.loads(out.read_text())
    assert data["done"], "Neovim received no diagnostics"
    [d] = [d for d in data["params"]["diagnostics"] if d.get("code") == "violation"]
    assert d["range"]["start"]["line"] == 23
    related = [x["location"]["uri"] for x in d.get("relatedInformation") or []]
    assert (tmp_path / "stack.c").as_uri() in related or "stack.c:" in d["message"], d
