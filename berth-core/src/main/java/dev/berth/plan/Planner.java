package dev.berth.plan;

import dev.berth.admit.Admission;
import dev.berth.assign.Assigner;
import dev.berth.assign.Work;
import dev.berth.admit.Placement;
import dev.berth.arith.Checked;
import dev.berth.alloc.Allocation;
import dev.berth.artifact.DescriptorEntry;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.artifact.SpaceUse;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import dev.berth.artifact.Optimality;
import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.solve.SpaceProblem;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import dev.berth.workload.Workload;
import dev.berth.workload.WorkloadCheck;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Workload + target to a validated plan. Phases: check the workload; gather the items of each
 * space; compute reserved sizes (host arithmetic); solve each space; admit every placement
 * through {@link Admission}; compute the metrics; re-check the whole plan with the
 * independent {@link PlanValidator}. A failure anywhere is a typed {@link BerthException}
 * chosen by the contract's precedence (input, arithmetic, format, capacity).
 */
public final class Planner {

    /**
     * Planning options: the solver; the effort (the work budget of the minimisation); the time
     * limit, a safety net over the whole plan (a search it stops makes the plan depend on the
     * machine, and the plan says so); the exact search's threads (0: one per processor; the plan
     * does not depend on them); {@code progress}, which hears from searches as they poll
     * their budget and from minimisations as their brackets narrow; and {@code searchNodes},
     * the exact search's work per space in search nodes when given ({@link #withSearchNodes}),
     * in place of the effort's own rule (docs/design.md).
     */
    public record Options(SolverChoice solver, Effort effort, double timeLimitSeconds, int threads,
                          dev.berth.solve.Progress progress, java.util.OptionalLong searchNodes) {
        public Options(SolverChoice solver, Effort effort, double timeLimitSeconds, int threads,
                       dev.berth.solve.Progress progress) {
            this(solver, effort, timeLimitSeconds, threads, progress, java.util.OptionalLong.empty());
        }

        public Options(SolverChoice solver, double timeLimitSeconds) {
            this(solver, Effort.DEFAULT, timeLimitSeconds, 0, dev.berth.solve.Progress.NONE);
        }

        public Options(SolverChoice solver, double timeLimitSeconds, dev.berth.solve.Progress progress) {
            this(solver, Effort.DEFAULT, timeLimitSeconds, 0, progress);
        }

        public Options {
            java.util.Objects.requireNonNull(solver, "solver");
            java.util.Objects.requireNonNull(effort, "effort");
            if (!(timeLimitSeconds > 0) || Double.isInfinite(timeLimitSeconds)) {
                throw BerthException.invalid("timeLimitSeconds", Double.toString(timeLimitSeconds),
                        "timeLimitSeconds: must be a positive, finite number of seconds, got " + timeLimitSeconds);
            }
            java.util.Objects.requireNonNull(progress, "progress (use Progress.NONE)");
            if (threads < 0) {
                throw BerthException.invalid("threads", Integer.toString(threads), "threads: must be 0 (one per "
                        + "processor) or more, got " + threads);
            }
            java.util.Objects.requireNonNull(searchNodes, "searchNodes (use OptionalLong.empty())");
            if (searchNodes.isPresent() && searchNodes.getAsLong() < 1) {
                throw BerthException.invalid("searchNodes", Long.toString(searchNodes.getAsLong()),
                        "searchNodes: must be at least 1 search node, got " + searchNodes.getAsLong());
            }
            // a heuristic places once: it runs no exact search whose nodes could be counted
            if (!solver.searches() && searchNodes.isPresent()) {
                throw BerthException.invalid("searchNodes", Long.toString(searchNodes.getAsLong()), "searchNodes "
                        + "sets the exact search's work: it needs the solver auto or exact, not the heuristic " + solver);
            }
        }

        /** {@code auto}, the default effort, 10 s, one search thread per processor, no progress. */
        public static Options defaults() {
            return new Options(SolverChoice.AUTO, 10);
        }

        public Options withSolver(SolverChoice s) {
            return new Options(s, effort, timeLimitSeconds, threads, progress, searchNodes);
        }

        public Options withEffort(Effort e) {
            return new Options(solver, e, timeLimitSeconds, threads, progress, searchNodes);
        }

        public Options withTimeLimit(double seconds) {
            return new Options(solver, effort, seconds, threads, progress, searchNodes);
        }

        public Options withThreads(int n) {
            return new Options(solver, effort, timeLimitSeconds, n, progress, searchNodes);
        }

        public Options withProgress(dev.berth.solve.Progress p) {
            return new Options(solver, effort, timeLimitSeconds, threads, p, searchNodes);
        }

        /**
         * These options with the exact search's work per space fixed at {@code nodes} search
         * nodes (at least 1), whatever the space's size: the narrowing of the bracket, and the
         * search for a first placement within a finite space's limit when the heuristics' does
         * not fit, each get that many. A node count, unlike a time limit, gives the same plan on
         * every machine; a large one may need a larger {@link #timeLimitSeconds}. A heuristic solver
         * runs no exact search, so options with one and a node count are refused as invalid-input,
         * by whichever call makes the pair. (The effort is not refused with one: it also sets the
         * work of the assignment phase, for buffers with candidate spaces.) It changes nothing where no exact
         * search runs: a space the heuristics already place at its lower bound, a space larger than
         * {@code auto} searches.
         */
        public Options withSearchNodes(long nodes) {
            return new Options(solver, effort, timeLimitSeconds, threads, progress, java.util.OptionalLong.of(nodes));
        }
    }

    private Planner() {
    }

    public static PlanResult plan(Target target, Workload workload, Options options) {
        java.util.Objects.requireNonNull(target, "target");
        java.util.Objects.requireNonNull(workload, "workload");
        java.util.Objects.requireNonNull(options, "options");
        WorkloadCheck.check(target, workload);
        Optional<Assigner.Result> assigned = workload.buffers().stream().anyMatch(BufferSpec::hasChoice)
                ? Optional.of(Assigner.assign(target, workload, assignWork(options.effort()))) : Optional.empty();
        if (assigned.isPresent()) {
            workload = assigned.get().workload();
        }
        Budget budget = Budget.seconds(options.timeLimitSeconds(), options.progress());
        Map<String, SpaceState> spaces = gather(target, workload);
        // host arithmetic for every item first: it outranks format and capacity
        Map<String, SpaceProblem> problems = new LinkedHashMap<>();
        for (SpaceState st : spaces.values()) {
            problems.put(st.space.name(), problem(st.space, st.items()));
        }
        Map<String, SpaceOutcome> used = new LinkedHashMap<>();
        List<BerthException> failures = new ArrayList<>();
        for (SpaceState st : spaces.values()) {
            Space s = st.space;
            SpaceProblem p = problems.get(s.name());
            SpaceOutcome o = SharedOffsets.of(workload).solve(p, q -> SpaceSearch.solve(q, options, budget.scope(),
                    q == p ? seed(st, assigned) : Optional.empty()));
            used.put(s.name(), o);
            try {
                st.admitted(admitAll(s, st.items(), p, o.offsets()));
            } catch (BerthException e) {
                failures.add(e.category() == Category.CAPACITY_EXCEEDED
                        ? Diagnosis.capacity(s, p, (Failure.CapacityExceeded) e.failure(), o, budget) : e);
            }
        }
        if (!failures.isEmpty()) {
            // contract §1: an address-format failure outranks a capacity failure
            failures.sort(java.util.Comparator.comparingInt(e -> e.category().precedence()));
            throw failures.get(0);
        }
        List<DescriptorEntry> descriptors = List.of();
        boolean tiled = workload.buffers().stream().anyMatch(b -> b.tile().isPresent());
        if (tiled) {
            Tiling.Result tiles = Tiling.plan(target, workload.buffers(), spaces);
            for (Map.Entry<String, List<Tiling.TileBuffer>> e : tiles.tileBuffers().entrySet()) {
                for (Tiling.TileBuffer tb : e.getValue()) {
                    Allocation a = tb.allocation();
                    spaces.get(e.getKey()).add(a.placement(), a.live(), Origin.TILE, Optional.of(tb.of()));
                }
            }
            descriptors = tiles.descriptors();
        }
        generate(target, workload, descriptors.size(), spaces);
        return finish(target, workload, options, spaces, used, descriptors, assigned.map(Assigner.Result::assignment));
    }

    /**
     * The assignment's work at an effort: each greedy order, with its repair, may look at about
     * 10^7 held reservations while trying reservations (10^8 with {@code --minimize});
     * the exact search (up to {@link Assigner#EXACT_UP_TO} buffers with candidates) 2 x 10^5
     * nodes (5 x 10^6), none at {@link Effort#FIT}.
     */
    static Work assignWork(Effort effort) {
        return switch (effort) {
            case FIT -> new Work(10_000_000, 0);
            case DEFAULT -> new Work(10_000_000, 200_000);
            case MINIMIZE -> new Work(100_000_000, 5_000_000);
        };
    }

    /** The assignment's placement of the space's items, in item order, when it placed that space. */
    private static Optional<long[]> seed(SpaceState st, Optional<Assigner.Result> assigned) {
        if (assigned.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Long> at = assigned.get().placements().get(st.space.name());
        if (at == null) {
            return Optional.empty();
        }
        List<Item> items = st.items();
        long[] offsets = new long[items.size()];
        for (int i = 0; i < offsets.length; i++) {
            Long o = at.get(items.get(i).name());
            if (o == null) {
                throw new IllegalStateException("the assignment did not place " + items.get(i).name() + " in space "
                        + st.space.name());
            }
            offsets[i] = o;
        }
        return Optional.of(offsets);
    }

    /** Generation-time allocations, after everything else, live over every step. */
    private static void generate(Target target, Workload workload, long descriptors, Map<String, SpaceState> spaces) {
        if (target.generation().isEmpty()) {
            return;
        }
        Generation g = target.generation().get();
        long steps = workload.steps();
        // the last step of a lifetime, so at most 2^31-1
        Lifetime all = new Lifetime(0, (int) Checked.narrow(Math.max(0, steps - 1), 31));
        if (descriptors > 0 && g.descriptor().isPresent()) {
            Placement p = GenerationAllocator.descriptorTable(target, g.descriptor().get(), descriptors, spaces);
            spaces.get(p.space().name()).add(p, all, Origin.DESCRIPTOR_TABLE, Optional.empty());
        }
        if (steps > 0 && g.instruction().isPresent()) {
            Placement p = GenerationAllocator.instructions(target, g.instruction().get(), steps, spaces);
            spaces.get(p.space().name()).add(p, all, Origin.INSTRUCTIONS, Optional.empty());
        }
    }

    private static PlanResult finish(Target target, Workload workload, Options options, Map<String, SpaceState> spaces,
                                     Map<String, SpaceOutcome> used, List<DescriptorEntry> descriptors,
                                     Optional<dev.berth.artifact.Assignment> assignment) {
        SharedOffsets shared = SharedOffsets.of(workload);
        List<PlannedBuffer> buffers = new ArrayList<>();
        Map<String, SpaceMetrics> metrics = new LinkedHashMap<>();
        Map<String, List<PlannedBuffer>> bySpace = new LinkedHashMap<>();
        for (SpaceState st : spaces.values()) {
            Space s = st.space;
            List<Item> items = st.items();
            List<Placement> ps = st.placed();
            List<PlannedBuffer> planned = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                planned.add(items.get(i).planned(ps.get(i)));
            }
            List<PlannedBuffer> in = shared.mark(planned);
            bySpace.put(s.name(), in);
            SpaceUse use = SpaceUse.of(in);
            metrics.put(s.name(), new SpaceMetrics(s.kind(), s.capacity(), use.highWater(), use.peak().bytes(),
                    use.peak().step(), use.generation(), s.runtimeReserve(),
                    Optional.of(optimality(used.get(s.name()), in, use.highWater(), use.peak().bytes()))));
        }
        // artifact order: the workload's buffers, then fixed regions, then derived reservations. A
        // space gathered its fixed regions, then its buffers, each in input order (gather), and
        // had the derived ones added after them: each is read from its space at a cursor.
        Map<String, int[]> at = new java.util.HashMap<>();
        for (SpaceState st : spaces.values()) {
            at.put(st.space.name(), new int[3]);
        }
        for (FixedRegion f : workload.fixed()) {
            at.get(f.space().name())[1]++;
        }
        for (BufferSpec b : workload.buffers()) {
            at.get(b.space().name())[2]++;
        }
        for (int[] c : at.values()) {
            // {next fixed region, next buffer, first derived}
            c[2] += c[1];
            c[0] = 0;
        }
        for (BufferSpec b : workload.buffers()) {
            buffers.add(planned(bySpace.get(b.space().name()), at.get(b.space().name())[1]++, b.name()));
        }
        for (FixedRegion f : workload.fixed()) {
            buffers.add(planned(bySpace.get(f.space().name()), at.get(f.space().name())[0]++, f.name()));
        }
        for (Map.Entry<String, List<PlannedBuffer>> e : bySpace.entrySet()) {
            List<PlannedBuffer> in = e.getValue();
            for (int i = at.get(e.getKey())[2]; i < in.size(); i++) {
                buffers.add(in.get(i));
            }
        }
        Plan plan = new Plan(target, workload.name(), options.solver(), metrics, buffers, descriptors, assignment,
                shared.order());
        Verdict v = PlanValidator.validate(plan);
        if (v instanceof Verdict.Invalid bad) {
            throw new InvalidPlanException(bad);
        }
        Map<String, SolverKind> solvers = new LinkedHashMap<>();
        used.forEach((space, o) -> solvers.put(space, o.solver()));
        return new PlanResult(plan, solvers, (Verdict.Valid) v);
    }

    /** The artifact entry of item {@code i} of a space, which gather put there for {@code name}. */
    private static PlannedBuffer planned(List<PlannedBuffer> in, int i, String name) {
        PlannedBuffer b = in.get(i);
        if (!b.name().equals(name)) {
            throw new IllegalStateException("item " + i + " of space " + b.space() + " is " + b.name() + ", not " + name);
        }
        return b;
    }

    /**
     * What is proved about a space's high-water mark {@code high}: the search's bracket of its
     * placed reservations' height, carried through the generation-time allocations above them
     * (each at the aligned top, as {@link GenerationAllocator} puts it), and never below the peak
     * of live bytes over everything in the space.
     */
    private static Optimality optimality(SpaceOutcome o, List<PlannedBuffer> in, long high, long peak) {
        long fromBound = o.lowerBound();
        long fromSearch = o.provedLower();
        for (PlannedBuffer p : in) {
            Origin origin = p.origin();
            if (origin == Origin.DESCRIPTOR_TABLE || origin == Origin.INSTRUCTIONS) {
                fromBound = Checked.saturatingAdd(Checked.saturatingAlignUp(fromBound, p.alignment()), p.reserved());
                fromSearch = Checked.saturatingAdd(Checked.saturatingAlignUp(fromSearch, p.alignment()), p.reserved());
            }
        }
        long staticBound = Math.min(high, Math.max(peak, fromBound));
        long lower = Math.min(high, Math.max(peak, fromSearch));
        if (lower >= high) {
            return new Optimality(o.solver(), high, staticBound >= high ? Optimality.Proof.LOWER_BOUND
                    : Optimality.Proof.SEARCH, Optional.empty(), o.timeLimited());
        }
        Optimality.Open why = o.provedLower() >= o.height() ? Optimality.Open.TILES
                : o.open().orElse(Optimality.Open.WORK_BUDGET);
        return new Optimality(o.solver(), lower, Optimality.Proof.OPEN, Optional.of(why),
                o.timeLimited() || why == Optimality.Open.TIME_LIMIT);
    }

    /** Each space's state, in the target's order, with its items: fixed regions first, then buffers, in input order. */
    private static Map<String, SpaceState> gather(Target target, Workload w) {
        Map<String, SpaceState> m = new LinkedHashMap<>();
        for (Space s : target.spaces().values()) {
            m.put(s.name(), new SpaceState(s));
        }
        for (FixedRegion f : w.fixed()) {
            m.get(f.space().name()).gather(new Item(f.name(), f.size(), 1, f.live(), Origin.FIXED, Optional.empty(), f.offset()));
        }
        for (BufferSpec b : w.buffers()) {
            m.get(b.space().name()).gather(new Item(b.name(), b.size(), b.alignment(), b.live(), Origin.TENSOR, Optional.empty(), -1));
        }
        return m;
    }

    /**
     * The bytes Berth reserves for {@code requested} bytes at {@code alignment} in {@code space}:
     * rounded up to a multiple of {@code lcm(space alignment, alignment)}, as every placement
     * is. {@code arithmetic-overflow} naming {@code buffer} if that passes 2^63-1,
     * {@code invalid-input} for a negative size or a non-positive alignment.
     */
    public static long reservedSize(Space space, String buffer, long requested, long alignment) {
        java.util.Objects.requireNonNull(space, "space");
        dev.berth.failure.Require.name(buffer, "buffer");
        dev.berth.failure.Require.nonNegative(requested, buffer + ".size");
        dev.berth.failure.Require.positive(alignment, buffer + ".alignment");
        return Admission.reservedSize(space, buffer, requested,
                Admission.effectiveAlignment(space, buffer, requested, alignment));
    }

    /** The compact problem of one space; reserved sizes through the admission check's own arithmetic. */
    static SpaceProblem problem(Space s, List<Item> items) {
        int n = items.size();
        String[] names = new String[n];
        long[] reserved = new long[n];
        long[] align = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        long[] fixed = new long[n];
        for (int i = 0; i < n; i++) {
            Item it = items.get(i);
            names[i] = it.name();
            first[i] = it.live().first();
            last[i] = it.live().last();
            fixed[i] = it.fixedOffset();
            if (it.fixedOffset() >= 0) {
                align[i] = 1;
                reserved[i] = it.requested();
            } else {
                align[i] = Admission.effectiveAlignment(s, it.name(), it.requested(), it.alignment());
                reserved[i] = Admission.reservedSize(s, it.name(), it.requested(), align[i]);
            }
        }
        return new SpaceProblem(s, names, reserved, align, first, last, fixed, limit(s));
    }

    /** The largest exclusive end offset the space's format and capacity allow ({@link Admission#limit}). */
    static long limit(Space s) {
        return Admission.limit(s);
    }

    /**
     * What solving one space gave ({@link SpaceSearch}): the offsets to admit, the solver that
     * made them, their height; the outcome of an exact search at the limit when one ran and found
     * nothing within it (a proof, or an undecided search: the diagnosis of a capacity failure
     * reports it); the static lower bound of the height and the lower end the search proved; why
     * the bracket is open (empty when the height is proved the smallest); whether the clock
     * stopped a search.
     */
    record SpaceOutcome(long[] offsets, SolverKind solver, long height, Optional<Outcome> exact, long lowerBound,
                        long provedLower, Optional<Optimality.Open> open, boolean timeLimited) {
    }

    /**
     * Admits every item at its solved offset. When one fails, the failure reported is that of
     * the lowest reservation past a limit: the items are then admitted again lowest end first
     * (admission has no side effects, so only a failing space pays for the sort). Returns the
     * placements in item order.
     */
    private static List<Placement> admitAll(Space s, List<Item> items, SpaceProblem p, long[] offsets) {
        int n = items.size();
        Placement[] out = new Placement[n];
        try {
            boolean aligned = true;
            for (int i = 0; i < n && aligned; i++) {
                out[i] = admit(s, items.get(i), offsets[i]);
                aligned = out[i].offset() == offsets[i];
            }
            if (aligned) {
                return List.of(out);
            }
        } catch (BerthException e) {
            // the lowest end's failure is the one to report: below
        }
        long[] ends = new long[n];
        boolean packed = n <= 1 << 20;
        for (int i = 0; i < n; i++) {
            ends[i] = Checked.saturatingAdd(offsets[i], p.reserved(i));
            packed &= ends[i] >= 0 && ends[i] < 1L << 43;
        }
        int[] order = lowestEndFirst(ends, packed);
        for (int i : order) {
            Placement pl = admit(s, items.get(i), offsets[i]);
            if (pl.offset() != offsets[i]) {
                throw new IllegalStateException("solver placed " + items.get(i).name() + " at unaligned offset " + offsets[i]);
            }
            out[i] = pl;
        }
        return List.of(out);
    }

    private static Placement admit(Space s, Item it, long offset) {
        return it.fixedOffset() >= 0
                ? Admission.admit(s, it.name(), it.fixedOffset(), it.requested(), 1, Admission.Mode.EXACT, true)
                : Admission.admit(s, it.name(), offset, it.requested(), it.alignment());
    }

    /** Item indices by end, then index; sorted as packed longs when every end and index fit in 63 bits. */
    private static int[] lowestEndFirst(long[] ends, boolean packed) {
        int n = ends.length;
        int[] order = new int[n];
        if (packed) {
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = (ends[i] << 20) | i;
            }
            java.util.Arrays.sort(keys);
            for (int i = 0; i < n; i++) {
                order[i] = (int) (keys[i] & ((1 << 20) - 1));
            }
            return order;
        }
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = i;
        }
        java.util.Arrays.sort(boxed, (a, b) -> {
            int c = Long.compare(ends[a], ends[b]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        for (int i = 0; i < n; i++) {
            order[i] = boxed[i];
        }
        return order;
    }
}
