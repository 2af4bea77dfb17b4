// sutra for OpenCode: compresses large tool output before the model reads it.
// Installed by `sutra install --client opencode`; removed by `sutra uninstall --client opencode`.
// Generated file (sutra-opencode-plugin v1): edits are lost on the next install.
//
// Each `tool.execute.after` payload goes to `sutra-host --adapter opencode` on stdin; its answer
// ({"output": VIEW} for built-in tools, {"content": [...]} for MCP tools) is written into the
// output object in place, which is what OpenCode hands to the model. On any error, a timeout or
// an empty answer the output stays exactly as it was.
import { spawn } from "node:child_process"
import { lstatSync } from "node:fs"

const SUTRA_HOST = "@SUTRA_HOST@"
const TIMEOUT_MS = 30000

function runHost(payload) {
  return new Promise((resolve) => {
    let child
    try {
      child = spawn(SUTRA_HOST, ["--adapter", "opencode"], { stdio: ["pipe", "pipe", "ignore"] })
    } catch {
      resolve("")
      return
    }
    const chunks = []
    let done = false
    const finish = (text) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resolve(text)
    }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL")
      } catch {}
      finish("")
    }, TIMEOUT_MS)
    child.on("error", () => finish(""))
    child.stdout.on("data", (chunk) => chunks.push(chunk))
    child.on("close", (code) => finish(code === 0 ? Buffer.concat(chunks).toString("utf8") : ""))
    child.stdin.on("error", () => {})
    child.stdin.end(payload)
  })
}

export const SutraPlugin = async () => ({
  "tool.execute.after": async (input, output) => {
    try {
      if (!input || !output || typeof output !== "object") return
      const envelope = { hook: "tool.execute.after", input, output }
      const meta = output.metadata
      // The preview is cut before this hook; sutra-host reads the full file only if its size
      // still matches what we saw here.
      if (meta && meta.truncated === true && typeof meta.outputPath === "string") {
        try {
          envelope.output_file_size = lstatSync(meta.outputPath).size
        } catch {}
      }
      const text = await runHost(JSON.stringify(envelope))
      if (!text) return
      const answer = JSON.parse(text)
      if (typeof answer.output === "string" && typeof output.output === "string") {
        output.output = answer.output
      } else if (Array.isArray(answer.content) && Array.isArray(output.content)) {
        output.content = answer.content
      }
    } catch {
      // fail open: OpenCode keeps the original output
    }
  },
})
