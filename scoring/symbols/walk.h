#ifndef TRAJSCOPE_WALK_H
#define TRAJSCOPE_WALK_H

#include "tsapi.h"

// Symbol classes, by symbol id.
enum { CLS_DEF = 1, CLS_COMMENT = 2, CLS_PURE_VIRTUAL = 4 };

// Names here start tj_ (trajscope's), apart from tree-sitter's ts_.

// tj_grammar is what the walk reads of one grammar: per symbol id its class
// and identifier rank (-1 when not an identifier type), and the ids of the
// "name" and "declarator" fields (0 when the grammar has none).
typedef struct {
	const uint8_t *cls;
	const int16_t *rank;
	uint32_t nsym;
	TSFieldId name_field, declarator_field;
	bool drop_pure_virtual;
} tj_grammar;

// tj_def is one definition node; name_start/name_end locate the node its
// name is the text of, when has_name.
typedef struct {
	uint32_t start, end, name_start, name_end;
	TSSymbol symbol;
	uint8_t has_name;
} tj_def;

enum { TJ_OK = 0, TJ_PARSE_FAILED = 1, TJ_CANCELLED = 2, TJ_NO_MEMORY = 3 };

// tj_defs parses src with p and lists its definitions in *defs (malloc'd,
// *n of them; the caller frees it). It returns TJ_OK or why not; p's
// cancellation flag, when raised, stops the parse and the walks.
int tj_defs(TSParser *p, const tj_grammar *g, const char *src, uint32_t len, const volatile size_t *cancel, tj_def **defs, uint32_t *n);

// tj_language is the grammar of a language index (see grammar.go), NULL
// when out of range.
const TSLanguage *tj_language(int i);

#endif
