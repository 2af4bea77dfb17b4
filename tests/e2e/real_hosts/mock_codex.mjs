// Loopback mock of the OpenAI Responses API for Codex (docs/adapters.md, "Real hosts"). Reply N answers the
// request that already carries N function_call_output items: MOCK_STEPS is a JSON array of
// {"tool": NAME, "input": {...}} or {"bash_restore": SUTRA, "tool", "field", "input"} (the first
// marker's range in the last output, restored by `SUTRA restore` put in input[field]) or
// {"mcp_restore": true, "tool", "namespace"} (that range asked of the MCP tool); past the
// end it says "done". Every request body is saved as
// $MOCK_DIR/req-N.json; the port goes to $MOCK_DIR/port.
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
    const done = (msg.input || []).filter((i) => i.type === "function_call_output").length
    let step = steps[done]
    if (step?.bash_restore) {
      // The first marker's range in the last output, restored through the shell tool.
      const outs = (msg.input || []).filter((i) => i.type === "function_call_output")
      const o = outs.at(-1)?.output
      const t = typeof o === "string" ? o : (o || []).map((b) => b.text ?? "").join("")
      const m = t.match(/\w+\(id="([^"]+)", mode="lines", start=(\d+), end=(\d+)\)/) || []
      step = { tool: step.tool, input: { ...step.input, [step.field]: `${step.bash_restore} restore ${m[1] || "none"} --lines ${m[2] || 1}-${m[3] || 1}` } }
    } else if (step?.mcp_restore) {
      // The model calls the MCP tool the first marker names, with that marker's range.
      const outs = (msg.input || []).filter((i) => i.type === "function_call_output")
      const o = outs.at(-1)?.output
      const t = typeof o === "string" ? o : (o || []).map((b) => b.text ?? "").join("")
      const m = t.match(/\w+\(id="([^"]+)", mode="lines", start=(\d+), end=(\d+)\)/) || []
      step = { tool: step.tool, namespace: step.namespace, input: { id: m[1] || "none", mode: "lines", start: Number(m[2] || 1), end: Number(m[3] || 1) } }
    }
    const id = `resp_${seen}`
    const item = step
      ? { type: "function_call", id: `fc_${done + 1}`, call_id: `call_${done + 1}`, name: step.tool, ...(step.namespace ? { namespace: step.namespace } : {}), arguments: JSON.stringify(step.input) }
      : { type: "message", id: `msg_${seen}`, role: "assistant", content: [{ type: "output_text", text: "done", annotations: [] }] }
    const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
    res.writeHead(200, { "content-type": "text/event-stream" })
    ev("response.created", { response: { id } })
    ev("response.output_item.added", { output_index: 0, item })
    ev("response.output_item.done", { output_index: 0, item })
    ev("response.completed", { response: { id, usage: { input_tokens: 10, input_tokens_details: null, output_tokens: 5, output_tokens_details: null, total_tokens: 15 } } })
    res.end()
  })
}).listen(0, "127.0.0.1", function () {
  writeFileSync(`${dir}/port`, String(this.address().port))
})
