// Loopback mock of an OpenAI-compatible chat completions API for OpenCode (docs/adapters.md, "Real hosts").
// Reply N answers the request that already carries N role:"tool" messages: MOCK_STEPS is a JSON
// array of {"tool": NAME, "input": {...}} or {"bash_restore": SUTRA, "tool", "field", "input"}
// (the first marker's range in the last tool message, restored by `SUTRA restore` put in
// input[field]); past the end, and for requests without tools (the session title), it says "done". Every request body is saved as $MOCK_DIR/req-N.json; the
// port goes to $MOCK_DIR/port.
import { createServer } from "node:http"
import { writeFileSync } from "node:fs"

const dir = process.env.MOCK_DIR
const steps = JSON.parse(process.env.MOCK_STEPS || "[]")
let seen = 0

createServer((req, res) => {
  let body = ""
  req.on("data", (c) => (body += c))
  req.on("end", () => {
    if (req.method !== "POST") return res.end(JSON.stringify({ object: "list", data: [] }))
    writeFileSync(`${dir}/req-${seen++}.json`, body)
    const msg = JSON.parse(body || "{}")
    const done = (msg.messages || []).filter((m) => m.role === "tool").length
    let step = msg.tools?.length ? steps[done] : undefined
    if (step?.bash_restore) {
      // The first marker's range in the last tool message, restored through the shell tool.
      const c = (msg.messages || []).filter((m) => m.role === "tool").at(-1)?.content
      const t = typeof c === "string" ? c : (c || []).map((b) => b.text ?? "").join("")
      const m = t.match(/\w+\(id="([^"]+)", mode="lines", start=(\d+), end=(\d+)\)/) || []
      step = { tool: step.tool, input: { ...step.input, [step.field]: `${step.bash_restore} restore ${m[1] || "none"} --lines ${m[2] || 1}-${m[3] || 1}` } }
    }
    const chunk = (delta, finish) =>
      res.write(`data: ${JSON.stringify({ id: `c${seen}`, object: "chat.completion.chunk", created: 0, model: msg.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`)
    res.writeHead(200, { "content-type": "text/event-stream" })
    if (step) {
      chunk({ role: "assistant", tool_calls: [{ index: 0, id: `call_${done + 1}`, type: "function", function: { name: step.tool, arguments: JSON.stringify(step.input) } }] }, null)
      chunk({}, "tool_calls")
    } else {
      chunk({ role: "assistant", content: "done" }, null)
      chunk({}, "stop")
    }
    res.write(`data: ${JSON.stringify({ id: `c${seen}`, object: "chat.completion.chunk", created: 0, model: msg.model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`)
    res.end("data: [DONE]\n\n")
  })
}).listen(0, "127.0.0.1", function () {
  writeFileSync(`${dir}/port`, String(this.address().port))
})
