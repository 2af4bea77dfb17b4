// The official MCP TypeScript SDK client against `sutra mcp`: connect (initialize), list the
// tools, call each, compress a ~1 MB original and page through a restore of all of it, comparing
// the concatenated pages with the original byte for byte. Exits non-zero on any mismatch.
// Run by mcp_sdk.sh, which installs the SDK and sets SUTRA_BIN and SUTRA_SDK_DIR.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const bin = process.env.SUTRA_BIN;
const sdk = join(process.env.SUTRA_SDK_DIR, "node_modules/@modelcontextprotocol/sdk/dist/esm");
const { Client } = await import(pathToFileURL(join(sdk, "client/index.js")).href);
const { StdioClientTransport } = await import(pathToFileURL(join(sdk, "client/stdio.js")).href);

let failures = 0;
function check(name, ok, detail = "") {
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok || !detail ? "" : `: ${detail}`}`);
  if (!ok) failures++;
}

// A deterministic ~1 MB log: plain and repeated lines, ANSI colour, carriage-return redraws,
// multi-byte UTF-8 and a few very long lines, so pages split lines and (without care) characters.
function generate(bytes) {
  let seed = 12345; // mulberry32: small, seedable, good low bits
  const rand = (n) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const words = ["fetch", "build", "résumé", "日本語", "emoji 👍🏽", "naïve", "Ωmega", "cache"];
  const parts = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    let line;
    const k = rand(1000) / 10;
    if (k < 50) line = `[${rand(99999)}] ${words[rand(words.length)]} step ${i} took ${rand(500)}ms`;
    else if (k < 60) line = "retrying connection to db-3";
    else if (k < 60.2) line = `\x1b[31mERROR\x1b[0m ${words[rand(words.length)]} request ${i} failed`;
    else if (k < 70) line = `progress ${rand(50)}%\rprogress 100%`;
    else if (k < 72) line = Array.from({ length: 400 }, () => words[rand(words.length)]).join(" ");
    else line = `Downloading /pkg/${words[rand(words.length)]}/${rand(99999)}.tar.gz (${rand(900)} kB)`;
    line += "\n";
    parts.push(line);
    size += Buffer.byteLength(line);
  }
  return parts.join("");
}

const transport = new StdioClientTransport({
  command: bin,
  // Every group: a host gets restore, compress and stats unless the user opts into the rest.
  args: ["mcp", "--tools", "all", "--allow-read", dirname(fileURLToPath(import.meta.url))],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "sutra-e2e", version: "0.0.1" });
await client.connect(transport); // initialize + notifications/initialized

check("serverInfo names sutra", client.getServerVersion()?.name === "sutra");
check("instructions are given", typeof client.getInstructions() === "string");

const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
check(
  "tools/list: every tool, in order",
  JSON.stringify(names) ===
    JSON.stringify(["sutra_restore", "sutra_compress", "sutra_stats", "sutra_outline", "sutra_symbol", "sutra_read", "sutra_exec"]),
  JSON.stringify(names),
);
for (const t of tools)
  check(`${t.name} has a closed input schema`, t.inputSchema?.additionalProperties === false);

// sutra_compress: the SDK also validates structuredContent against each tool's outputSchema.
const original = generate(1 << 20);
const originalBytes = Buffer.from(original, "utf8");
const c = await client.callTool({
  name: "sutra_compress",
  arguments: { text: original, tool: "Bash", command: "make", exit_code: 1 },
});
const sc = c.structuredContent ?? {};
check("compress succeeds and retains the original", !c.isError && sc.retained === true && /^su_[0-9a-f]{32}$/.test(sc.id ?? ""));
check("the original is ~1 MB", sc.original_bytes === originalBytes.length && sc.original_bytes >= 1 << 20);
const view = c.content?.[0]?.text ?? "";
check("the view is much smaller", Buffer.byteLength(view) < originalBytes.length / 4, `${Buffer.byteLength(view)} bytes`);
check("markers name sutra_restore", view.includes(`sutra_restore(id="${sc.id}"`));
const id = sc.id;
if (!id) {
  console.log("FAIL no id to restore; stopping");
  await client.close();
  process.exit(1);
}

// Page through the whole original following structuredContent.next.
async function pageThrough(first) {
  const pages = [];
  let args = first;
  for (let n = 0; n < 10000; n++) {
    const r = await client.callTool({ name: "sutra_restore", arguments: args });
    if (r.isError) {
      check("restore page", false, r.content?.[0]?.text);
      return null;
    }
    if (r.content.length !== 2 || r.content[0].type !== "text") {
      check("restore gives two text blocks", false, JSON.stringify(r.content).slice(0, 200));
      return null;
    }
    pages.push(Buffer.from(r.content[0].text, "utf8"));
    const next = r.structuredContent.next;
    if (!next) break;
    args = { id, mode: "bytes", start: next.start, end: next.end, max_bytes: first.max_bytes };
  }
  return pages;
}

for (const [label, first] of [
  ["full, 64 KiB pages", { id, mode: "full", max_bytes: 65536 }],
  ["bytes, 8191-byte pages", { id, mode: "bytes", start: 0, end: originalBytes.length, max_bytes: 8191 }],
]) {
  const pages = await pageThrough(first);
  if (!pages) continue;
  const joined = Buffer.concat(pages);
  check(
    `restore ${label}: ${pages.length} pages equal the original byte for byte`,
    pages.length > 1 && Buffer.compare(joined, originalBytes) === 0,
    `${joined.length} vs ${originalBytes.length} bytes`,
  );
}

// lines and search
const lines = original.split(/(?<=\n)/);
let r = await client.callTool({ name: "sutra_restore", arguments: { id, mode: "lines", start: 5, end: 7 } });
check("lines 5-7", !r.isError && r.content[0].text === lines.slice(4, 7).join(""));
const query = original.match(/request \d+ failed/)[0];
const lineNo = lines.findIndex((l) => l.includes(query)) + 1;
r = await client.callTool({ name: "sutra_restore", arguments: { id, mode: "search", query } });
check(
  `search "${query}" finds line ${lineNo}`,
  !r.isError && r.content[0].text.startsWith(`${lineNo}:`) && r.content[0].text.includes(query),
  r.content?.[0]?.text,
);
check("notes say the data is untrusted", (r.content[1]?.text ?? "").includes("untrusted data"));

// sutra_stats
r = await client.callTool({ name: "sutra_stats", arguments: {} });
check("stats returns text and a JSON report", !r.isError && r.content[0].text.length > 0 && typeof r.structuredContent?.total === "object");

// The file tools on this very file, and sutra_exec on a failing command (the SDK also checks
// each structuredContent against the tool's outputSchema).
const self = fileURLToPath(import.meta.url);
r = await client.callTool({ name: "sutra_read", arguments: { path: self, lines: "1-3" } });
const firstLines = readFileSync(self, "utf8").split("\n").slice(0, 3).join("\n") + "\n";
check("sutra_read gives the exact lines", !r.isError && r.content[0].text === firstLines, r.content?.[0]?.text);
r = await client.callTool({ name: "sutra_outline", arguments: { path: self } });
const outlined = !r.isError && /^function generate \d+-\d+ /m.test(r.content[0].text);
check(
  "sutra_outline lists this file's functions (or says this build has no outlines)",
  outlined || (r.isError === true && r.content[0].text.includes("unavailable")),
  r.content?.[0]?.text?.slice(0, 300),
);
if (outlined) {
  r = await client.callTool({ name: "sutra_symbol", arguments: { path: self, name: "generate" } });
  check("sutra_symbol gives the function's exact bytes", !r.isError && r.content[0].text.startsWith("function generate(bytes) {"), r.content?.[0]?.text?.slice(0, 200));
}
r = await client.callTool({
  name: "sutra_exec",
  arguments: { command: "seq 1 20000; echo 'src/a.c:1:2: error: boom' >&2; exit 3", timeout_seconds: 60 },
});
check(
  "sutra_exec: a failing command's view keeps the error, its status and a marker",
  r.isError === true && r.structuredContent?.exit_code === 3 && r.content[0].text.includes("src/a.c:1:2: error: boom") &&
    r.content[0].text.includes("[sutra: command exited with status 3]") && r.content[0].text.includes("sutra_restore("),
  JSON.stringify(r).slice(0, 400),
);

// Failures: a tool error result for an unknown id, a JSON-RPC error for a hostile id.
r = await client.callTool({ name: "sutra_restore", arguments: { id: "su_0123456789abcdef0123456789abcdef" } });
check("unknown id is a tool error that teaches", r.isError === true && r.content[0].text.includes("re-run"));
try {
  await client.callTool({ name: "sutra_restore", arguments: { id: "../../etc/passwd" } });
  check("hostile id is refused", false, "no error");
} catch (e) {
  check("hostile id is refused with -32602", e.code === -32602, `${e.code} ${e.message}`);
}
check("the server still answers", (await client.listTools()).tools.length === tools.length);

await client.close();
console.log(failures ? `${failures} check(s) failed` : "all checks passed");
process.exit(failures ? 1 : 0);
