; Outline query for Bash (captures: see python.scm). The grammar ships no tags.scm; functions
; are the symbols of a script.

(function_definition name: (word) @name body: (_) @body) @definition.function
