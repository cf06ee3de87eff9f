#!/usr/bin/env bash
# Regenerates BENCHMARKS.md at the repository root from the harnesses' own output: nothing in it
# is typed by hand. Usage (from anywhere):
#   berth-bench/benchmarks.sh                      # everything (about 35 minutes)
#   MINIMIZE_SECONDS=60 berth-bench/benchmarks.sh  # a shorter safety net for the minimisation of D
#   BENCH_ONLY=models berth-bench/benchmarks.sh    # only section 6 (the shared ONNX models), in place
#   BENCH_ONLY=tflite berth-bench/benchmarks.sh    # only section 7 (the TFLite models and TFLM's head), in place
#   BENCH_ONLY=fastslow berth-bench/benchmarks.sh  # only section 8 (fast and slow memory), in place
#   BENCH_ONLY=scale berth-bench/benchmarks.sh     # only section 9 (the whole command at 10^4-10^6 buffers, as a ratio to json.load)
#   BENCH_ONLY=idealloc berth-bench/benchmarks.sh  # only section 10 (idealloc's instances beside idealloc)
#   BENCH_ONLY=frontier berth-bench/benchmarks.sh  # only section 11 (the certificates of D and J, re-checked)
#   BENCH_ONLY=schedule berth-bench/benchmarks.sh  # only section 12 (operator order and in-place reuse on the models)
#   BENCH_ONLY=irregular berth-bench/benchmarks.sh # only section 13 (operator order on generated irregular graphs, against XLA's schedulers)
# Reads the MiniMalloc instances in testdata/benchmarks/minimalloc and idealloc's in testdata/benchmarks/idealloc.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
data="$root/testdata/benchmarks/minimalloc"
minimize_seconds="${MINIMIZE_SECONDS:-300}"
out="$root/BENCHMARKS.md"
tmp="$(mktemp)"
jars="$(mktemp -d)"
trap 'rm -rf "$tmp" "$jars"' EXIT

mvn -B -q -DskipTests package >&2
# run from copies, so that a rebuild during the run cannot change what is measured
cp "$root/berth-cli/target/berth.jar" "$root/berth-bench/target/benchmarks.jar" "$jars/"
berth() { java -jar "$jars/berth.jar" "$@"; }
# The model tables time the launcher, as a user runs it (its JVM options, class-data sharing), on
# the copied jar; warm MODEL ARGS...: a first run of that kind, which makes the class-data archive
# the later runs map (docs/design.md, "Start-up").
export BERTH_JAR="$jars/berth.jar"
launcher="$root/berth"
warm() { rm -f "$jars/berth.jsa"; "$launcher" plan "$@" --json >/dev/null; }

# run TITLE COMMAND...: a section with the command and its verbatim output (stdout; progress
# on stderr goes to the console). run_summary: only from JMH's summary header on.
keep_all() { cat; }
jmh_summary() { sed -n '/^Benchmark /,$p'; }
run() {
  section "$1" keep_all "${@:2}"
}
run_summary() {
  section "$1" jmh_summary "${@:2}"
}
section() {
  local title="$1"
  local filter="$2"
  shift 2
  echo "== $title" >&2
  {
    echo
    echo "### $title"
    echo
    echo '```'
    echo "\$ $*" | sed "s#^\$ berth #\$ ./berth #; s#$root/##g; s#$jars/berth.jar#berth-cli/target/berth.jar#g; s#$jars/#berth-bench/target/#g"
    "$@" | "$filter" | sed "s#$root/##g; s#$jars/berth.jar#berth-cli/target/berth.jar#g; s#$jars/#berth-bench/target/#g"
    echo '```'
  } >> "$tmp"
}

models_section() {
  {
    echo
    echo "## 6. The shared ONNX models, planned as a user plans them"
    echo
    echo "\`berth plan MODEL --input ... --json\` with default options, one process per run (wall time"
    echo "includes the JVM's start; median of five). Activations = global's high-water mark less the"
    echo "generation overhead above them; TFLM greedy = the height TensorFlow Lite Micro's greedy planner"
    echo "gives the same buffer list (measured with TFLM's planner, an input here). Goal: activations at"
    echo "the lower bound, proved, within 1.5 s per model. Run on $(date -u '+%Y-%m-%d %H:%M UTC'), load"
    echo "average $(cut -d' ' -f1-3 /proc/loadavg)."
  } >> "$tmp"
  warm "$root/testdata/models/ch_ppocr_mobile_v2.0_cls_infer.onnx" --input x=1x3x48x192
  run "ModelPlans" java -cp "$jars/benchmarks.jar" dev.berth.bench.ModelPlans "$launcher" "$root/testdata/models"
}

tflite_section() {
  {
    echo
    echo "## 7. The TFLite models and TensorFlow Lite Micro's head"
    echo
    echo "\`berth plan MODEL.tflite --json\` (tensors alone) and, where the kernels' scratch buffers are known"
    echo "(\`testdata/tflm-scratch\`, from TFLM's own report), \`--tflm-scratch FILE\`, one process per run."
    echo "Tensors: Berth's head (the arena's high-water mark), its lower bound and proof, and TFLM's own"
    echo "head of the same tensors by Berth's reimplementation of TFLM's greedy planner (TflmGreedyPlanner,"
    echo "run in the harness) and as TFLM computed it (\`expected/\`, allocator only; person_detect_vela: with"
    echo "Vela's plan ignored). With scratch buffers: the head Berth predicts TFLM ends with under Berth's"
    echo "offline plan (scratch buffers placed online by TFLM's greedy policy), and TFLM's own head"
    echo "(reimplementation, and \`expected/\` under MicroInterpreter). Wall: import + plan, the whole"
    echo "command including the JVM's start, median of five runs of the command with --tflm-scratch (or"
    echo "without, where there is no scratch file). Goals: tensor head at the lower bound, final head never"
    echo "above TFLM's own, at most 1 s per model; the file \`--tflm-plan\` writes at most the original + the"
    echo "plan's entry (4·(3 + tensors) + 4 + 128 + 16 bytes) + 16 bytes per buffer, and at most 1.01 × the"
    echo "original for every model over 100 KB (issue 26). person_detect_vela's tensor head is that of Vela's"
    echo "plan, whose Ethos-U tensors Berth keeps (contract §5.1; \`--replace-plan\`: 158160, the \"TFLM own\""
    echo "columns, which ignore Vela's plan). The tensors' columns are \`--tflm-kernels other\` (no scratch"
    echo "buffers); \"Berth predicted\" is \`berth plan MODEL --json\` with no scratch file, the reference"
    echo "kernels' requests predicted (issue 26, item 4): equal to the final head with the scratch file and"
    echo "to TFLM's on every model TFLM ran (\"not known\": a custom operator, Ethos-U's or MediaPipe's"
    echo "Convolution2DTransposeBias in selfie_segmentation, whose requests Berth does not guess; TFLM's"
    echo "run of selfie_segmentation requested none: testdata/models/tflite/tflm-verification.md). Run on"
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)."
  } >> "$tmp"
  warm "$root/testdata/models/tflite/keyword_scrambled_8bit.tflite" --tflm-scratch "$root/testdata/tflm-scratch/keyword_scrambled_8bit.json"
  run "TflitePlans" java -cp "$jars/benchmarks.jar" dev.berth.bench.TflitePlans "$launcher" \
    "$root/testdata/models/tflite" "$root/testdata/tflm-scratch"
  {
    echo
    echo "Before issue 26 \`--tflm-plan\` kept every byte and appended a 16-aligned copy of every misaligned"
    echo "buffer: person_detect 497,984, face_detection_short_range 321,504, trained_lstm_int8 23,408 bytes."
  } >> "$tmp"
}

fastslow_section() {
  {
    echo
    echo "## 8. Fast and slow memory: which activations live in the local SRAM (issue 16)"
    echo
    echo "\`berth plan MODEL --fast-space sram --fast-capacity C --json\`, one process per run (wall time"
    echo "includes the JVM's start; median of three, which must agree), C = 1/8, 1/4 and 1/2 of the"
    echo "activations' peak live. ONNX models on npu-ref with its sram given npu-ref's dma32 format (its"
    echo "own sram20 addresses 1 MiB only; the harness writes that target), TFLite models on tflm with an"
    echo "sram added in the arena's format. Costs: accesses x bytes x accessCost (sram 0, the activation"
    echo "space 1) of the buffers with candidates; first-fit = TVM USMP's policy, fastest-bank-first ="
    echo "ExecuTorch's banked_greedy, both reimplemented in the core from their descriptions. Goals: Berth"
    echo "never worse than either, at least 20 % below fastest-bank-first on average, within 5 % of the"
    echo "lower bound where it proves one, at most 2 s per model. Run on $(date -u '+%Y-%m-%d %H:%M UTC'),"
    echo "load average $(cut -d' ' -f1-3 /proc/loadavg)."
  } >> "$tmp"
  warm "$root/testdata/models/ch_ppocr_mobile_v2.0_cls_infer.onnx" --input x=1x3x48x192 --fast-space sram
  run "FastSlowPlans" java -cp "$jars/benchmarks.jar" dev.berth.bench.FastSlowPlans "$launcher" "$root/testdata/models"
}

scale_section() {
  {
    echo
    echo "## 9. The whole command at scale, as a ratio (issues 14 and 29)"
    echo
    echo "An absolute time does not carry from one machine to the next; a ratio measured in one run does."
    echo "Each seeded workload file is planned by \`berth plan FILE -o plan.json\` (the launcher, default"
    echo "options, one process per run) and, in the same run, alternating with it, read by Python's"
    echo "\`json.load\` (a C parser building every object of the same file). Wall, CPU (user + system) and"
    echo "peak resident memory of each process by /usr/bin/time, median of 5 runs each; ratio = Berth's"
    echo "median wall / json.load's (the goals' measure); the CPU ratio beside it, which a busy machine"
    echo "changes less (Berth's JVM uses both cores, json.load one). Start-up: a one-buffer plan against"
    echo "\`java -version\`, the same way."
    echo "Workloads (\`WorkloadFiles\`): plain = 3 buffers starting per step in global, lifetimes and sizes"
    echo "as in §4; candidates = the same with every buffer a candidate for sram before global (§5.2), 1-8"
    echo "accesses; tiled = n buffers of 64 bytes in sram and one of 1 MiB in global tiled through sram."
    echo "Goals (issue 29): 10^6 and 10^5 plain within 2.0 x json.load, 10^6 within 1.5 GB; 10^4 within"
    echo "1 s of the one-buffer plan; start-up within 0.25 s of java -version; every run the same plan."
    echo "Run on $(date -u '+%Y-%m-%d %H:%M UTC'); the load average before and after each row is in its last column."
  } >> "$tmp"
  warm "$root/examples/convnet.json"
  run "CommandScale" java -cp "$jars/benchmarks.jar" dev.berth.bench.CommandScale "$launcher"
}

idealloc_section() {
  {
    echo
    echo "## 10. idealloc's instances, side by side with idealloc (issue 14, item 5)"
    echo
    echo "The 21 instances of testdata/benchmarks/idealloc/README.md (IOPDDL graphs, MindSpore SOMAS traces,"
    echo "MiniMalloc's challenging set) planned with no capacity to meet by \`berth bench idealloc FILE\`,"
    echo "one process per run (wall time includes the JVM's start and reading the file; median of 3"
    echo "runs, 1 when a run takes more than 20 s). idealloc's heights and times are the README's, measured"
    echo "on this machine with idealloc's release build (\`-l 1\`, its default, and \`-l 100\`); idealloc best"
    echo "= the lower of the two. Goals: Berth's height at most idealloc's best on all 21; best fit and"
    echo "greedy on Y_1 in at most 2 s end to end; every \`--time-limit\` kept within 10 %. Run on"
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)."
  } >> "$tmp"
  local ideal="$root/testdata/benchmarks/idealloc"
  run "Default options (auto)" java -cp "$jars/benchmarks.jar" dev.berth.bench.IdeallocTable "$jars/berth.jar" "$ideal"
  run "Best fit alone" java -cp "$jars/benchmarks.jar" dev.berth.bench.IdeallocTable "$jars/berth.jar" "$ideal" --solver best-fit
  run "Greedy by size alone" java -cp "$jars/benchmarks.jar" dev.berth.bench.IdeallocTable "$jars/berth.jar" "$ideal" --solver greedy
  {
    echo
    echo "The same instances in one JVM, as \`berth bench idealloc\` prints them (planner time per instance):"
  } >> "$tmp"
  run "berth bench idealloc" berth bench idealloc "$ideal" "$data"
  {
    echo
    echo "Whether \`--time-limit\` is kept: the same 22 files in one process per solver, each with a 5-second"
    echo "limit; the longest planner time per instance against the limit (goal: at most 110 %)."
  } >> "$tmp"
  run "TimeLimits" java -cp "$jars/benchmarks.jar" dev.berth.bench.TimeLimits "$jars/berth.jar" 5 "$ideal" "$data"
}

frontier_section() {
  {
    echo
    echo "## 11. The frontier: D and J (issue 12, item 6)"
    echo
    echo "No optimum of MiniMalloc's D or J is published, and Berth proves neither: the lower end of each"
    echo "bracket is the peak of live bytes. The upper end is the best placement Berth's own commands found,"
    echo "bounded by search nodes (the same bytes on every machine), kept in"
    echo "testdata/benchmarks/minimalloc-frontier as a certificate (its README: the commands, their times):"
    echo "D's from \`plan D.1048576.csv --capacity 1048576 --minimize --search-nodes 100000000 --time-limit 7200\`,"
    echo "whose probe at 1,000,448 alone gives it again (\`mvn -B -Pfrontier -pl berth-cli -am verify\` runs that"
    echo "search and compares the bytes), J's from one"
    echo "exact search at 1,015,808 on J with its times renumbered by rank (FrontierTest, default run). The"
    echo "table re-checks the certificates: every row fixed at its offset, validated; the height is the"
    echo "certificate's, and \"optimal\" is of the fixed placement, not of the instance."
  } >> "$tmp"
  run "The certificates, re-checked" berth bench minimalloc "$root/testdata/benchmarks/minimalloc-frontier"
}

schedule_section() {
  {
    echo
    echo "## 12. Operator order and in-place reuse on the models (issue 28, items 2 and 3)"
    echo
    echo "Each model imported as \`berth plan\` imports it (ONNX on npu-ref, global aligned to 64; TFLite on"
    echo "tflm, arena aligned to 16), turned into an operator graph by the importers' adapters (OnnxSchedule,"
    echo "TfliteSchedule: the workload's activation buffers, operator i = step i, the in-place pairs of"
    echo "docs/contract.md §5.4), and searched by OrderSearch four ways: the file's order without reuse"
    echo "(file: today's peak live), the file's order with elementwise in-place pairs (in-place), the best"
    echo "order without reuse (best order), and both. Bytes are peak live reserved bytes of activations;"
    echo "bound and proof are of \"both\" (optimal: no order and no choice of pairs does better); nodes and"
    echo "segments are its search's work; s its wall time in this process (a figure, not a goal)."
    echo "Goals (issue 28): both at most cls 331,776, det 26,214,400, silero 52,096 (1x1536, 16 kHz),"
    echo "face_detection 1,310,720, each proved or bracketed; the others no worse than the file's order."
    echo "keyword_scrambled_8bit falls from 288 to 192: its first operator, QUANTIZE int16 to int8, writes"
    echo "its 96 bytes over the model's 192-byte input, which dies there. ScheduleOnRealModelsTest asserts"
    echo "the goals. Run on $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)."
  } >> "$tmp"
  run "ModelSchedules" java -cp "$jars/benchmarks.jar" dev.berth.bench.ModelSchedules "$root/testdata/models"
}

irregular_section() {
  {
    echo
    echo "## 13. Operator order on irregular graphs, against XLA's schedulers (issue 28)"
    echo
    echo "Seeded weightless graphs (\`IrregularGraphs\`, float32 tensors sized from the structure, aligned to"
    echo "64): RandWire cells, WS(32, 4, 0.75) made a DAG by node index as HMCOS's script/randwire.py builds"
    echo "them (cells 1-3 of its network: one operator per node, or fine: weighted sum, ReLU, depthwise and"
    echo "pointwise convolution per node); NASNet-like normal and reduction cells with random genotypes and"
    echo "stacks of three (normal, normal, reduction) as HMCOS's script/nasnet.py builds cells; U-Nets"
    echo "(valid convolutions with crops, or same padding with optional skip projections) and their"
    echo "decoders alone, the skips graph inputs. File = the generator's order. XLA's ListScheduler,"
    echo "DFSMemoryScheduler and PostOrderMemoryScheduler written again from xla/service/hlo_memory_scheduler.cc"
    echo "(\`XlaSchedulers\`; graph inputs count as freed at their last reader, Berth's rule); best = the"
    echo "lowest of them and the file order. Berth = OrderSearch, best order, its default node budget per"
    echo "segment (bounded by work); s = its wall time in this process, a figure. Peaks are live reserved"
    echo "bytes by the rules of schedule.Graph, each order measured the same way. Goals (issue 28): Berth"
    echo "at most the best on every graph; proved optimal on every graph of at most 64 operators within"
    echo "10 s. IrregularSchedulesTest asserts the first two on three seeds of each family up to 64"
    echo "operators. Run on $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)."
  } >> "$tmp"
  run "IrregularSchedules" java -cp "$jars/benchmarks.jar" dev.berth.bench.IrregularSchedules
}

# BENCH_ONLY=models (section 6), tflite (section 7), fastslow (section 8), scale (9), idealloc (10), frontier (11), schedule (12) or irregular (13): only that section, in place of the earlier one
# (up to the next section or the closing load line), or before the closing load line
if [ -n "${BENCH_ONLY:-}" ]; then
  : > "$tmp"
  case "$BENCH_ONLY" in
    models) number=6; models_section ;;
    tflite) number=7; tflite_section ;;
    fastslow) number=8; fastslow_section ;;
    scale) number=9; scale_section ;;
    idealloc) number=10; idealloc_section ;;
    frontier) number=11; frontier_section ;;
    schedule) number=12; schedule_section ;;
    irregular) number=13; irregular_section ;;
    *) echo "BENCH_ONLY: models, tflite, fastslow, scale, idealloc, frontier, schedule or irregular, not $BENCH_ONLY" >&2; exit 2 ;;
  esac
  python3 - "$out" "$tmp" "$number" <<'PY'
import sys
out, new, number = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3]
text = open(out).read()
load = "\nLoad average at the end"
cut = text.find("\n## " + number + ". ")
if cut >= 0:
    nxt = text.find("\n## ", cut + 1)
    end = text.find(load)
    stop = min(x for x in (nxt, end, len(text)) if x >= 0)
    text = text[:cut] + new + text[stop:]
else:
    end = text.find(load)
    text = text[:end] + new + text[end:] if end >= 0 else text + new
open(out, "w").write(text)
PY
  rm -rf "$tmp" "$jars"
  trap - EXIT
  echo "wrote section $number of $out" >&2
  exit 0
fi

{
  echo "# Benchmarks"
  echo
  echo "Generated by \`berth-bench/benchmarks.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'); every table below is the"
  echo "verbatim output of the command above it. Re-run the script to refresh this file."
  echo
  echo "## Machine"
  echo
  echo '```'
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  java -version 2>&1
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo '```'
  echo
  echo "Wall times depend on what else runs on the machine: the load average is printed at the"
  echo "start and at the end. Exact-search and minimisation results (solved, heights, brackets) do"
  echo "not depend on the load, except where a time limit cuts a search short."
  echo
  echo "## 1. MiniMalloc challenging instances, exact solver (issue 7, item 2)"
  echo
  echo "Goal: all 11 solved at capacity 1,048,576, total solve time at most 17 s in one JVM"
  echo "(MiniMalloc's C++ takes 35.5 s on a machine like this one). Every placement is re-checked"
  echo "by the plan validator before it counts as solved."
} > "$tmp"

run "Exact solver at each file's capacity" berth bench minimalloc "$data" --time-limit 60
run "The same on one thread (same answers: the portfolio is deterministic)" berth bench minimalloc "$data" --time-limit 60 --threads 1

{
  echo
  echo "## 2. Heuristics alone on the same instances (issue 7, item 4)"
  echo
  echo "Goal: within 1.10x the lower bound (TFLM's greedy: 1.28-1.41x)."
} >> "$tmp"
run "Greedy by size" berth bench minimalloc "$data" --solver greedy
run "Best fit" berth bench minimalloc "$data" --solver best-fit
run "Skyline (squeaky-wheel skyline dives, then peak repair)" berth bench minimalloc "$data" --solver skyline

{
  echo
  echo "## 3. Minimisation: the smallest plans, proved or bracketed"
  echo
  echo "Every instance minimised with \`--minimize\`'s work budget (search nodes, so the brackets do not"
  echo "depend on the machine or its load): the proved optimum, or the bracket left when the budget ran"
  echo "out. With 10^8 search nodes (\`--search-nodes\`) D and J narrow further, and J's best placement known"
  echo "comes from another search: section 11. Then D alone,"
  echo "printing its bracket as it narrows."
} >> "$tmp"
run "Every instance, --minimize" berth bench minimalloc "$data" --minimize
run "D, --minimize" berth plan "$data/D.1048576.csv" --capacity 1048576 --minimize --time-limit "$minimize_seconds"

{
  echo
  echo "## 4. Heuristics at scale (issue 7, item 4)"
  echo
  echo "Seeded ONNX-like synthetic workloads (80 % of lifetimes 1-4 steps, 15 % 5-50, 5 % 51-1000;"
  echo "sizes log-uniform 64 B - 4 MiB). Times are per solve after warm-up runs, in one JVM with"
  echo "-Xmx1g. Goals: 10^4 buffers in at most 50 ms at 1.01x the lower bound; 10^6 in at most 3 s;"
  echo "time growing at most 12x per 10x buffers."
} >> "$tmp"
run "HeuristicScale" java -Xmx1g -cp "$jars/benchmarks.jar" dev.berth.bench.HeuristicScale

{
  echo
  echo "### The whole planner with its defaults at scale"
  echo
  echo "\`auto\` minimises every space, but only as far as the size allows (docs/design.md): best fit and"
  echo "greedy up to 131,072 buffers, greedy alone above; the skyline heuristic up to 16,384; the exact"
  echo "search up to 4,096. The same workloads, one logical space, through \`Planner.plan\` (checks,"
  echo "admission, metrics and the validator included). Goal: 10^6 buffers in about the time of the"
  echo "heuristic alone plus the planner's own phases."
} >> "$tmp"
run "PlannerScale" java -Xmx2g -cp "$jars/benchmarks.jar" dev.berth.bench.PlannerScale

{
  echo
  echo "## 5. Checked arithmetic (issue 7, item 5)"
  echo
  echo "JMH: the admission check, and greedy planning of a 10^4-buffer workload followed by the"
  echo "admission of every placement, through the checked vocabulary and through an unchecked copy"
  echo "that exists only in the benchmark module. Goal: at most 3 % difference on planning."
} >> "$tmp"
run_summary "CheckedArithmeticBenchmark (JMH's summary table)" java -jar "$jars/benchmarks.jar" CheckedArithmetic -f 2 -wi 5 -i 10
models_section
tflite_section
fastslow_section
scale_section
idealloc_section
frontier_section
schedule_section
irregular_section

{
  echo
  echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} >> "$tmp"
mv "$tmp" "$out"
rm -rf "$jars"
trap - EXIT
echo "wrote $out" >&2
