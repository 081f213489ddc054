#!/usr/bin/env bash
# A real S3 object store for development and tests: a single-node Ceph cluster (one monitor, one
# OSD on memstore) and its RADOS Gateway, all bound to 127.0.0.1 and kept in one folder.
#
#   scripts/ceph-rgw-start.sh DIR PORT [MON_PORT]
#
# DIR holds the configuration, data, logs and process ids; PORT is the S3 endpoint's port and
# MON_PORT the monitor's (PORT + 1 unless given). The first run in an empty DIR makes a new
# cluster; a later run starts whatever of it is not running (after ceph-rgw-stop.sh, or when only
# the gateway was stopped). An S3 user with known test credentials is created, and the settings
# the server reads are written to DIR/s3.env and printed on standard output; progress goes to
# standard error. Stop with scripts/ceph-rgw-stop.sh DIR [--purge].
#
# Needs Debian's `radosgw ceph-mon ceph-osd` (Ceph 16.2 on Debian 12). memstore keeps objects in
# RAM (up to CEPH_MEMSTORE_BYTES, 2 GiB by default) and writes them to DIR only on a clean stop.
# The reasons for the settings below are in docs/testing.md ("A real object store").
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 DIR PORT [MON_PORT]" >&2
  exit 2
fi
mkdir -p "$1"
D=$(cd "$1" && pwd)
RGW_PORT=$2
MON_PORT=${3:-$((RGW_PORT + 1))}
for port in "$RGW_PORT" "$MON_PORT"; do
  [[ $port =~ ^[0-9]+$ ]] && ((port > 0 && port < 65536)) || { echo "not a port: $port" >&2; exit 2; }
done
ACCESS_KEY=${S3_TEST_ACCESS_KEY_ID:-tributary-test}
SECRET_KEY=${S3_TEST_SECRET_ACCESS_KEY:-tributary-test-secret-0123456789}
MEMSTORE_BYTES=${CEPH_MEMSTORE_BYTES:-2147483648}

for bin in ceph-mon ceph-osd radosgw radosgw-admin ceph monmaptool; do
  command -v "$bin" >/dev/null || { echo "$bin not found: apt-get install -y radosgw ceph-mon ceph-osd" >&2; exit 3; }
done

export CEPH_CONF=$D/ceph.conf
mkdir -p "$D"/{run,log,mon,osd,rgw}
log() { printf '[%(%T)T] ceph-rgw: %s\n' -1 "$*" >&2; }

# alive PID: running, not a zombie waiting to be reaped (a killed daemon's parent is init)
alive() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  [[ ${stat##*) } != [ZX]* ]]
}

# start NAME COMMAND...: a daemon in the foreground (-f) of its own session, its pid recorded
start() {
  local name=$1 pidfile=$D/run/$1.pid
  shift
  if [[ -s $pidfile ]] && alive "$(cat "$pidfile")"; then return; fi
  setsid "$@" -f >>"$D/log/$name.out" 2>&1 </dev/null &
  echo $! >"$pidfile"
}

# the ceph command line, bounded so a broken cluster cannot hang a test run
c() { timeout 30 ceph --connect-timeout 20 "$@"; }

# wait_for WHAT TRIES COMMAND...: retries every 0.1 s
wait_for() {
  local what=$1 tries=$2
  shift 2
  for ((i = 0; i < tries; i++)); do
    if "$@" >/dev/null 2>&1; then return; fi
    sleep 0.1
  done
  echo "ceph-rgw: $what did not come up; see $D/log" >&2
  exit 1
}

fresh=0
if [[ ! -s $D/fsid ]]; then
  fresh=1
  rm -rf "$D"/{mon,osd,rgw,run,log}/* "$D"/monmap
  cat /proc/sys/kernel/random/uuid >"$D/fsid"
fi
FSID=$(cat "$D/fsid")

# No authentication between the daemons (the cluster is reachable from this machine only); the
# gateway still signs and checks every S3 request.
cat >"$CEPH_CONF" <<CONF
[global]
fsid = $FSID
mon_host = [v2:127.0.0.1:$MON_PORT]
public_addr = 127.0.0.1
cluster_addr = 127.0.0.1
ms_bind_msgr1 = false
ms_bind_ipv6 = false
auth_cluster_required = none
auth_service_required = none
auth_client_required = none
run_dir = $D/run
admin_socket = $D/run/\$cluster-\$name.asok
log_file = $D/log/\$cluster-\$name.log
crash_dir = $D/crash
mon_data = $D/mon/\$cluster-\$id
osd_data = $D/osd/\$cluster-\$id
rgw_data = $D/rgw/\$cluster-\$id
osd_pool_default_size = 1
osd_pool_default_min_size = 1
osd_pool_default_pg_num = 8
osd_pool_default_pgp_num = 8
osd_pool_default_pg_autoscale_mode = off
osd_crush_chooseleaf_type = 0
mon_allow_pool_size_one = true
mon_allow_pool_delete = true
mon_warn_on_pool_no_redundancy = false
mon_data_avail_warn = 2
mon_data_avail_crit = 1
ms_async_op_threads = 2
log_to_stderr = false
err_to_stderr = true

[mon]
# a pool costs about 2 s to create at the default commit interval; 0.1 s starts in about 3 s
paxos_propose_interval = 0.1
paxos_min_wait = 0.01

[osd]
osd_objectstore = memstore
memstore_device_bytes = $MEMSTORE_BYTES
# write memstore's objects to the data folder on SIGTERM, so a restart keeps them
osd_fast_shutdown = false
osd_op_num_shards = 1
osd_op_num_threads_per_shard = 2
# a gateway that was killed leaves watches the OSD waits out before notifying past them (30 s
# by default), so changes to a bucket stall that long after a crash; 5 s here, with the
# gateway pinging its watches every second (objecter_tick_interval below)
osd_client_watch_timeout = 5

[client.rgw]
# the gateway asks for a secure monitor connection by default, which auth = none cannot give
ms_mon_client_mode = crc
# without tcp_nodelay every GET waits about 50 ms
rgw_frontends = beast endpoint=127.0.0.1:$RGW_PORT tcp_nodelay=1
rgw_thread_pool_size = 64
objecter_tick_interval = 1
# deleted objects are collected after 2 h by default, holding memstore's RAM until then
rgw_gc_obj_min_wait = 60
rgw_gc_processor_period = 60
CONF

if ((fresh)); then
  log "new cluster $FSID in $D"
  monmaptool --create --fsid "$FSID" --addv a "[v2:127.0.0.1:$MON_PORT]" "$D/monmap" >/dev/null
  ceph-mon --mkfs -i a --monmap "$D/monmap" >>"$D/log/mon.a.out" 2>&1
fi
start mon.a ceph-mon -i a
wait_for "the monitor" 300 c mon stat
if ((fresh)); then
  osd_uuid=$(cat /proc/sys/kernel/random/uuid)
  c osd new "$osd_uuid" >/dev/null
  mkdir -p "$D/osd/ceph-0"
  ceph-osd -i 0 --mkfs --osd-uuid "$osd_uuid" >>"$D/log/osd.0.out" 2>&1
fi
start osd.0 ceph-osd -i 0
# a gateway started before the OSD is up re-reads the OSD map only every 5 s
osd_up() { c osd stat --format json | grep -q '"num_up_osds":1'; }
wait_for "the OSD" 300 osd_up
start client.rgw radosgw -n client.rgw
# bash's own /dev/tcp: no curl needed
rgw_listening() { (exec 3<>"/dev/tcp/127.0.0.1/$RGW_PORT") 2>/dev/null; }
wait_for "the gateway on port $RGW_PORT" 600 rgw_listening

if ! timeout 30 radosgw-admin user info --uid=tributary-test >/dev/null 2>&1; then
  timeout 30 radosgw-admin user create --uid=tributary-test --display-name="Tributary tests" \
    --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" >/dev/null
fi

cat >"$D/s3.env" <<ENV
MEDIA_STORAGE=s3
S3_ENDPOINT=http://127.0.0.1:$RGW_PORT
S3_REGION=us-east-1
S3_ACCESS_KEY_ID=$ACCESS_KEY
S3_SECRET_ACCESS_KEY=$SECRET_KEY
S3_FORCE_PATH_STYLE=true
ENV
log "S3 endpoint http://127.0.0.1:$RGW_PORT (settings in $D/s3.env)"
cat "$D/s3.env"
