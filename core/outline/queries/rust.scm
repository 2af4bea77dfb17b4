; Outline query for Rust (captures: see python.scm). Attributes and doc comments are sibling
; nodes in this grammar, so a symbol's range starts at its visibility or keyword.

(function_item name: (identifier) @name body: (block) @body) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name body: (_) @body) @definition.struct
(struct_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name body: (enum_variant_list) @body) @definition.enum
(union_item name: (type_identifier) @name body: (field_declaration_list) @body) @definition.union
(trait_item name: (type_identifier) @name body: (declaration_list) @body) @definition.trait
; An impl is named by its type (generic arguments dropped): `impl<T> Display for List<T>` is `List`.
(impl_item type: (_) @name body: (declaration_list) @body) @definition.impl
(mod_item name: (identifier) @name body: (declaration_list) @body) @definition.module
; mod x; (the module's code is in another file).
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
(type_item name: (type_identifier) @name) @definition.type
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
