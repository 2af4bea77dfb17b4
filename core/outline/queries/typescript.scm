; Outline query for TypeScript and TSX (captures: see python.scm). No predicates are used.

(function_declaration name: (identifier) @name body: (statement_block) @body) @definition.function
(generator_function_declaration name: (identifier) @name body: (statement_block) @body) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name body: (class_body) @body) @definition.class
(abstract_class_declaration name: (type_identifier) @name body: (class_body) @body) @definition.class
(method_definition name: (_) @name body: (statement_block) @body) @definition.method
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(public_field_definition name: (_) @name value: (arrow_function body: (_) @body)) @definition.method

; var Hono = class Hono {...}; const X = class {...}: the class, named by its variable.
(lexical_declaration
  (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @definition.class
(variable_declaration
  (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @definition.class

; `declare function f(): T;`, `declare class C {...}`: the symbol includes `declare`.
(ambient_declaration (function_signature name: (identifier) @name)) @definition.function
(ambient_declaration (class_declaration name: (type_identifier) @name body: (class_body) @body)) @definition.class
(ambient_declaration (abstract_class_declaration name: (type_identifier) @name body: (class_body) @body)) @definition.class
(ambient_declaration (enum_declaration name: (identifier) @name body: (enum_body) @body)) @definition.enum
(ambient_declaration (internal_module name: (_) @name body: (statement_block) @body)) @definition.namespace
(interface_declaration name: (type_identifier) @name body: (interface_body) @body) @definition.interface
(type_alias_declaration name: (type_identifier) @name value: (object_type) @body) @definition.type
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name body: (enum_body) @body) @definition.enum
(internal_module name: (_) @name body: (statement_block) @body) @definition.namespace
(module name: (_) @name body: (statement_block) @body) @definition.module

(lexical_declaration
  (variable_declarator name: (identifier) @name value: (arrow_function body: (_) @body))) @definition.function
(lexical_declaration
  (variable_declarator name: (identifier) @name value: (function_expression body: (_) @body))) @definition.function
(variable_declaration
  (variable_declarator name: (identifier) @name value: (arrow_function body: (_) @body))) @definition.function
(variable_declaration
  (variable_declarator name: (identifier) @name value: (function_expression body: (_) @body))) @definition.function

(pair key: (property_identifier) @name
      value: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]) @definition.method

(program (lexical_declaration (variable_declarator name: (identifier) @name value: (object) @body)) @definition.variable)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: (object) @body))) @definition.variable)
