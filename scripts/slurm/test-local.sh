#!/bin/bash
# End-to-end test of the Slurm scripts on this one machine (Debian 12, run as root):
#   - installs Slurm and munge from Debian's packages (apt-get), configures a one-node cluster
#     and starts munged, slurmctld and slurmd (stopped again at exit, by pid);
#   - builds hoplite unless $HOPLITE names a binary;
#   - submits a small sharded self-play run through submit.sh and waits for the merge job;
#   - plays the same run unsharded here and checks the merged files are byte-identical;
#   - removes one shard, resubmits the same command, and checks again (the recovery path);
#   - checks the merge step refuses a run with a shard missing.
# Prints PASS/FAIL per check and exits non-zero on any failure. Safe to re-run.
#
# Environment: HOPLITE (binary; default: cargo build --release here, honouring
# CARGO_TARGET_DIR), WORK (scratch directory, default /tmp/hoplite-slurm-test), VARIANT (spartan),
# GAMES (12), NODES (300), SHARDS (3), SEED (11), JOB_TIMEOUT (seconds per Slurm run, 600),
# FORCE=1 to replace an /etc/slurm/slurm.conf this script did not write.

set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(cd "$script_dir/../.." && pwd)

work=${WORK:-/tmp/hoplite-slurm-test}
variant=${VARIANT:-spartan}
games=${GAMES:-12}
nodes=${NODES:-300}
shards=${SHARDS:-3}
seed=${SEED:-11}
job_timeout=${JOB_TIMEOUT:-600}

conf=/etc/slurm/slurm.conf
marker="# written by hoplite scripts/slurm/test-local.sh"
log_dir=/var/log/slurm
start=$SECONDS
started_pids=()
results=()
failed=0

log() { printf '[%4ds] %s\n' $((SECONDS - start)) "$*"; }
die() {
    log "ERROR: $*" >&2
    exit 1
}
check() { # check NAME COMMAND...: record PASS or FAIL
    local name=$1
    shift
    if "$@"; then
        results+=("PASS  $name")
        log "PASS  $name"
    else
        results+=("FAIL  $name")
        log "FAIL  $name"
        failed=1
    fi
}

cleanup() {
    local rc=$? i pid
    for ((i = ${#started_pids[@]} - 1; i >= 0; i--)); do
        pid=${started_pids[i]}
        if kill -0 "$pid" 2>/dev/null; then
            log "stopping pid $pid ($(ps -o comm= -p "$pid" 2>/dev/null || echo '?'))"
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    if ((${#results[@]})); then
        echo
        echo "==== hoplite Slurm test summary ($((SECONDS - start)) s) ===="
        printf '%s\n' "${results[@]}"
    fi
    if ((rc == 0 && failed == 0)); then
        echo "RESULT: PASS"
    else
        echo "RESULT: FAIL"
        ((rc != 0)) || rc=1
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
    local limit=$1 what=$2 t0=$SECONDS
    shift 2
    until "$@" >/dev/null 2>&1; do
        ((SECONDS - t0 < limit)) || die "timed out after ${limit}s waiting for $what"
        sleep 1
    done
}

# ---------------------------------------------------------------- install
((EUID == 0)) || die "run as root (it installs packages and starts the Slurm daemons)"
command -v apt-get >/dev/null || die "needs a Debian-like system with apt-get"
log "installing slurm-wlm and munge (apt-get)"
export DEBIAN_FRONTEND=noninteractive
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
if ! installed slurm-wlm || ! installed munge; then
    apt-get update -q
    apt-get install -y -q slurm-wlm munge
else
    log "already installed"
fi

# ---------------------------------------------------------------- munge
if [[ ! -s /etc/munge/munge.key ]]; then
    log "creating /etc/munge/munge.key"
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown munge:munge /etc/munge/munge.key
chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
munge_ok() { munge -n | unmunge | grep -q 'STATUS: *Success'; }
if munge_ok 2>/dev/null; then
    log "munged already running: using it"
else
    log "starting munged"
    munged --foreground --force >>/var/log/munge/munged.stderr 2>&1 &
    started_pids+=($!)
    wait_for 20 "munged" munge_ok
fi
log "munge -n | unmunge: $(munge -n | unmunge | grep STATUS)"

# ---------------------------------------------------------------- slurm.conf
host=$(hostname -s)
cpus=$(nproc)
mem_mb=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
if [[ -e $conf ]] && ! grep -qxF "$marker" "$conf"; then
    [[ ${FORCE:-0} == 1 ]] || die "$conf exists and was not written by this script; set FORCE=1 to replace it (a copy is kept)"
    cp "$conf" "$conf.before-hoplite-test"
    log "kept the old $conf as $conf.before-hoplite-test"
fi
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd "$log_dir" /run/slurm
cat >"$conf" <<CONF
$marker
# a one-node test cluster; the script replaces this file on every run
ClusterName=hoplite-test
SlurmctldHost=$host
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=900
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=10
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
log "wrote $conf: node $host, CPUs=$cpus, RealMemory=$mem_mb"
log "$(sbatch --version)"

# ---------------------------------------------------------------- daemons
if scontrol ping 2>/dev/null | grep -q 'is UP'; then
    log "slurmctld already running: using it"
    scontrol reconfigure
else
    log "starting slurmctld"
    slurmctld -D -c -L "$log_dir/slurmctld.log" >>"$log_dir/slurmctld.stderr" 2>&1 &
    started_pids+=($!)
    ctld_up() { scontrol ping | grep -q 'is UP'; }
    wait_for 30 "slurmctld" ctld_up
fi
if pgrep -x slurmd >/dev/null; then
    log "slurmd already running: using it"
else
    log "starting slurmd"
    slurmd -D -L "$log_dir/slurmd.log" >>"$log_dir/slurmd.stderr" 2>&1 &
    started_pids+=($!)
fi
node_state() { sinfo -h -N -n "$host" -o %t; }
node_idle() { [[ $(node_state) == idle ]]; }
t0=$SECONDS
until node_idle 2>/dev/null; do
    state=$(node_state 2>/dev/null || true)
    if [[ $state == down* || $state == drain* ]]; then
        scontrol update NodeName="$host" State=RESUME 2>/dev/null || true
    fi
    ((SECONDS - t0 < 60)) || die "node $host not idle after 60 s (state '$state'; see $log_dir/slurmd.log)"
    sleep 1
done
log "node idle after $((SECONDS - t0)) s:"
sinfo

# ---------------------------------------------------------------- hoplite
if [[ -z ${HOPLITE:-} ]]; then
    log "building hoplite (cargo build --release)"
    (cd "$repo_dir" && cargo build --release --bin hoplite)
    target_dir=$(cd "$repo_dir" && cargo metadata --format-version 1 --no-deps |
        grep -o '"target_directory":"[^"]*"' | cut -d'"' -f4)
    HOPLITE=$target_dir/release/hoplite
fi
[[ $HOPLITE == /* ]] || HOPLITE=$PWD/$HOPLITE
[[ -x $HOPLITE ]] || die "$HOPLITE: not an executable"
log "hoplite: $HOPLITE"

# ---------------------------------------------------------------- the run
run=$work/run
local_run=$work/unsharded
rm -rf "$work"
mkdir -p "$work"
submit=("$script_dir/submit.sh" --variant "$variant" --games "$games" --nodes "$nodes"
    --shards "$shards" --seed "$seed" --pgn --run "$run" --hoplite "$HOPLITE" --parsable)

job_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort | uniq -c | xargs; }
jobs_gone() { [[ -z $(squeue -h -j "$1,$2" 2>/dev/null) ]]; }
submit_and_wait() { # submit_and_wait LABEL: submit, wait, record the job ids and states
    local label=$1 ids t0=$SECONDS
    log "$label: ${submit[*]}"
    ids=$("${submit[@]}")
    read -r array_job merge_job <<<"$ids"
    log "$label: array job $array_job, merge job $merge_job submitted"
    squeue
    until jobs_gone "$array_job" "$merge_job"; do
        ((SECONDS - t0 < job_timeout)) || die "$label: jobs not done after ${job_timeout}s: $(squeue -h -j "$array_job,$merge_job")"
        sleep 1
    done
    array_states=$(job_state "$array_job")
    merge_states=$(job_state "$merge_job")
    log "$label: done in $((SECONDS - t0)) s; array tasks: $array_states; merge: $merge_states"
}
tasks_completed() { [[ $array_states == "$shards COMPLETED" ]]; }
merge_completed() { [[ $merge_states == "1 COMPLETED" ]]; }
files=(games.csv positions.csv summary.csv games.pgn run.toml)
same_file() { cmp "$local_run/$1" "$run/merged/$1"; }
show_logs() {
    local f
    for f in "$run"/logs/*; do
        echo "---- $f"
        cat "$f"
    done
}

submit_and_wait "first submission"
check "all $shards array tasks COMPLETED" tasks_completed
check "merge job COMPLETED" merge_completed
((failed == 0)) || show_logs

log "the same run unsharded, locally"
t1=$SECONDS
"$HOPLITE" selfplay --variant "$variant" --games "$games" --nodes "$nodes" --seed "$seed" \
    --pgn --threads 1 --out "$local_run"
log "unsharded run took $((SECONDS - t1)) s"

merged_games=$(($(wc -l <"$run/merged/games.csv") - 1))
shard_games() {
    local k n
    for ((k = 0; k < shards; k++)); do
        n=$(($(wc -l <"$run/shard-$k/games.csv") - 1))
        printf 'shard-%d: %d games; ' "$k" "$n"
    done
}
log "$(shard_games)merged: $merged_games games"
check "merged run holds all $games games" test "$merged_games" -eq "$games"
for f in "${files[@]}"; do
    check "merged $f identical to the unsharded run (cmp)" same_file "$f"
done
echo "---- merged summary.csv"
cat "$run/merged/summary.csv"
echo "---- merge job log"
cat "$run"/logs/merge-*.out

# ---------------------------------------------------------------- recovery
log "recovery: deleting shard-1 and merged/, resubmitting the same command"
rm -rf "$run/shard-1" "$run/merged"
declare -A before
for ((k = 0; k < shards; k++)); do
    [[ $k == 1 ]] || before[$k]=$(cat "$run/shard-$k"/* | md5sum)
done
submit_and_wait "resubmission"
check "resubmission: all array tasks and the merge COMPLETED" eval 'tasks_completed && merge_completed'
unchanged() {
    local k
    for k in "${!before[@]}"; do
        [[ ${before[$k]} == "$(cat "$run/shard-$k"/* | md5sum)" ]] || return 1
    done
}
check "resubmission: finished shards left unchanged (--resume)" unchanged
for f in "${files[@]}"; do
    check "resubmission: merged $f identical to the unsharded run" same_file "$f"
done

# ---------------------------------------------------------------- a failing task
log "failure: a run whose tasks fail (a bad --max-plies) must not be merged"
submit=("$script_dir/submit.sh" --variant "$variant" --games "$games" --nodes "$nodes"
    --shards "$shards" --seed "$seed" --run "$work/failing" --hoplite "$HOPLITE" --parsable
    -- --max-plies not-a-number)
submit_and_wait "failing run"
tasks_failed() { [[ $array_states == "$shards FAILED" ]]; }
merge_cancelled() { [[ $merge_states == "1 CANCELLED" && ! -e $work/failing/merged ]]; }
check "failing run: all array tasks FAILED" tasks_failed
check "failing run: merge job CANCELLED, nothing merged" merge_cancelled

# ---------------------------------------------------------------- merge guard
log "merge step with a shard missing (expected to fail)"
rm -rf "$run/shard-2"
refuses() { ! bash "$script_dir/merge.sbatch" "$run" "$HOPLITE" "$shards"; }
check "merge step refuses a run with a shard missing" refuses
((failed == 0)) || show_logs
