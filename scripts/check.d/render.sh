#!/usr/bin/env bash
# render.sh: the camera renderer's tests (pkg/render) on Mesa's llvmpipe
# through headless EGL, made mandatory: TELEBRIDGE_RENDER_TESTS=required
# turns the tests' own skip (no EGL here) into a failure. check.sh has
# installed libegl1, libgles2 and libgl1-mesa-dri (scripts/debian-packages.sh)
# before this runs, so a missing renderer is a real failure. The log names
# the EGL display and GL renderer used (TestFormatsAgree).
#
# Timing on the 2-core build machine: about 5 s.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
echo "render.sh: pkg/render on headless EGL (TELEBRIDGE_RENDER_TESTS=required)"
TELEBRIDGE_RENDER_TESTS=required go test -count=1 -v ./pkg/render/
