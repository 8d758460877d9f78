#!/bin/sh
# `miga events import` of 1M events against bench/import_python.py (json + sqlite3 from the
# standard library, one transaction, the same schema and indexes) on the same file, in the
# same run, alternating (the target: miga <= 0.3x the script's time). Also counts
# miga's instructions with callgrind when asked (CALLGRIND=1; slow).
# DENSE=1: the dense history of bench/make_events.py (5,000 events a day, details on 40% of lines).
. "$(dirname "$0")/common.sh"
n=${EVENTS:-1000000}
rounds=${ROUNDS:-3}
python3 bench/make_events.py "$n" > "$work/events.jsonl"
out=bench/results/import-latest.txt
: > "$out"
time_of() { start=$(date +%s.%N); "$@" >/dev/null; echo "$(date +%s.%N) - $start" | bc; }
miga_times="" python_times=""
for round in $(seq "$rounds"); do
    rm -rf "$work/home" "$work/python.sqlite3"*; mkdir -p "$work/home"
    miga_times="$miga_times $(time_of env -i HOME="$work/home" "$miga" events import "$work/events.jsonl")"
    python_times="$python_times $(time_of python3 bench/import_python.py "$work/events.jsonl" "$work/python.sqlite3")"
done
count=$(sqlite3 "$work/home/.local/share/miga/miga.sqlite3" "SELECT count(*) FROM events")
[ "$count" -eq "$n" ] || { echo "miga imported $count of $n" >&2; exit 1; }
python3 - "$n" "$miga_times" "$python_times" <<'PY' | tee "$out"
import statistics, sys
n, miga, python = int(sys.argv[1]), [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
m, p = statistics.median(miga), statistics.median(python)
print(f"import of {n} events: miga {m:.2f} s (runs {', '.join(f'{x:.2f}' for x in miga)}), "
      f"python script {p:.2f} s (runs {', '.join(f'{x:.2f}' for x in python)}): ratio {m / p:.2f} (target <= 0.30) "
      + ("ok" if m / p <= 0.30 else "MISSED"))
PY
