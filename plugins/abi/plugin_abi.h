/* sutra adapter plugin ABI, version 1. C-compatible: an adapter may be written in any language
 * that can export a C function.
 *
 * A module exports exactly one symbol, `sutra_plugin_entry`, returning a pointer to a static
 * descriptor. The dispatcher checks `abi_version` and `struct_size` before touching any other
 * field, so later versions may append fields without breaking older modules.
 *
 * Every function takes UTF-8 JSON text (pointer + length, not necessarily NUL-terminated) and
 * returns a NUL-terminated string allocated by the module, which the dispatcher releases with the
 * module's own `free_string`. A NULL return means "error": the dispatcher fails open. No function
 * may throw or longjmp across this boundary.
 *
 * The lifecycle of one hook call (see docs/adapters.md):
 *   1. decode(payload) -> {"action":"compress"|"pass"|"respond", "output", "tool", "command",
 *      "exit_code", "namespace", "mode", "session", "context", "read_file":{"path","size",
 *      "allowed_dir","name_prefix","name_suffix"},
 *      "route":{"kind":"cli"|"mcp","tool"}, "reason"}
 *      "mode" is one of "auto", "concise", "normal", "verbose", "full" (docs/configuration.md);
 *      any other value is ignored. "namespace" is the store namespace the original goes into:
 *      1-64 of [A-Za-z0-9_.-], not "." or ".."; any other value fails open. "session" (added
 *      within version 1) is the host's session id, kept in the stats log only when it is 1-128
 *      of [A-Za-z0-9_.:-] (core/stats.hpp). "context" (added within version 1) is any JSON
 *      value, handed back to encode unchanged. "host_cut" (added within version 1):
 *      {"over","head","tail","window"}, what the host would show the model of this output
 *      without sutra (core/host_cut.hpp), for the stats log's savings against it.
 *      "respond" (added within version 1) means the module answers the hook itself: `output`
 *      holds the exact bytes to print and nothing is compressed (Claude Code's PreToolUse
 *      rewrite). A dispatcher that predates it treats any action but "compress" as a pass.
 *      When `read_file` is present the dispatcher (not the module) reads that file under every
 *      safety check and uses its bytes as the output; any failed check means pass-through.
 *      The host's file names are `name_prefix`, 1-120 of [A-Za-z0-9_-], `name_suffix`
 *      (added within version 1; defaults "" and ".txt").
 *   2. the dispatcher runs the core and, only when the core rewrote the output,
 *   3. encode(payload, result) -> the exact bytes to print on the hook's stdout; an empty string
 *      means print nothing (the host keeps its original result). `result` is
 *      {"view","rewritten","id","original_bytes","context"}: "context" (added within version 1)
 *      is decode's own "context" value handed back unchanged, so that encode need not parse a
 *      large payload twice; it is absent when decode gave none, or under an older dispatcher.
 * install/uninstall/detect/doctor take an options object and return a result object
 * ({"ok", "changed", "files", "messages", "error"}; detect: {"found", "installed", ...}); see
 * docs/adapters.md. The options the `sutra` CLI passes:
 *   "host_program"  absolute path of sutra-host, the hook command's program (always)
 *   "sutra_program" absolute path of sutra, for an MCP registration (always)
 *   "dry_run"       true: plan and report, write nothing (always)
 *   "bash_route"    "always" | "off" (Claude Code's PreToolUse route; install only, when given;
 *                   the older spelling "wrap_bash": true means "always")
 *   "raise_output_cap" true (Codex; install only, when given)
 *   "statusline"    true (Claude Code; install only, when given)
 *   "mcp_tools"     array of "files" | "exec": MCP tools beyond restore/compress/stats
 *   "profile"       Hermes profile name (when given)
 * A module ignores options it does not know; a CLI that predates an option never sends it, so a
 * module must treat an absent option as that option's default.
 *
 * What the dispatcher understands (added within version 1, "minor" 1): a module whose descriptor
 * is long enough to hold `host_features` and sets it is called once, right after loading and
 * before any other call, with
 *   {"abi_version":1, "abi_minor":N, "decode":[field names], "actions":[decode actions],
 *    "result":[encode's result fields], "options":[install option names]}
 * so a module can tell whether this dispatcher reads, say, "host_cut" or the "respond" action
 * before relying on it; nested fields are spelled "read_file.name_prefix". A later minor only adds
 * names. The text is valid during the call only. A dispatcher that predates it never calls it, so
 * a module must treat "not called" as minor 0: the fields the first version 1 documented. Modules
 * built before it (struct_size == SUTRA_PLUGIN_V1_0_SIZE) load as before.
 */
#ifndef SUTRA_PLUGIN_ABI_H
#define SUTRA_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define SUTRA_PLUGIN_NOEXCEPT noexcept
extern "C" {
#else
#define SUTRA_PLUGIN_NOEXCEPT
#endif

#define SUTRA_PLUGIN_ABI_VERSION 1u
#define SUTRA_PLUGIN_ENTRY_SYMBOL "sutra_plugin_entry"

/** Returns an allocated JSON (or output) string, or NULL on error. */
typedef char* (*sutra_plugin_call_fn)(const char* json, size_t json_len) SUTRA_PLUGIN_NOEXCEPT;

typedef struct sutra_plugin_v1 {
    uint32_t abi_version; /**< SUTRA_PLUGIN_ABI_VERSION the module was built against */
    uint32_t struct_size; /**< sizeof(sutra_plugin_v1) in the module */
    const char* name;     /**< adapter name, e.g. "claude"; static storage */
    const char* description;

    /** Hook payload -> normalized request (see above). */
    sutra_plugin_call_fn decode;
    /** Hook payload + core result -> bytes for the hook's stdout ("" = pass through). */
    char* (*encode)(const char* payload,
                    size_t payload_len,
                    const char* result,
                    size_t result_len) SUTRA_PLUGIN_NOEXCEPT;
    sutra_plugin_call_fn install;
    sutra_plugin_call_fn uninstall;
    sutra_plugin_call_fn detect;
    sutra_plugin_call_fn doctor;
    /** Releases a string returned by any function above. NULL is ignored. */
    void (*free_string)(char* text) SUTRA_PLUGIN_NOEXCEPT;
    /** Optional (NULL: not wanted): what the dispatcher understands, see above. */
    void (*host_features)(const char* json, size_t json_len) SUTRA_PLUGIN_NOEXCEPT;
} sutra_plugin_v1;

/** The descriptor's size as version 1 first shipped it, before host_features: the least a
 *  dispatcher accepts. */
#define SUTRA_PLUGIN_V1_0_SIZE offsetof(sutra_plugin_v1, host_features)

typedef const sutra_plugin_v1* (*sutra_plugin_entry_fn)(void);

#if defined(_WIN32)
#define SUTRA_PLUGIN_EXPORT __declspec(dllexport)
#else
#define SUTRA_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
}
#endif

#endif /* SUTRA_PLUGIN_ABI_H */
