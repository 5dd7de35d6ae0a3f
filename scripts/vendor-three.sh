#!/usr/bin/env bash
# vendor-three.sh: the operator console's vendored three.js and
# urdf-loader (pkg/console/assets/vendor/, see VENDOR.md there).
#
#   scripts/vendor-three.sh check    # re-derive every vendored file from the
#                                    # published npm tarballs and compare
#   scripts/vendor-three.sh update   # write them (and SHA256SUMS) again
#
# Both fetch the tarballs with `npm pack` (the npm registry; network
# needed), unpack them in a temporary directory, and apply the only
# changes made to the published files: bare module specifiers ('three',
# 'three/examples/jsm/loaders/...') rewritten to relative paths, so the
# browser loads them without a bundler or an import map. The Go test
# pkg/console TestVendoredFiles checks the embedded files against
# SHA256SUMS without the network.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

THREE=0.187.0
URDF_LOADER=0.13.1
dir=pkg/console/assets/vendor
mode=${1:-check}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "three@$THREE" "urdf-loader@$URDF_LOADER" >/dev/null)
mkdir -p "$tmp/three" "$tmp/urdf-loader" "$tmp/out"
tar -xzf "$tmp/three-$THREE.tgz" -C "$tmp/three"
tar -xzf "$tmp/urdf-loader-$URDF_LOADER.tgz" -C "$tmp/urdf-loader"

t=$tmp/three/package
u=$tmp/urdf-loader/package
o=$tmp/out
cp "$t/build/three.module.js" "$t/build/three.core.js" "$t/examples/jsm/controls/OrbitControls.js" "$o/"
cp "$u/src/URDFLoader.js" "$u/src/URDFClasses.js" "$o/"
cp "$t/LICENSE" "$o/LICENSE-three"
# The rewrites (recorded in VENDOR.md).
sed -i "s|^} from 'three';$|} from './three.module.js';|" "$o/OrbitControls.js"
sed -i "s|^import { Euler, Object3D, Vector3, Quaternion, Matrix4 } from 'three';$|import { Euler, Object3D, Vector3, Quaternion, Matrix4 } from './three.module.js';|" "$o/URDFClasses.js"
sed -i -e "s|^import \* as THREE from 'three';$|import * as THREE from './three.module.js';|" \
	-e "s|^import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';$|import { STLLoader } from './no-meshes.js';|" \
	-e "s|^import { ColladaLoader } from 'three/examples/jsm/loaders/ColladaLoader.js';$|import { ColladaLoader } from './no-meshes.js';|" \
	"$o/URDFLoader.js"
# Files that are the project's own or not from a tarball: no-meshes.js
# (the stub the mesh loaders are rewritten to), LICENSE-urdf-loader (the
# package ships no licence file: the Apache-2.0 text, from Debian's
# /usr/share/common-licenses, with the README's copyright notice).
for f in no-meshes.js LICENSE-urdf-loader VENDOR.md; do cp "$dir/$f" "$o/$f"; done

files=(three.module.js three.core.js OrbitControls.js URDFLoader.js URDFClasses.js no-meshes.js LICENSE-three LICENSE-urdf-loader VENDOR.md)
case $mode in
check)
	(cd "$o" && sha256sum "${files[@]}") >"$tmp/sums"
	if ! diff -u "$dir/SHA256SUMS" "$tmp/sums"; then
		echo "vendor-three.sh: the vendored files differ from three@$THREE and urdf-loader@$URDF_LOADER (above)" >&2
		exit 1
	fi
	(cd "$dir" && sha256sum -c --quiet SHA256SUMS)
	echo "vendor-three.sh: $dir matches three@$THREE and urdf-loader@$URDF_LOADER as published (with the recorded rewrites)"
	;;
update)
	for f in "${files[@]}"; do cp "$o/$f" "$dir/$f"; done
	(cd "$dir" && sha256sum "${files[@]}") >"$dir/SHA256SUMS"
	echo "vendor-three.sh: $dir written from three@$THREE and urdf-loader@$URDF_LOADER"
	;;
*)
	echo "usage: $0 check|update" >&2
	exit 2
	;;
esac
