; Outline query for JSON (captures: see python.scm): the top-level keys of an object document.

(document (object (pair key: (string (string_content) @name) value: (_) @body) @definition.key))
