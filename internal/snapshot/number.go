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

// tagTable numbers (stream, context) tags first-seen into a list, with
// the last pair cached (consecutive trace entries mostly share theirs) and
// at most MaxTags numbers: the sequential builder numbers a snapshot's
// tags with one, each parallel chunk decoder its chunk's local tags.
type tagTable struct {
	ids    map[EventTag]uint32
	last   EventTag // the last pair numbered, as lastID
	lastID uint32
}

// reset empties the table but for the zero tag, number 0.
func (tt *tagTable) reset() {
	if tt.ids == nil {
		tt.ids = map[EventTag]uint32{}
	}
	clear(tt.ids)
	tt.ids[EventTag{}] = 0
	tt.last, tt.lastID = EventTag{}, 0
}

// number returns t's number in list, appending it the first time; ok is
// false when t is new and list already holds MaxTags pairs.
func (tt *tagTable) number(list *[]EventTag, t EventTag) (id uint32, added, ok bool) {
	if t == tt.last {
		return tt.lastID, false, true
	}
	if len(*list) >= MaxTags { // full: only a known pair has a number
		if _, known := tt.ids[t]; !known {
			return 0, false, false
		}
	}
	id, added = number(tt.ids, list, t)
	tt.last, tt.lastID = t, id
	return id, added, true
}
