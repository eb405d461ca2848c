//go:build cgo

package pyparse

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

// The few declarations of tree_sitter/api.h (go-tree-sitter v0.25) this
// file uses. The runtime itself is compiled and linked by the go-tree-sitter
// package; the grammar by tree-sitter-python's Go binding.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));
extern TSParser *ts_parser_new(void);
extern void ts_parser_delete(TSParser *);
extern bool ts_parser_set_language(TSParser *, const TSLanguage *);
extern TSTree *ts_parser_parse_string(TSParser *, const TSTree *, const char *, uint32_t);
extern void ts_tree_delete(TSTree *);
extern TSNode ts_tree_root_node(const TSTree *);
extern uint32_t ts_node_descendant_count(TSNode);
extern bool ts_node_has_error(TSNode);
extern bool ts_node_is_missing(TSNode);
extern bool ts_node_is_named(TSNode);
extern uint16_t ts_node_symbol(TSNode);
extern uint32_t ts_node_end_byte(TSNode);
extern TSTreeCursor ts_tree_cursor_new(TSNode);
extern void ts_tree_cursor_delete(TSTreeCursor *);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
extern uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *);

// go-tree-sitter routes every malloc of the C runtime through Go
// callbacks (a cgo round trip each, a third of the parse time); put the
// C library's own allocator back.
static void vk_use_libc_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }

typedef struct {
	uint16_t sym, field;
	uint32_t start, end;
	int32_t parent;
} vk_node;

static TSParser *vk_new_parser(const void *lang) {
	TSParser *p = ts_parser_new();
	if (!ts_parser_set_language(p, (const TSLanguage *)lang)) {
		ts_parser_delete(p);
		return NULL;
	}
	return p;
}

// vk_parse parses src and returns the tree, its node count and whether it
// holds errors.
static TSTree *vk_parse(TSParser *p, const char *src, uint32_t len, uint32_t *count, bool *err) {
	TSTree *t = ts_parser_parse_string(p, NULL, src, len);
	if (!t) return NULL;
	TSNode root = ts_tree_root_node(t);
	*count = ts_node_descendant_count(root);
	*err = ts_node_has_error(root);
	return t;
}

// vk_flatten writes the tree in pre-order, leaving out anonymous nodes
// that have no field (punctuation and keywords). It returns the number of
// nodes written (-1 when out of memory) and the byte offset of the first
// ERROR or MISSING node (or -1).
static int vk_flatten(TSTree *t, vk_node *out, int cap, int64_t *first_error) {
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
	int n = 0, depth = 0, stack_cap = 64;
	// stack[d] is the index of the kept node that parents nodes at depth d.
	int *stack = malloc(sizeof(int) * stack_cap);
	if (!stack) return -1;
	stack[0] = -1;
	*first_error = -1;
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&c);
		uint16_t sym = ts_node_symbol(node);
		uint16_t field = ts_tree_cursor_current_field_id(&c);
		if (*first_error < 0 && (sym == 65535 || ts_node_is_missing(node))) *first_error = node.context[0];
		int me = stack[depth];
		if ((depth == 0 || field != 0 || ts_node_is_named(node)) && n < cap) {
			vk_node *v = &out[n];
			v->sym = sym;
			v->field = field;
			v->start = node.context[0];
			v->end = ts_node_end_byte(node);
			v->parent = stack[depth];
			me = n++;
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
			if (++depth == stack_cap) {
				stack_cap *= 2;
				int *grown = realloc(stack, sizeof(int) * stack_cap);
				if (!grown) { free(stack); ts_tree_cursor_delete(&c); return -1; }
				stack = grown;
			}
			stack[depth] = me;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (!ts_tree_cursor_goto_parent(&c)) {
				free(stack);
				ts_tree_cursor_delete(&c);
				return n;
			}
			depth--;
		}
	}
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

type cNode = C.vk_node

// grammar holds the tables that turn tree-sitter's numeric symbols and
// field ids into names.
type grammar struct {
	ptr    unsafe.Pointer
	kinds  []string
	named  []bool
	fields []string
	err    error
}

var lang = loadGrammar()

func loadGrammar() *grammar {
	C.vk_use_libc_allocator()
	g := &grammar{ptr: python.Language()}
	l := sitter.NewLanguage(g.ptr)
	if v := l.AbiVersion(); v < sitter.MIN_COMPATIBLE_LANGUAGE_VERSION || v > sitter.LANGUAGE_VERSION {
		g.err = fmt.Errorf("pyparse: tree-sitter-python grammar has ABI %d, go-tree-sitter supports %d–%d "+
			"(pair go-tree-sitter v0.25.x with tree-sitter-python v0.25.x or v0.23.6)",
			v, sitter.MIN_COMPATIBLE_LANGUAGE_VERSION, sitter.LANGUAGE_VERSION)
		return g
	}
	n := l.NodeKindCount()
	g.kinds = make([]string, n)
	g.named = make([]bool, n)
	for i := range n {
		g.kinds[i] = l.NodeKindForId(uint16(i))
		g.named[i] = l.NodeKindIsNamed(uint16(i))
	}
	g.fields = make([]string, l.FieldCount()+1)
	for i := 1; i < len(g.fields); i++ {
		g.fields[i] = l.FieldNameForId(uint16(i))
	}
	return g
}

func (g *grammar) kind(sym uint16) (string, bool) {
	if int(sym) < len(g.kinds) {
		return g.kinds[sym], g.named[sym]
	}
	return "ERROR", true // ts_builtin_sym_error
}

// parsers is a small free list of C parsers; a parser is cheap but not
// free to set up, and is used by one goroutine at a time.
var parsers = make(chan *C.TSParser, 16)

func getParser() (*C.TSParser, error) {
	if lang.err != nil {
		return nil, lang.err
	}
	select {
	case p := <-parsers:
		return p, nil
	default:
	}
	p := C.vk_new_parser(lang.ptr)
	if p == nil {
		return nil, fmt.Errorf("pyparse: tree-sitter refused the python grammar")
	}
	return p, nil
}

func putParser(p *C.TSParser) {
	select {
	case parsers <- p:
	default:
		C.ts_parser_delete(p)
	}
}

// chunk is the parse of src[base:base+len(text)].
type chunk struct {
	root       []lintNode // arena; root[0] is the module node
	firstError int        // absolute byte offset, or -1
	hasError   bool
}

// parseChunk parses text (which starts at byte base of the whole file)
// and copies its tree out of C.
func parseChunk(text []byte, base int) (chunk, error) {
	p, err := getParser()
	if err != nil {
		return chunk{}, err
	}
	defer putParser(p)
	var src *C.char
	if len(text) > 0 {
		src = (*C.char)(unsafe.Pointer(&text[0]))
	}
	var count C.uint32_t
	var hasErr C.bool
	t := C.vk_parse(p, src, C.uint32_t(len(text)), &count, &hasErr)
	if t == nil {
		return chunk{}, fmt.Errorf("pyparse: tree-sitter returned no tree")
	}
	defer C.ts_tree_delete(t)
	flat := make([]C.vk_node, int(count)+1)
	var firstErr C.int64_t
	n := int(C.vk_flatten(t, &flat[0], C.int(len(flat)), &firstErr))
	if n < 0 {
		return chunk{}, fmt.Errorf("pyparse: out of memory")
	}
	c := chunk{root: build(flat[:n], base), firstError: -1, hasError: bool(hasErr)}
	if firstErr >= 0 {
		c.firstError = base + int(firstErr)
	}
	return c, nil
}
