package snapshot

// number returns k's index in list, appending k (and recording its index
// in ids) the first time it is seen: the first-seen numbering that stream
// handles, contexts and (stream, context) tags share. added says whether k
// was new.
func number[K comparable, I ~int32 | ~uint32](ids map[K]I, list *[]K, k K) (id I, added bool) {
	if id, ok := ids[k]; ok {
		return id, false
	}
	id = I(len(*list))
	*list = append(*list, k)
	ids[k] = id
	return id, true
}
