#!/bin/sh
# An external provider for aggregate that speaks Singer: the regular files of a directory.
# Usage: list_files.sh [DIRECTORY]   (default: the working directory, i.e. the manifest's directory)
# Prints a SCHEMA (key: path), one RECORD per file, then a STATE. Ignores its stdin.
set -eu
dir=${1:-.}
if [ ! -d "$dir" ]; then
    echo "not a directory: $dir" >&2
    exit 1
fi

# JSON string escaping for names with quotes or backslashes (control characters are not expected).
json_string() {
    printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}

echo '{"type":"SCHEMA","stream":"files","key_properties":["path"],"schema":{"type":"object","properties":{"path":{"type":"string"},"name":{"type":"string"},"bytes":{"type":"integer"}}}}'
count=0
for file in "$dir"/* "$dir"/.[!.]*; do
    [ -f "$file" ] || continue
    bytes=$(wc -c < "$file" | tr -d ' ')
    printf '{"type":"RECORD","stream":"files","record":{"path":%s,"name":%s,"bytes":%s}}\n' \
        "$(json_string "$file")" "$(json_string "$(basename "$file")")" "$bytes"
    count=$((count + 1))
done
printf '{"type":"STATE","value":{"files":%s}}\n' "$count"
