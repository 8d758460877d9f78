#!/bin/sh
# miga PATH shim for @NAME@: shows the gateway, then runs the real @COMMAND@ with these
# arguments. miga skips this folder when it looks for @COMMAND@, so it never finds itself.
exec '@MIGA@' gate --app '@NAME@' -- '@COMMAND@' "$@"
