; Outline query for C++ (captures: see python.scm). A template's symbol includes its
; `template <...>` header (the wider template_declaration wins over the node inside it).

(function_definition
  declarator: (function_declarator declarator: (_) @name) body: (_) @body) @definition.function
(function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (_) @name)) body: (_) @body) @definition.function
(function_definition
  declarator: (reference_declarator
    (function_declarator declarator: (_) @name)) body: (_) @body) @definition.function
; char* const* Argv() {...}: two pointer levels.
(function_definition
  declarator: (pointer_declarator declarator: (pointer_declarator
    declarator: (function_declarator declarator: (_) @name))) body: (_) @body) @definition.function
; Conversion operators: explicit operator bool() const {...}, S::operator int() const {...}
; (the name is cut before its parameters in extract.cpp).
(function_definition declarator: (operator_cast) @name body: (_) @body) @definition.function
(function_definition
  declarator: (qualified_identifier name: (operator_cast)) @name body: (_) @body) @definition.function
(template_declaration
  (function_definition declarator: (operator_cast) @name body: (_) @body)) @definition.function
(declaration declarator: (operator_cast) @name) @definition.declaration
; `= default`, `= delete`: no body.
(function_definition declarator: (function_declarator declarator: (_) @name)) @definition.function

(template_declaration (function_definition
  declarator: (function_declarator declarator: (_) @name) body: (_) @body)) @definition.function
(template_declaration (function_definition
  declarator: (pointer_declarator
    declarator: (function_declarator declarator: (_) @name)) body: (_) @body)) @definition.function
(template_declaration (function_definition
  declarator: (reference_declarator
    (function_declarator declarator: (_) @name)) body: (_) @body)) @definition.function

; Prototypes and member function declarations (those inside function bodies are dropped).
(declaration declarator: (function_declarator declarator: (_) @name)) @definition.declaration
(declaration declarator: (pointer_declarator
  declarator: (function_declarator declarator: (_) @name))) @definition.declaration
(declaration declarator: (reference_declarator
  (function_declarator declarator: (_) @name))) @definition.declaration
(field_declaration declarator: (function_declarator declarator: (_) @name)) @definition.declaration
(field_declaration declarator: (pointer_declarator
  declarator: (function_declarator declarator: (_) @name))) @definition.declaration
(field_declaration declarator: (reference_declarator
  (function_declarator declarator: (_) @name))) @definition.declaration
(template_declaration
  (declaration declarator: (function_declarator declarator: (_) @name))) @definition.declaration

; A function returning a function pointer: void (*signal(int sig, void (*f)(int)))(int).
(function_definition
  declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator
    declarator: (function_declarator declarator: (_) @name)))) body: (_) @body) @definition.function
(declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator
  declarator: (function_declarator declarator: (_) @name))))) @definition.declaration

(class_specifier name: (_) @name body: (field_declaration_list) @body) @definition.class
(struct_specifier name: (_) @name body: (field_declaration_list) @body) @definition.struct
(union_specifier name: (_) @name body: (field_declaration_list) @body) @definition.union
(enum_specifier name: (_) @name body: (enumerator_list) @body) @definition.enum
(template_declaration
  (class_specifier name: (_) @name body: (field_declaration_list) @body)) @definition.class
(template_declaration
  (struct_specifier name: (_) @name body: (field_declaration_list) @body)) @definition.struct

(namespace_definition name: (_) @name body: (declaration_list) @body) @definition.namespace
(alias_declaration name: (type_identifier) @name) @definition.type
; typedef struct {...} Name: the signature shows the body as {…}.
(type_definition type: (_ body: (_) @body) declarator: (type_identifier) @name) @definition.type
(type_definition declarator: (type_identifier) @name) @definition.type
(concept_definition name: (identifier) @name) @definition.type
(preproc_function_def name: (identifier) @name) @definition.macro
(preproc_def name: (identifier) @name) @definition.macro
