#pragma once
// Install and uninstall of whole files that sutra owns in a host's folders (OpenCode's plugin
// file, Hermes' plugin folder), and the values install bakes into them as string literals. The
// plans these return are written by apply_plans (files.hpp), with its backups and atomic writes.

#include "plugins/common/files.hpp"

#include <optional>
#include <string>

namespace sutra::plugins::common {

/// The change to write `content` to a file sutra owns. A file that exists without `marker` is
/// the user's: throws, so nothing at all is written.
std::optional<FilePlan>
plan_owned_install(const std::string& path, const std::string& content, const std::string& marker);

/// The change that removes a file sutra owns: deletes it, and only the backups a record names
/// (files.hpp, backup_record); any other FILE.sutra-backup is the user's and stays. A file
/// without `marker` is left alone (nullopt).
std::optional<FilePlan> plan_owned_uninstall(const std::string& path, const std::string& marker);

/// Replaces every `placeholder` in `text` with `value` as a double-quoted string literal that
/// JavaScript and Python both read back exactly (JSON escapes, UTF-8 kept raw).
std::string bake_string(std::string text, const std::string& placeholder, const std::string& value);

/// The string literal a baked file holds after `prefix` (e.g. `const SUTRA_HOST = `), decoded.
std::optional<std::string> baked_string(const std::string& text, const std::string& prefix);

} // namespace sutra::plugins::common
