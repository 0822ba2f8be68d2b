#!/usr/bin/env bash
# Offline stand-in for the tracel-llvm 23.1.0-4 bundle that cubecl-llvm's build script downloads
# (cubecl-cuda's default LLVM/NVPTX compiler and cubecl-cpu both need it). It forwards to Debian's
# LLVM 22 instead. Idempotent. Usage:
#   source scripts/offline-llvm.sh        # installs if needed and exports XDG_DATA_HOME
#   scripts/offline-llvm.sh --print-env   # prints the export line
# After changing the wrapper: `cargo clean -p cubecl-llvm`.
# Sourced into the caller's shell: it must not change shell options (no `set -e`).
# The wrapper is written to a per-process temporary name, so concurrent runs do not race.

_ol_root="${OFFLINE_LLVM_HOME:-${HOME}/.local/share/qrchol-llvm}"
_ol_bundle="${_ol_root}/tracel/tracel-llvm-23.1.0-4"
_ol_real=/usr/lib/llvm-22/bin/llvm-config

if [ ! -x "${_ol_real}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "offline-llvm: installing llvm-22-dev libzstd-dev zlib1g-dev" >&2
    if ! { apt-get update -qq >/dev/null &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq llvm-22-dev libzstd-dev zlib1g-dev >/dev/null; }; then
      echo "offline-llvm: apt-get install llvm-22-dev failed" >&2
      return 1 2>/dev/null || exit 1
    fi
  else
    echo "offline-llvm: ${_ol_real} missing; install llvm-22-dev libzstd-dev zlib1g-dev" >&2
    return 1 2>/dev/null || exit 1
  fi
fi

mkdir -p "${_ol_bundle}/bin" || { return 1 2>/dev/null || exit 1; }
cat > "${_ol_bundle}/bin/llvm-config.new.$$" <<WRAP
#!/bin/sh
# Forwards to Debian's LLVM 22. --system-libs: drop libz3 (turned into "-llibz3") and libxml2;
# --libs: drop Polly/PollyISL (static libs not shipped in llvm-22-dev).
REAL=${_ol_real}
case " \$* " in
  *" --system-libs "*) "\$REAL" "\$@" | sed -e 's#[^ ]*libz3[^ ]*##g' -e 's#-lxml2##g' ;;
  *" --libs "*) "\$REAL" "\$@" | sed -e 's#-lPollyISL##g' -e 's#-lPolly##g' ;;
  *) exec "\$REAL" "\$@" ;;
esac
WRAP
chmod +x "${_ol_bundle}/bin/llvm-config.new.$$"
if ! cmp -s "${_ol_bundle}/bin/llvm-config.new.$$" "${_ol_bundle}/bin/llvm-config" 2>/dev/null; then
  mv "${_ol_bundle}/bin/llvm-config.new.$$" "${_ol_bundle}/bin/llvm-config"
else
  rm -f "${_ol_bundle}/bin/llvm-config.new.$$"
fi
# Create the marker once: touching it again would make cargo rebuild cubecl-llvm and all above it.
[ -e "${_ol_bundle}/.tracel-llvm-installed" ] || touch "${_ol_bundle}/.tracel-llvm-installed"

if [ "${1:-}" = "--print-env" ]; then
  echo "export XDG_DATA_HOME=${_ol_root}"
fi
export XDG_DATA_HOME="${_ol_root}"
