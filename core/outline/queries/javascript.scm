; Outline query for JavaScript (captures: see python.scm). No predicates are used.

(function_declaration name: (identifier) @name body: (statement_block) @body) @definition.function
(generator_function_declaration name: (identifier) @name body: (statement_block) @body) @definition.function
(class_declaration name: (identifier) @name body: (class_body) @body) @definition.class
(method_definition name: (_) @name body: (statement_block) @body) @definition.method
; Class fields holding functions: fetch = (request) => {...}.
(field_definition property: (_) @name
  value: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]) @definition.method

; var Hono = class Hono {...}; const X = class {...}: the class, named by its variable.
(lexical_declaration
  (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @definition.class
(variable_declaration
  (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @definition.class

; const f = () => {...}; const g = function () {...};
(lexical_declaration
  (variable_declarator name: (identifier) @name value: (arrow_function body: (_) @body))) @definition.function
(lexical_declaration
  (variable_declarator name: (identifier) @name value: (function_expression body: (_) @body))) @definition.function
(variable_declaration
  (variable_declarator name: (identifier) @name value: (arrow_function body: (_) @body))) @definition.function
(variable_declaration
  (variable_declarator name: (identifier) @name value: (function_expression body: (_) @body))) @definition.function

; module.exports.f = function () {...}; obj.f = () => {...};
(expression_statement
  (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: [(function_expression body: (_) @body) (arrow_function body: (_) @body)])) @definition.function

; Functions held by object keys: { f() {...} } is a method_definition above; these are
; { f: () => {...} } and { "a.b": async () => {...} }.
(pair key: (property_identifier) @name
      value: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]) @definition.method
(pair key: (string (string_fragment) @name)
      value: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]) @definition.method

; Top-level objects (plugin tables, configuration) hold the methods above.
(program (lexical_declaration (variable_declarator name: (identifier) @name value: (object) @body)) @definition.variable)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: (object) @body))) @definition.variable)
