// Imports the sutra.js that `sutra install --client opencode` wrote and calls its
// `tool.execute.after` hook the way OpenCode 1.18.33 does (docs/adapters.md, "OpenCode"): a fake input, an
// output object mutated in place, the real sutra-host behind it.
// Usage: node opencode_plugin.mjs INSTALLED_PLUGIN_FILE SCRATCH_DIR
import assert from "node:assert/strict"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const [pluginFile, scratch] = process.argv.slice(2)
let failures = 0
async function check(name, fn) {
  try {
    await fn()
    console.log(`ok   ${name}`)
  } catch (e) {
    failures++
    console.log(`FAIL ${name}: ${e && e.message}`)
  }
}

async function loadHook(file) {
  const mod = await import(pathToFileURL(file).href)
  const plugins = Object.values(mod).filter((v) => typeof v === "function")
  assert.equal(plugins.length, 1, "one plugin function exported")
  const input = { client: {}, project: {}, directory: scratch, worktree: scratch, $: undefined }
  const hooks = await plugins[0](input)
  assert.equal(typeof hooks["tool.execute.after"], "function")
  return hooks["tool.execute.after"]
}

const bigLog = () =>
  Array.from({ length: 400 }, (_, i) => `[INFO] compiling module_${i % 7}.cpp ... ok\n`).join("") +
  "error: the one line that matters\n"
const bash = (text, command = "make", exit = 0, meta = {}) => [
  { tool: "bash", sessionID: "ses_1", callID: "call_1", args: { command, description: "t" } },
  { title: command, metadata: { output: text, exit, truncated: false, ...meta }, output: text },
]
const mcp = (tool, text) => [
  { tool, sessionID: "ses_1", callID: "call_2", args: {} },
  { content: [{ type: "text", text }] },
]

const hook = await loadHook(pluginFile)

await check("large bash output becomes a view with a marker", async () => {
  const [input, output] = bash(bigLog())
  const before = JSON.stringify(output.metadata)
  await hook(input, output)
  assert.match(output.output, /sutra restore su_|sutra_sutra_restore\(id="su_/)
  assert.match(output.output, /error: the one line that matters/)
  assert.ok(output.output.length < bigLog().length / 4)
  assert.equal(JSON.stringify(output.metadata), before)
})
await check("small bash output unchanged", async () => {
  const [input, output] = bash("1\n2\n3\n")
  await hook(input, output)
  assert.equal(output.output, "1\n2\n3\n")
})
await check("exit code from metadata.exit: a failure keeps more", async () => {
  const w = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon".split(" ")
  const varied = Array.from({ length: 2000 }, (_, i) =>
    `${w[(i * 7) % 20]} ${w[(i * 13 + 3) % 20]} ${(i * i) % 997} ${w[(i * 3 + 1) % 20]}\n`).join("")
  const [i0, o0] = bash(varied, "make", 0)
  const [i2, o2] = bash(varied, "make", 2)
  await hook(i0, o0)
  await hook(i2, o2)
  assert.match(o0.output, /sutra restore su_|sutra_sutra_restore\(id="su_/)
  assert.match(o2.output, /sutra restore su_|sutra_sutra_restore\(id="su_/)
  assert.ok(o2.output.length > o0.output.length)
})
await check("sutra restore output passes untouched", async () => {
  const [input, output] = bash(bigLog(), "sutra restore su_0123 --full")
  await hook(input, output)
  assert.equal(output.output, bigLog())
})
await check("MCP content becomes one text block", async () => {
  const [input, output] = mcp("srv_tool", bigLog())
  await hook(input, output)
  assert.equal(output.content.length, 1)
  assert.equal(output.content[0].type, "text")
  assert.match(output.content[0].text, /sutra restore su_|sutra_sutra_restore\(id="su_/)
})
await check("sutra's own MCP tools pass untouched", async () => {
  const [input, output] = mcp("sutra_sutra_restore", bigLog())
  await hook(input, output)
  assert.equal(output.content[0].text, bigLog())
})

const full = Array.from({ length: 3000 }, (_, i) => `line ${i % 13} of the build\n`).join("") +
  "LAST LINE only in the saved file\n"
const toolOutput = join(process.env.XDG_DATA_HOME, "opencode", "tool-output")
mkdirSync(toolOutput, { recursive: true })
const truncated = (path) => {
  const preview = `...output truncated...\n\nFull output saved to: ${path}\n\n` + full.slice(-2000)
  return bash(preview, "make", 0, { truncated: true, outputPath: path })
}
await check("truncated: the saved file is compressed, not the preview", async () => {
  const path = join(toolOutput, "tool_01")
  writeFileSync(path, full)
  const [input, output] = truncated(path)
  await hook(input, output)
  assert.match(output.output, /LAST LINE only in the saved file/)
  assert.match(output.output, /sutra restore su_|sutra_sutra_restore\(id="su_/)
  assert.doesNotMatch(output.output, /output truncated/)
})
await check("truncated: a file outside tool-output passes through", async () => {
  const path = join(scratch, "tool_elsewhere")
  writeFileSync(path, full)
  const [input, output] = truncated(path)
  const preview = output.output
  await hook(input, output)
  assert.equal(output.output, preview)
})
await check("truncated: a missing file passes through", async () => {
  const [input, output] = truncated(join(toolOutput, "tool_gone"))
  const preview = output.output
  await hook(input, output)
  assert.equal(output.output, preview)
})
await check("odd arguments never throw", async () => {
  await hook(undefined, undefined)
  await hook({ tool: "bash" }, null)
  const output = { output: 42 }
  await hook({ tool: "bash", args: {} }, output)
  assert.equal(output.output, 42)
})
await check("sutra-host missing: output unchanged, no throw", async () => {
  const copy = join(scratch, "sutra-missing-host.js")
  const text = readFileSync(pluginFile, "utf8").replace(
    /const SUTRA_HOST = .*/,
    'const SUTRA_HOST = "/nonexistent/sutra-host"',
  )
  writeFileSync(copy, text)
  const missing = await loadHook(copy)
  const [input, output] = bash(bigLog())
  await missing(input, output)
  assert.equal(output.output, bigLog())
})

console.log(failures === 0 ? "all opencode plugin checks passed" : `${failures} check(s) failed`)
process.exit(failures === 0 ? 0 : 1)
