// The part of tree-sitter's C API (api.h, MIT, as bundled by
// github.com/smacker/go-tree-sitter at the version go.mod names) that
// walk.c uses, declared as api.h declares it. The definitions are linked
// from go-tree-sitter's packages; TestAPIDeclarations checks each line
// below against the bundled api.h, so an upgrade that changes one fails.
#ifndef TRAJSCOPE_TSAPI_H
#define TRAJSCOPE_TSAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSNode { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct TSTreeCursor { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
void ts_parser_set_cancellation_flag(TSParser *self, const size_t *flag);
TSTree *ts_parser_parse_string( TSParser *self, const TSTree *old_tree, const char *string, uint32_t length );
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
TSSymbol ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
bool ts_node_is_null(TSNode self);
bool ts_node_is_named(TSNode self);
TSNode ts_node_child_by_field_id(TSNode self, TSFieldId field_id);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
void ts_tree_cursor_reset(TSTreeCursor *self, TSNode node);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
TSFieldId ts_language_field_id_for_name(const TSLanguage *self, const char *name, uint32_t name_length);

// The grammars, from go-tree-sitter's language packages.
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);
const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_go(void);
const TSLanguage *tree_sitter_rust(void);
const TSLanguage *tree_sitter_c(void);
const TSLanguage *tree_sitter_cpp(void);
const TSLanguage *tree_sitter_c_sharp(void);
const TSLanguage *tree_sitter_php(void);
const TSLanguage *tree_sitter_ruby(void);
const TSLanguage *tree_sitter_swift(void);
const TSLanguage *tree_sitter_kotlin(void);
const TSLanguage *tree_sitter_scala(void);

#endif
