#!/usr/bin/env bash
# Makes the optional validate/e164/libphonenumber benchmark possible. Debian's libphonenumber-dev
# cannot be installed next to libboost1.81-dev (it pulls the Boost 1.74 development packages), so
# this unpacks it, and the libraries it needs that are not installed, into the build tree without
# installing anything. CMake finds it there (COLLECTCALL_LIBPHONENUMBER_ROOT) on the next
# configure; benchmarks/run.sh configures again. Never part of CI.
#
#   benchmarks/fetch-libphonenumber.sh [BUILD_DIR]      (default build-bench)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-bench}
root="$build/libphonenumber"
mkdir -p "$root/debs"
root=$(cd "$root" && pwd)

# The headers and libraries to link, plus any runtime library of theirs not installed here.
packages=(libphonenumber-dev libphonenumber8 libgeocoding8 libprotobuf-dev libabsl-dev)
for runtime in libprotobuf32 libabsl20220623 libicu72; do
  dpkg-query -W -f='${Status}' "$runtime" 2>/dev/null | grep -q "install ok installed" ||
    packages+=("$runtime")
done
(cd "$root/debs" && apt-get download "${packages[@]}")
for deb in "$root"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done

# A -dev package's libfoo.so is a relative link to a runtime library that may be installed
# system-wide rather than unpacked here: point it at whichever exists.
for link in "$root"/usr/lib/x86_64-linux-gnu/*.so; do
  [[ -L "$link" && ! -e "$link" ]] || continue
  target=$(basename "$(readlink "$link")")
  [[ -e /usr/lib/x86_64-linux-gnu/$target ]] && ln -sf "/usr/lib/x86_64-linux-gnu/$target" "$link"
done
echo "libphonenumber unpacked into $root; configure again (benchmarks/run.sh does) to use it"
