; Outline query for Python (core/outline/extract.cpp reads the captures):
;   @definition.KIND  the symbol's node (its byte range), KIND its kind
;   @name             the node whose text is the symbol's name
;   @body             the part after the declaration (folded by `sutra symbol --compact`)
; Matches sharing a @name node collapse into the widest: a decorated function is one symbol,
; decorators included.

(function_definition name: (identifier) @name body: (block) @body) @definition.function
(class_definition name: (identifier) @name body: (block) @body) @definition.class

(decorated_definition
  definition: (function_definition name: (identifier) @name body: (block) @body)) @definition.function
(decorated_definition
  definition: (class_definition name: (identifier) @name body: (block) @body)) @definition.class

; Module-level names: constants, configuration, aliases.
(module (expression_statement (assignment left: (identifier) @name)) @definition.variable)
