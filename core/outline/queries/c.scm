; Outline query for C (captures: see python.scm). Functions returning pointers nest their
; function_declarator inside pointer_declarators.

(function_definition
  declarator: (function_declarator declarator: (identifier) @name) body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name)) body: (compound_statement) @body) @definition.function
(function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name))) body: (compound_statement) @body) @definition.function

; Prototypes.
(declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.declaration
(declaration declarator: (pointer_declarator
  declarator: (function_declarator declarator: (identifier) @name))) @definition.declaration

; A function returning a function pointer: void (*signal(int sig, void (*f)(int)))(int).
(function_definition
  declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator
    declarator: (function_declarator declarator: (identifier) @name)))) body: (compound_statement) @body) @definition.function
(declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator
  declarator: (function_declarator declarator: (identifier) @name))))) @definition.declaration

(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.union
(enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum
; typedef struct {...} Name: the signature shows the body as {…}.
(type_definition type: (_ body: (_) @body) declarator: (type_identifier) @name) @definition.type
(type_definition declarator: (type_identifier) @name) @definition.type
(preproc_function_def name: (identifier) @name) @definition.macro
(preproc_def name: (identifier) @name) @definition.macro
