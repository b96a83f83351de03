#!/bin/sh
# run_on_mpi.sh RANKS SERVER COMMAND [ARGS...]
#
# Runs COMMAND as the program's rank of
#   mpirun -np 1 COMMAND : -np RANKS SERVER
# for the offload suite's `remote` parameter (tests/offload/lit.cfg.py):
#  - the program's own host devices are hidden (OMPTARGET_HOST_NUM_DEVICES=0
#    on its rank only), so its devices 0, 1, ... are the host devices of the
#    device servers, 4 in all as a program alone has (4 / RANKS per server);
#  - the servers run without the LIBOMPTARGET_*/OMP_TARGET_OFFLOAD settings
#    a test gives its program, so only the program prints what it checks;
#  - the program's stderr goes into its stdout inside its rank, so the two
#    keep their order (mpirun forwards each stream apart, which reorders
#    them); a test that reads stderr apart says UNSUPPORTED: remote-mpi;
#  - the exit status is the program's own, and a program killed by a
#    signal kills this script with the same signal (`not --crash`); mpirun's
#    own failure (a server that died) is its status when the program's
#    is 0.
# Shared memory and self transports only; as root (CI) with Open MPI's
# switches for it.
set -u
RANKS=$1 SERVER=$2
shift 2
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_plm_rsh_agent=false
STATUS=$(mktemp) || exit 1
trap 'rm -f "$STATUS"' EXIT
PER_SERVER=$((4 / RANKS))
# shellcheck disable=SC2016
mpirun --allow-run-as-root --oversubscribe --bind-to none \
  -np 1 env OMPTARGET_HOST_NUM_DEVICES=0 sh -c '"$@" 2>&1; rc=$?; echo $rc > "$0"; exit $rc' "$STATUS" "$@" : \
  -np "$RANKS" env -u LIBOMPTARGET_INFO -u LIBOMPTARGET_DEBUG -u LIBOMPTARGET_PROFILE \
  -u OMP_TARGET_OFFLOAD OMPTARGET_HOST_NUM_DEVICES="$PER_SERVER" "$SERVER"
MPIRUN=$?
RC=$(cat "$STATUS")
[ -n "$RC" ] || exit "$MPIRUN"
if [ "$RC" -gt 128 ]; then
  rm -f "$STATUS"
  trap - EXIT
  kill -s "$((RC - 128))" $$
fi
[ "$RC" -ne 0 ] && exit "$RC"
exit "$MPIRUN"
