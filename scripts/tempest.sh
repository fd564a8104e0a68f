#!/usr/bin/env bash
# Designate's own API test suite (Debian's designate-tempest-plugin) against `zoneward serve`,
# unchanged: prints passed/failed/skipped beside the real service's figures.
#
#   scripts/tempest.sh                      # against zoneward (about 2 minutes)
#   scripts/tempest.sh --check              # and fail when a test of test/tempest/must-pass.txt fails
#   scripts/tempest.sh --record             # add what zoneward now passes to the ratchet (must-pass.txt)
#   scripts/tempest.sh --target real --record   # re-record test/tempest/real-passes.txt (~4 minutes;
#                                           # needs ../shared/tools/designate-api or ZONEWARD_TOOLS_DIR)
#   add --verbose to list the failed tests, --keep to keep the workspace (logs/server.log, tempest.log)
#
# Needs the Debian packages tempest and designate-tempest-plugin (apt-get install designate-tempest-plugin).
set -euo pipefail
cd "$(dirname "$0")/.."
exec node test/tempest/rig.mjs "$@"
