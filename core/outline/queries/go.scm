; Outline query for Go (captures: see python.scm). @receiver qualifies a method by its
; receiver's type: func (s *Server) Run() is Server.Run. A spec's node leaves out its
; `type`/`var`/`const` keyword; build_outline (extract.cpp) widens a lone spec to it, while a
; spec in a `var ( ... )` group stays a line of the group.

(function_declaration name: (identifier) @name body: (block) @body) @definition.function
(method_declaration
  receiver: (parameter_list) @receiver name: (field_identifier) @name body: (block) @body) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(method_elem name: (field_identifier) @name) @definition.method
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))
