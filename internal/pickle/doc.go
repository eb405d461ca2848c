// Package pickle decodes the subset of Python's pickle format that plain
// data uses: dicts, lists, tuples, strings, bytes, ints (any size), floats,
// bools and None, with the memo, for protocols 2 to 5.
//
// It knows nothing of PyTorch and never resolves or calls anything: the
// opcodes that would import or construct objects (GLOBAL, STACK_GLOBAL,
// REDUCE, BUILD, INST, OBJ, NEWOBJ, …) are errors naming the opcode and its
// offset. Lengths are never trusted: a string or bytes object is read in
// bounded chunks, so a forged length cannot make the decoder allocate more
// than about twice the input it has actually seen.
//
// Decoding streams from an io.Reader. A caller that only needs to look at
// list items once (say, millions of trace entries) can install an
// AppendHook to consume items as they are appended and drop them, and call
// Decoder.Replace so the memo does not keep consumed objects alive.
package pickle
