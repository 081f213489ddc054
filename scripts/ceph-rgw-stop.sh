#!/usr/bin/env bash
# Stops what scripts/ceph-rgw-start.sh DIR started, by the process ids it recorded:
#
#   scripts/ceph-rgw-stop.sh DIR [--purge]
#
# One daemon at a time, the gateway first: it must leave while the OSD is up (else it hangs for
# 30 s and the next start waits for its stale watches), and the OSD tells the monitor it goes.
# Each gets SIGTERM, and SIGKILL after 30 s. The data stays in DIR (memstore writes it there on
# this clean stop) unless --purge, which kills at once and deletes the cluster: the next start
# makes a new one.
set -uo pipefail

if [[ $# -lt 1 || $# -gt 2 || ( $# -eq 2 && $2 != --purge ) ]]; then
  echo "usage: $0 DIR [--purge]" >&2
  exit 2
fi
D=$1
purge=0
[[ ${2:-} == --purge ]] && purge=1

# alive PID: running, not a zombie waiting to be reaped (the daemons' parent is init)
alive() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  [[ ${stat##*) } != [ZX]* ]]
}

# stop SIGNAL NAME...: signal the recorded processes together, wait for them to end (SIGKILL
# after 30 s)
stop() {
  local signal=$1 name pid pids=()
  shift
  for name in "$@"; do
    [[ -s $D/run/$name.pid ]] || continue
    pid=$(cat "$D/run/$name.pid")
    if alive "$pid" && kill "-$signal" "$pid" 2>/dev/null; then pids+=("$pid"); fi
  done
  for ((i = 0; i < 300; i++)); do
    local running=0
    for pid in "${pids[@]}"; do alive "$pid" && running=1; done
    ((running)) || break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do
    if alive "$pid"; then
      echo "ceph-rgw: pid $pid did not stop in 30 s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null
    fi
  done
  for name in "$@"; do rm -f "$D/run/$name.pid"; done
}

if ((purge)); then
  # nothing is kept, so nothing needs a clean stop: all at once
  stop KILL client.rgw osd.0 mon.a
  rm -rf "${D:?}"/{mon,osd,rgw,run,log,crash} "$D"/fsid "$D"/monmap "$D"/ceph.conf "$D"/s3.env
else
  for name in client.rgw osd.0 mon.a; do stop TERM "$name"; done
fi
