#!/bin/sh
# build-corpus.sh rebuilds the lint corpus listed in corpus.txt under OUT
# (default /tmp/vramkit-lint-corpus): OUT/<set>/<owner>+<name>/<path> for
# every .py and .ipynb file of each repository at its pinned commit.
#
# Repositories are read from bare mirrors under MIRRORS
# (default /work/.mirror/<owner>+<name>/repo) when present, otherwise
# cloned from https://github.com/<owner>/<name> into MIRRORS.
# Blobs a partial mirror lacks (large assets) are skipped; they are never
# Python. Symlinks are skipped too (their blob holds the link target).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/vramkit-lint-corpus}
MIRRORS=${MIRRORS:-/work/.mirror}
rm -rf "$OUT"
mkdir -p "$OUT"
grep -v '^#' "$here/corpus.txt" | grep -v '^$' | while read -r repo commit set prefixes; do
	key=$(echo "$repo" | tr / +)
	git_dir=$MIRRORS/$key/repo
	if [ ! -d "$git_dir" ]; then
		git clone --bare --filter=blob:limit=2m "https://github.com/$repo" "$git_dir"
	fi
	dest=$OUT/$set/$key
	git -C "$git_dir" ls-tree -r "$commit" | while read -r mode type blob path; do
		case "$path" in *.py|*.ipynb) ;; *) continue ;; esac
		# A symlink's blob is its target path, not Python: a checkout
		# lints the file it points to, which the corpus holds already.
		[ "$mode" = 120000 ] && continue
		if [ -n "$prefixes" ]; then
			keep=no
			for p in $prefixes; do
				case "$path" in "$p"*) keep=yes ;; esac
			done
			[ $keep = yes ] || continue
		fi
		mkdir -p "$dest/$(dirname "$path")"
		git -C "$git_dir" cat-file blob "$blob" > "$dest/$path" 2>/dev/null || rm -f "$dest/$path"
	done
done
echo "corpus in $OUT: $(find "$OUT" -type f | wc -l) files, $(find "$OUT" -type f -exec cat {} + | wc -l) lines"
