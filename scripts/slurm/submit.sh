#!/bin/bash
# Submit a hoplite self-play run to Slurm as an array job (one shard per task) plus a merge job
# that starts when every task has succeeded. See usage() below.

set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(cd "$script_dir/../.." && pwd)

usage() {
    cat <<USAGE
Usage: $(basename "$0") [OPTIONS] [-- EXTRA_SELFPLAY_ARGS...]

Submits a sharded \`hoplite selfplay\` run to Slurm:
  1. an array job, task I of N running
       hoplite selfplay --variant V --games G --nodes K --seed S [EXTRA...] \\
           --threads C --shard I/N --out RUN/shard-I --resume
  2. a merge job (--dependency=afterok on the whole array) running
       hoplite merge RUN/shard-0 ... RUN/shard-(N-1) --out RUN/merged
RUN/merged then holds games.csv, positions.csv, summary.csv, run.toml (and games.pgn),
byte for byte what the unsharded run writes. Logs go to RUN/logs/.

Options (environment variable in brackets, then default):
  -v, --variant V        variant name or .toml file     [HOPLITE_VARIANT]  spartan
  -g, --games G          games in the whole run         [HOPLITE_GAMES]    1000
  -n, --nodes K          nodes per move; "none" leaves
                         the limit to EXTRA (--depth D)  [HOPLITE_NODES]    1000
  -s, --shards N         array tasks (shards)           [HOPLITE_SHARDS]   10
      --seed S           run seed                       [HOPLITE_SEED]     1
  -o, --run DIR          run directory, on a file system
                         all nodes share                [HOPLITE_RUN]      runs/V-gG-nK-seedS
      --hoplite PATH     hoplite binary, valid on the
                         compute nodes                  [HOPLITE]          hoplite on PATH, else
                                                                           target/release/hoplite
  -c, --cpus-per-task C  CPUs per task, = --threads     [HOPLITE_CPUS]     1
      --pgn              also write games.pgn           [HOPLITE_PGN=1]
  -p, --partition P      Slurm partition                [HOPLITE_PARTITION] cluster default
  -t, --time T           time limit per task (sbatch)   [HOPLITE_TIME]     cluster default
      --max-parallel M   at most M tasks at once (%M)   [HOPLITE_MAX_PARALLEL]
      --sbatch-arg ARG   extra sbatch option for both jobs, repeatable
                         (e.g. --sbatch-arg=--account=chess)  [HOPLITE_SBATCH_ARGS, split on spaces]
      --parsable         print only "ARRAY_JOB_ID MERGE_JOB_ID"
      --dry-run          print the sbatch commands instead of running them
  -h, --help             this text

Everything after -- goes to every \`hoplite selfplay\` (e.g. -- --random-plies 8 --max-plies 300).

If a task fails, the merge job is cancelled. Run the same command again: with --resume,
finished shards finish at once and unfinished ones continue where they stopped.
Example:
  scripts/slurm/submit.sh --variant spartan --games 10000 --shards 50 --pgn --run /shared/runs/sp1
USAGE
}

die() {
    echo "submit.sh: $*" >&2
    exit 2
}

variant=${HOPLITE_VARIANT:-spartan}
games=${HOPLITE_GAMES:-1000}
nodes=${HOPLITE_NODES:-1000}
shards=${HOPLITE_SHARDS:-10}
seed=${HOPLITE_SEED:-1}
run=${HOPLITE_RUN:-}
hoplite=${HOPLITE:-}
cpus=${HOPLITE_CPUS:-1}
pgn=${HOPLITE_PGN:-0}
partition=${HOPLITE_PARTITION:-}
time_limit=${HOPLITE_TIME:-}
max_parallel=${HOPLITE_MAX_PARALLEL:-}
parsable=0
dry_run=0
sbatch_args=()
if [[ -n ${HOPLITE_SBATCH_ARGS:-} ]]; then
    read -r -a sbatch_args <<<"$HOPLITE_SBATCH_ARGS"
fi

need_value() {
    (($# >= 2)) || die "$1 needs a value (see --help)"
}

while (($# > 0)); do
    case $1 in
    -h | --help) usage; exit 0 ;;
    --*=*) opt=${1%%=*}; val=${1#*=}; shift; set -- "$opt" "$val" "$@"; continue ;;
    -v | --variant) need_value "$@"; variant=$2; shift 2 ;;
    -g | --games) need_value "$@"; games=$2; shift 2 ;;
    -n | --nodes) need_value "$@"; nodes=$2; shift 2 ;;
    -s | --shards) need_value "$@"; shards=$2; shift 2 ;;
    --seed) need_value "$@"; seed=$2; shift 2 ;;
    -o | --run) need_value "$@"; run=$2; shift 2 ;;
    --hoplite) need_value "$@"; hoplite=$2; shift 2 ;;
    -c | --cpus-per-task) need_value "$@"; cpus=$2; shift 2 ;;
    --pgn) pgn=1; shift ;;
    -p | --partition) need_value "$@"; partition=$2; shift 2 ;;
    -t | --time) need_value "$@"; time_limit=$2; shift 2 ;;
    --max-parallel) need_value "$@"; max_parallel=$2; shift 2 ;;
    --sbatch-arg) need_value "$@"; sbatch_args+=("$2"); shift 2 ;;
    --parsable) parsable=1; shift ;;
    --dry-run) dry_run=1; shift ;;
    --) shift; break ;;
    *) die "unknown option '$1' (see --help; selfplay options go after --)" ;;
    esac
done
extra=("$@")

is_count() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
is_count "$games" || die "--games '$games' is not a positive integer"
is_count "$shards" || die "--shards '$shards' is not a positive integer"
is_count "$cpus" || die "--cpus-per-task '$cpus' is not a positive integer"
[[ $seed =~ ^[0-9]+$ ]] || die "--seed '$seed' is not a non-negative integer"
[[ $nodes == none ]] || is_count "$nodes" || die "--nodes '$nodes' is neither a positive integer nor 'none'"
[[ -z $max_parallel ]] || is_count "$max_parallel" || die "--max-parallel '$max_parallel' is not a positive integer"
[[ $pgn == 0 || $pgn == 1 ]] || die "HOPLITE_PGN must be 0 or 1"
for a in "${extra[@]}"; do
    case $a in
    --shard | --shard=* | --out | --out=* | --resume) die "$a is set by the scripts; leave it out of the extra arguments" ;;
    esac
done

if [[ -z $hoplite ]]; then
    if command -v hoplite >/dev/null; then
        hoplite=$(command -v hoplite)
    else
        hoplite=$repo_dir/target/release/hoplite
    fi
fi
[[ $hoplite == /* ]] || hoplite=$PWD/$hoplite
if [[ ! -x $hoplite ]]; then
    ((dry_run)) || die "$hoplite: not an executable (build with cargo build --release, or pass --hoplite)"
fi

if [[ -z $run ]]; then
    v=$(basename "$variant" .toml)
    run=runs/$v-g$games-n$nodes-seed$seed
fi
[[ $run == /* ]] || run=$PWD/$run

selfplay=(--variant "$variant" --games "$games" --seed "$seed")
[[ $nodes == none ]] || selfplay+=(--nodes "$nodes")
if ((pgn)); then selfplay+=(--pgn); fi
if [[ " ${extra[*]} " != *" --threads "* && " ${extra[*]} " != *" --threads="* ]]; then
    selfplay+=(--threads "$cpus")
fi
selfplay+=("${extra[@]}")

common=(--parsable "${sbatch_args[@]}")
[[ -z $partition ]] || common+=(--partition "$partition")

array_spec=0-$((shards - 1))
[[ -z $max_parallel ]] || array_spec+=%$max_parallel
array_opts=(--array "$array_spec" --cpus-per-task "$cpus")
[[ -z $time_limit ]] || array_opts+=(--time "$time_limit")
array_cmd=(sbatch "${common[@]}" "${array_opts[@]}"
    --export "ALL,HOPLITE_SHARDS=$shards"
    --output "$run/logs/selfplay-%A_%a.out"
    "$script_dir/selfplay-array.sbatch" "$run" "$hoplite" "${selfplay[@]}")
merge_cmd=(sbatch "${common[@]}" --kill-on-invalid-dep=yes
    --output "$run/logs/merge-%j.out"
    "$script_dir/merge.sbatch" "$run" "$hoplite" "$shards")

if ((dry_run)); then
    printf '%q ' mkdir -p "$run/logs"; echo
    printf '%q ' "${array_cmd[@]}"; echo
    printf '%q ' "${merge_cmd[@]:0:1}" --dependency afterok:ARRAY_JOB_ID "${merge_cmd[@]:1}"; echo
    exit 0
fi

command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm submit host"
mkdir -p "$run/logs"
array_job=$("${array_cmd[@]}")
array_job=${array_job%%;*}
[[ $array_job =~ ^[0-9]+$ ]] || die "sbatch gave no job id for the array job: '$array_job'"
merge_job=$("${merge_cmd[@]:0:1}" --dependency "afterok:$array_job" "${merge_cmd[@]:1}")
merge_job=${merge_job%%;*}
[[ $merge_job =~ ^[0-9]+$ ]] || die "sbatch gave no job id for the merge job: '$merge_job' (array job $array_job is queued)"

if ((parsable)); then
    echo "$array_job $merge_job"
else
    echo "submitted array job $array_job ($shards tasks: $variant, $games games) and merge job $merge_job"
    echo "  shards: $run/shard-0 .. shard-$((shards - 1))"
    echo "  result: $run/merged (after job $merge_job)"
    echo "  logs:   $run/logs/"
    echo "  watch:  squeue -j $array_job,$merge_job"
fi
