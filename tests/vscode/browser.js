// The test's eyes: Debian's Chromium, driven by puppeteer-core, showing code-server's workbench.
// Reads one JSON request per line on stdin and answers one JSON line on stdout:
//   {"op": "goto", "url": ...} | {"op": "eval", "expr": ...} | {"op": "press", "key": ...}
//   {"op": "screenshot", "path": ...} | {"op": "close"}
// usage: node browser.js PUPPETEER_CORE_DIR CHROMIUM USER_DATA_DIR
"use strict";

const readline = require("readline");
const puppeteer = require(require("path").join(process.argv[2], "node_modules", "puppeteer-core"));

async function main() {
  const browser = await puppeteer.launch({
    executablePath: process.argv[3],
    userDataDir: process.argv[4],
    headless: true,
    defaultViewport: { width: 1600, height: 900 },
    // Chromium's own network traffic goes nowhere on these machines; without these flags it
    // keeps retrying connections that are refused.
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
    ],
    // The DevTools protocol over pipes: the browser opens no debugging port at all.
    pipe: true,
  });
  const page = (await browser.pages())[0] || (await browser.newPage());
  const console_ = [];
  page.on("console", (m) => console_.push(m.text()));
  const ops = {
    goto: async ({ url }) => { await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60000 }); return null; },
    eval: async ({ expr }) => page.evaluate(expr),
    press: async ({ key }) => { await page.keyboard.press(key); return null; },
    screenshot: async ({ path }) => { await page.screenshot({ path }); return null; },
    console: async () => console_.splice(0),
    close: async () => { await browser.close(); return null; },
  };
  const rl = readline.createInterface({ input: process.stdin });
  for await (const line of rl) {
    let reply;
    try {
      const req = JSON.parse(line);
      reply = { ok: true, value: await ops[req.op](req) };
    } catch (e) {
      reply = { ok: false, error: String((e && e.stack) || e) };
    }
    process.stdout.write(JSON.stringify(reply === undefined ? null : reply) + "\n");
    if (line.includes('"close"')) {
      break;
    }
  }
  await browser.close().catch(() => {});
}

main().catch((e) => {
  process.stderr.write(String((e && e.stack) || e) + "\n");
  process.exit(1);
});
