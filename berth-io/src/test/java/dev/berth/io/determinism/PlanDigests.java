package dev.berth.io.determinism;

import dev.berth.failure.BerthException;
import dev.berth.io.FailureJson;
import dev.berth.io.MiniMallocCsv;
import dev.berth.io.PlanJson;
import dev.berth.io.TargetJson;
import dev.berth.io.onnx.OnnxImport;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * What the determinism test compares: the SHA-256 of the artifact each case gives
 * ({@link PlanJson#toBytes}), or of its {@code --json} error object when planning fails (a
 * failure must be as reproducible as a plan). Also a {@code main} that prints the digests of
 * the same cases, so that a fresh JVM can be asked for them.
 */
public final class PlanDigests {
    /** Generous: every case here finishes its searches far below it, so no result depends on the clock. */
    static final double TIME_LIMIT = 60;
    static final Target NPU_REF = TargetJson.load("npu-ref");

    /** One planning request: a workload on a target with a solver. */
    record Case(String label, Target target, Workload workload, SolverChoice solver) {
    }

    private PlanDigests() {
    }

    /** The artifact's bytes, or the failure's JSON error object. */
    static byte[] outcome(Case c) {
        return outcome(c, new Planner.Options(c.solver(), TIME_LIMIT));
    }

    /** The same with these options (the case's solver is used). */
    static byte[] outcome(Case c, Planner.Options options) {
        try {
            return PlanJson.toBytes(Planner.plan(c.target(), c.workload(), options.withSolver(c.solver())).plan());
        } catch (BerthException e) {
            return FailureJson.toJson(e.failure()).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** A MiniMalloc instance of {@code testdata} at its capacity, planned with {@code solver}. */
    static Case miniMalloc(Path file, long capacity, SolverChoice solver) {
        Target t = MiniMallocCsv.target(capacity);
        return new Case(file.getFileName() + "/" + solver.id(), t, MiniMallocCsv.read(file).workload(t),
                solver);
    }

    static String digest(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** label → digest, in case order. */
    static Map<String, String> digests(List<Case> cases) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Case c : cases) {
            out.put(c.label(), digest(outcome(c)));
        }
        return out;
    }

    /**
     * {@code n} random workloads on {@code npu-ref} from {@code seed}, each with every solver:
     * buffers in the logical, local and external spaces with mixed alignments (not only powers
     * of two), zero sizes, fixed regions, tiled tensors with and without a count, and local
     * spaces that are sometimes too small (so failures are compared too).
     */
    static List<Case> random(long seed, int n) {
        Random rnd = new Random(seed);
        long[] aligns = {1, 2, 3, 8, 10, 24, 64, 100, 4096};
        String[] spaces = {"global", "global", "sram", "sram", "weights"};
        List<Case> out = new ArrayList<>();
        for (int w = 0; w < n; w++) {
            int steps = 1 + rnd.nextInt(12);
            List<BufferSpec> buffers = new ArrayList<>();
            int count = 1 + rnd.nextInt(10);
            for (int i = 0; i < count; i++) {
                int first = rnd.nextInt(steps);
                int last = first + rnd.nextInt(steps - first);
                String space = spaces[rnd.nextInt(spaces.length)];
                long size = rnd.nextInt(8) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 4096 : 120_000);
                Optional<TileSpec> tile = Optional.empty();
                if (!space.equals("sram") && rnd.nextInt(6) == 0) {
                    tile = Optional.of(new TileSpec(NPU_REF.space("sram", "test"), 1 + rnd.nextInt(3),
                            rnd.nextBoolean() ? OptionalInt.empty() : OptionalInt.of(1 + rnd.nextInt(16))));
                }
                buffers.add(new BufferSpec("b" + i, size, NPU_REF.space(space, "test"), aligns[rnd.nextInt(aligns.length)],
                        new Lifetime(first, last), tile));
            }
            List<FixedRegion> fixed = new ArrayList<>();
            if (rnd.nextInt(3) == 0) {
                fixed.add(new FixedRegion("abi", NPU_REF.space("global", "test"), 64L * rnd.nextInt(8), 1 + rnd.nextInt(2048),
                        new Lifetime(0, steps - 1)));
            }
            Workload wl = new Workload("random-" + seed + "-" + w, buffers, fixed);
            for (SolverChoice s : SolverChoice.values()) {
                out.add(new Case(wl.name() + "/" + s.id(), NPU_REF, wl, s));
            }
        }
        return out;
    }

    /**
     * {@code n} MiniMalloc-like problems large enough for the exact search to run on several
     * threads (60 to 90 buffers; it runs in parallel from 48 items, on one thread per processor)
     * and tight enough to need it: one local space whose capacity lies between the peak of live
     * bytes (the lower bound) and the heuristics' high-water mark. Each with {@code exact} and
     * {@code auto}.
     */
    static List<Case> tight(long seed, int n) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Case> out = new ArrayList<>();
        for (int w = 0; w < n; w++) {
            Target wide = MiniMallocCsv.target(Long.MAX_VALUE / 2);
            int items = 60 + rnd.nextInt(31);
            List<BufferSpec> buffers = new ArrayList<>();
            long[] live = new long[46];
            for (int i = 0; i < items; i++) {
                int first = rnd.nextInt(40);
                int last = Math.min(45, first + rnd.nextInt(rnd.nextBoolean() ? 4 : 15));
                long size = 8L * (1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 40 : 8));
                buffers.add(new BufferSpec("t" + i, size, wide.space(MiniMallocCsv.SPACE, "test"), 1,
                        new Lifetime(first, last), Optional.empty()));
                for (int s = first; s <= last; s++) {
                    live[s] += size;
                }
            }
            long peak = Arrays.stream(live).max().orElse(0);
            Workload wl = new Workload("tight-" + seed + "-" + w, buffers, List.of());
            // the heuristics' high-water mark with room to spare; the capacity goes below it (when
            // they are not optimal already), so only the search can place the buffers
            long heuristic = Long.MAX_VALUE;
            for (SolverChoice h : List.of(SolverChoice.BEST_FIT, SolverChoice.GREEDY)) {
                heuristic = Math.min(heuristic, Planner.plan(wide, wl,
                        new Planner.Options(h, TIME_LIMIT)).plan().spaces().get(MiniMallocCsv.SPACE)
                        .highWater());
            }
            long capacity = heuristic > peak ? peak + (heuristic - peak) * rnd.nextInt(3) / 40 : peak;
            Target target = MiniMallocCsv.target(Math.min(capacity, Math.max(peak, heuristic - 8)));
            for (SolverChoice s : List.of(SolverChoice.EXACT, SolverChoice.AUTO)) {
                out.add(new Case(wl.name() + "/" + s.id(), target, wl.on(target), s));
            }
        }
        return out;
    }

    /** True when the outcome is an artifact, not an error object. */
    static boolean isPlan(byte[] outcome) {
        return new String(outcome, 0, Math.min(outcome.length, 40), StandardCharsets.UTF_8).contains("\"berth-plan\"");
    }

    /**
     * A model of {@code testdata/models} imported afresh from its file, planned on {@code npu-ref}
     * with {@code solver}.
     */
    static Case model(Path file, List<String> inputs, SolverChoice solver) {
        Workload wl = OnnxImport.read(file, NPU_REF, new OnnxImport.Options(inputs, Optional.empty(), Optional.empty()))
                .workload();
        return new Case(file.getFileName() + "/" + solver.id(), NPU_REF, wl, solver);
    }

    /**
     * {@code random SEED N}, {@code tight SEED N}, or {@code model FILE SOLVER [INPUT...]}: prints
     * {@code label digest} per line.
     */
    public static void main(String[] args) {
        List<Case> cases = switch (args[0]) {
            case "random" -> random(Long.parseLong(args[1]), Integer.parseInt(args[2]));
            case "tight" -> tight(Long.parseLong(args[1]), Integer.parseInt(args[2]));
            default -> List.of(model(Path.of(args[1]), List.of(args).subList(3, args.length),
                    SolverChoice.byId(args[2]).orElseThrow()));
        };
        digests(cases).forEach((label, digest) -> System.out.println(label + " " + digest));
    }
}
