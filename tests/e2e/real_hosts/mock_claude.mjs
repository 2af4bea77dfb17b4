// Loopback mock of the Anthropic Messages API for Claude Code (docs/adapters.md, "Real hosts"). Reply N answers
// the request that already carries N tool results: MOCK_STEPS is a JSON array of steps,
// {"tool": NAME, "input": {...}}, {"restore": TOOL} (the call the first sutra marker in the
// last tool result names, issued as the model would) or {"bash_restore": SUTRA} (that marker's
// range through `SUTRA restore` in Bash); past the end it says "done". Every request body is saved as
// $MOCK_DIR/req-N.json; the port goes to $MOCK_DIR/port.
import { createServer } from "node:http"
import { writeFileSync } from "node:fs"

const dir = process.env.MOCK_DIR
const steps = JSON.parse(process.env.MOCK_STEPS || "[]")
let seen = 0
const text = (c) => (typeof c === "string" ? c : Array.isArray(c) ? c.map((b) => b.text ?? text(b.content)).join("\n") : "")

createServer((req, res) => {
  let body = ""
  req.on("data", (c) => (body += c))
  req.on("end", () => {
    if (req.url.includes("count_tokens")) return res.end(JSON.stringify({ input_tokens: 10 }))
    writeFileSync(`${dir}/req-${seen++}.json`, body)
    const msg = JSON.parse(body || "{}")
    const results = (msg.messages || []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === "tool_result")
    let step = msg.tools?.length ? steps[results.length] : undefined
    if (step?.restore) {
      // The first marker's own call, e.g. TOOL(id="su_…", mode="lines", start=2, end=1699).
      const m = text(results.at(-1)?.content).match(new RegExp(`${step.restore}\\(id="([^"]+)", mode="(\\w+)", start=(\\d+), end=(\\d+)\\)`)) || []
      step = { tool: step.restore, input: { id: m[1] || "none", mode: m[2] || "full", start: Number(m[3] || 0), end: Number(m[4] || 0) } }
    }
    if (step?.bash_restore) {
      // The same marker's range, restored through the shell: `SUTRA restore ID --lines A-B`.
      const t = text(results.at(-1)?.content)
      const m = t.match(/\w+\(id="([^"]+)", mode="lines", start=(\d+), end=(\d+)\)/) || t.match(/restore (su_\w+) --lines (\d+)-(\d+)/) || []
      step = { tool: "Bash", input: { command: `${step.bash_restore} restore ${m[1] || "none"} --lines ${m[2] || 1}-${m[3] || 1}`, description: "restore the elided lines" } }
    }
    const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
    res.writeHead(200, { "content-type": "text/event-stream" })
    ev("message_start", { message: { id: `msg_${seen}`, type: "message", role: "assistant", model: msg.model, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } })
    if (step) {
      ev("content_block_start", { index: 0, content_block: { type: "tool_use", id: `toolu_${results.length + 1}`, name: step.tool, input: {} } })
      ev("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(step.input) } })
    } else {
      ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } })
      ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: "done" } })
    }
    ev("content_block_stop", { index: 0 })
    ev("message_delta", { delta: { stop_reason: step ? "tool_use" : "end_turn" }, usage: { output_tokens: 5 } })
    ev("message_stop", {})
    res.end()
  })
}).listen(0, "127.0.0.1", function () {
  writeFileSync(`${dir}/port`, String(this.address().port))
})
