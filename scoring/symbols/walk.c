// The definition walk of upstream extract_defs and the naming of
// _best_name_for_def, in C over tree-sitter's own cursor: stepping a
// cursor from Go costs a cgo call a node, and a query cursor computes
// field and supertype states this walk does not need.
#include <stdlib.h>
#include <string.h>

#include "walk.h"

const TSLanguage *tj_language(int i) {
	switch (i) {
	case 0: return tree_sitter_python();
	case 1: return tree_sitter_javascript();
	case 2: return tree_sitter_typescript();
	case 3: return tree_sitter_tsx();
	case 4: return tree_sitter_java();
	case 5: return tree_sitter_go();
	case 6: return tree_sitter_rust();
	case 7: return tree_sitter_c();
	case 8: return tree_sitter_cpp();
	case 9: return tree_sitter_c_sharp();
	case 10: return tree_sitter_php();
	case 11: return tree_sitter_ruby();
	case 12: return tree_sitter_swift();
	case 13: return tree_sitter_kotlin();
	case 14: return tree_sitter_scala();
	}
	return NULL;
}

// How many nodes a walk visits between looks at the cancellation flag.
#define CHECK_EVERY 4096

static uint8_t cls_of(const tj_grammar *g, TSSymbol s) { return s < g->nsym ? g->cls[s] : 0; }
static int16_t rank_of(const tj_grammar *g, TSSymbol s) { return s < g->nsym ? g->rank[s] : -1; }

// blank reports whether src[s:e] (clamped to len, as Python slices are)
// decodes to nothing but what Python's str.strip() removes: ASCII
// whitespace, 0x1c-0x1f, and U+0085, U+00A0, U+1680, U+2000-U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000 when validly encoded. Any other
// byte is, or decodes to, a character strip() keeps (invalid UTF-8 becomes
// U+FFFD).
static bool blank(const uint8_t *src, uint32_t len, uint32_t s, uint32_t e) {
	if (e > len) e = len;
	for (uint32_t i = s; i < e; i++) {
		uint8_t b = src[i];
		if (b < 0x80) {
			if ((b >= 0x09 && b <= 0x0d) || (b >= 0x1c && b <= 0x20)) continue;
			return false;
		}
		uint8_t b1 = i + 1 < e ? src[i + 1] : 0, b2 = i + 2 < e ? src[i + 2] : 0;
		if (b == 0xc2 && (b1 == 0x85 || b1 == 0xa0)) { i += 1; continue; }
		if (b == 0xe1 && b1 == 0x9a && b2 == 0x80) { i += 2; continue; }
		if (b == 0xe2 && b1 == 0x80 && ((b2 >= 0x80 && b2 <= 0x8a) || b2 == 0xa8 || b2 == 0xa9 || b2 == 0xaf)) { i += 2; continue; }
		if (b == 0xe2 && b1 == 0x81 && b2 == 0x9f) { i += 2; continue; }
		if (b == 0xe3 && b1 == 0x80 && b2 == 0x80) { i += 2; continue; }
		return false;
	}
	return true;
}

// A name search's result: the first best-ranked identifier in pre-order.
typedef struct {
	int16_t rank;
	uint32_t start, end;
} hit;

// memo maps a definition node (by subtree and position) to the result of
// a search over its whole subtree, for enclosing searches to reuse.
typedef struct {
	const void *id;
	uint32_t start;
	hit h;
} memo_entry;

typedef struct {
	memo_entry *slots;
	uint32_t mask;
} memo;

static uint32_t memo_slot(const memo *m, const void *id, uint32_t start) {
	uint64_t k = (uint64_t)(uintptr_t)id * 0x9e3779b97f4a7c15ull ^ start;
	uint32_t i = (uint32_t)(k >> 32) & m->mask;
	while (m->slots[i].id && !(m->slots[i].id == id && m->slots[i].start == start)) i = (i + 1) & m->mask;
	return i;
}

static bool same(TSNode a, TSNode b) { return a.id == b.id && ts_node_start_byte(a) == ts_node_start_byte(b); }

// best_name is _best_name_for_def: the "name" field's text when it is not
// blank; else the first best-ranked, non-blank, named identifier node in a
// pre-order walk of the "declarator" field or of the def itself. Returns
// false when cancelled.
static bool best_name(const tj_grammar *g, TSNode def, const uint8_t *src, uint32_t len, TSTreeCursor *cur, memo *m,
                      const volatile size_t *cancel, hit *out) {
	if (g->name_field) {
		TSNode nn = ts_node_child_by_field_id(def, g->name_field);
		if (!ts_node_is_null(nn) && !blank(src, len, ts_node_start_byte(nn), ts_node_end_byte(nn))) {
			*out = (hit){0, ts_node_start_byte(nn), ts_node_end_byte(nn)};
			return true;
		}
	}
	TSNode root = def;
	if (g->declarator_field) {
		TSNode d = ts_node_child_by_field_id(def, g->declarator_field);
		if (!ts_node_is_null(d)) root = d;
	}
	hit best = {INT16_MAX, 0, 0};
	ts_tree_cursor_reset(cur, root);
	for (uint32_t steps = 1;; steps++) {
		if (steps % CHECK_EVERY == 0 && *cancel) return false;
		TSNode n = ts_tree_cursor_current_node(cur);
		TSSymbol s = ts_node_symbol(n);
		bool descend = true;
		bool memoized = false;
		if ((cls_of(g, s) & CLS_DEF) && !same(n, root)) {
			memo_entry *e = &m->slots[memo_slot(m, n.id, ts_node_start_byte(n))];
			if (e->id) {
				memoized = true;
				descend = false;
				if (e->h.rank < best.rank) best = e->h;
			}
		}
		if (!memoized) {
			int16_t r = rank_of(g, s);
			if (r >= 0 && r < best.rank && ts_node_is_named(n)) {
				uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
				if (!blank(src, len, a, b)) best = (hit){r, a, b};
			}
		}
		if (best.rank == 0) break;
		if (descend && ts_tree_cursor_goto_first_child(cur)) continue;
		bool more = false;
		while (!(more = ts_tree_cursor_goto_next_sibling(cur))) {
			if (!ts_tree_cursor_goto_parent(cur)) break;
		}
		if (!more) break;
	}
	if (same(root, def)) {
		memo_entry *e = &m->slots[memo_slot(m, def.id, ts_node_start_byte(def))];
		*e = (memo_entry){def.id, ts_node_start_byte(def), best};
	}
	*out = best;
	return true;
}

// pure_virtual reports whether n has a direct child of class
// CLS_PURE_VIRTUAL.
static bool pure_virtual(const tj_grammar *g, TSNode n, TSTreeCursor *cur) {
	ts_tree_cursor_reset(cur, n);
	for (bool ok = ts_tree_cursor_goto_first_child(cur); ok; ok = ts_tree_cursor_goto_next_sibling(cur)) {
		if (cls_of(g, ts_node_symbol(ts_tree_cursor_current_node(cur))) & CLS_PURE_VIRTUAL) return true;
	}
	return false;
}

typedef struct {
	TSNode *nodes;
	uint32_t n, cap;
} node_list;

static bool push(node_list *l, TSNode n) {
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 64;
		TSNode *p = realloc(l->nodes, (size_t)cap * sizeof *p);
		if (!p) return false;
		l->nodes = p;
		l->cap = cap;
	}
	l->nodes[l->n++] = n;
	return true;
}

// collect is extract_defs: depth-first pre-order from the root, skipping
// anonymous and comment nodes with their subtrees, descending into
// definitions.
static int collect(const tj_grammar *g, TSNode root, TSTreeCursor *cur, TSTreeCursor *aux, const volatile size_t *cancel, node_list *out) {
	ts_tree_cursor_reset(cur, root);
	for (uint32_t steps = 1;; steps++) {
		if (steps % CHECK_EVERY == 0 && *cancel) return TJ_CANCELLED;
		TSNode n = ts_tree_cursor_current_node(cur);
		uint8_t c = cls_of(g, ts_node_symbol(n));
		bool skip = (c & CLS_COMMENT) || !ts_node_is_named(n);
		if (!skip && (c & CLS_DEF) && !(g->drop_pure_virtual && pure_virtual(g, n, aux))) {
			if (!push(out, n)) return TJ_NO_MEMORY;
		}
		if (!skip && ts_tree_cursor_goto_first_child(cur)) continue;
		while (!ts_tree_cursor_goto_next_sibling(cur)) {
			if (!ts_tree_cursor_goto_parent(cur)) return TJ_OK;
		}
	}
}

int tj_defs(TSParser *p, const tj_grammar *g, const char *src, uint32_t len, const volatile size_t *cancel, tj_def **defs, uint32_t *n) {
	*defs = NULL;
	*n = 0;
	TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
	if (!tree) return *cancel ? TJ_CANCELLED : TJ_PARSE_FAILED;
	TSNode root = ts_tree_root_node(tree);
	TSTreeCursor cur = ts_tree_cursor_new(root), aux = ts_tree_cursor_new(root);
	node_list nodes = {0};
	memo m = {0};
	tj_def *out = NULL;
	int rc = collect(g, root, &cur, &aux, cancel, &nodes);
	if (rc == TJ_OK && nodes.n > 0) {
		uint32_t size = 16;
		while (size < 2 * nodes.n) size *= 2;
		m.slots = calloc(size, sizeof *m.slots);
		m.mask = size - 1;
		out = malloc((size_t)nodes.n * sizeof *out);
		if (!m.slots || !out) rc = TJ_NO_MEMORY;
	}
	// Name innermost first, so a def's whole-subtree search is memoized
	// before any enclosing search walks over it (nested nameless arrows
	// would otherwise be quadratic).
	for (uint32_t i = nodes.n; rc == TJ_OK && i-- > 0;) {
		TSNode d = nodes.nodes[i];
		hit h;
		if (!best_name(g, d, (const uint8_t *)src, len, &cur, &m, cancel, &h)) {
			rc = TJ_CANCELLED;
			break;
		}
		out[i] = (tj_def){ts_node_start_byte(d), ts_node_end_byte(d), h.start, h.end, ts_node_symbol(d), h.rank != INT16_MAX};
	}
	ts_tree_cursor_delete(&cur);
	ts_tree_cursor_delete(&aux);
	free(nodes.nodes);
	free(m.slots);
	ts_tree_delete(tree);
	if (rc != TJ_OK) {
		free(out);
		return rc;
	}
	*defs = out;
	*n = nodes.n;
	return TJ_OK;
}
