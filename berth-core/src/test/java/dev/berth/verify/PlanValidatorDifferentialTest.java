package dev.berth.verify;

import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.solve.SolverChoice;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The validator against its earlier unbounded-integer version ({@link ReferenceValidator}, the
 * oracle): on seeded random plans, sound and broken, near the formats' and capacities' limits,
 * with many overlapping reservations and sums past 2^63-1, both find the same violations.
 */
class PlanValidatorDifferentialTest {
    private static final Origin[] ORIGINS = {Origin.TENSOR, Origin.TENSOR, Origin.TENSOR, Origin.FIXED,
            Origin.DESCRIPTOR_TABLE, Origin.INSTRUCTIONS};

    private static Target target(Random r) {
        long max = switch (r.nextInt(3)) {
            case 0 -> 1023;
            case 1 -> 4095;
            default -> Long.MAX_VALUE;
        };
        AddressFormat f = new AddressFormat("f", max, r.nextBoolean() ? EndConvention.EXCLUSIVE : EndConvention.LAST_BYTE);
        Map<String, AddressFormat> fm = new LinkedHashMap<>();
        fm.put("f", f);
        Map<String, Space> sp = new LinkedHashMap<>();
        sp.put("g", new Space.Logical("g", f, 1L << r.nextInt(3), 0));
        long cap = 256 + r.nextInt(768);
        sp.put("l", new Space.Local("l", f, 1L << r.nextInt(3), r.nextInt(3) == 0 ? r.nextInt(64) : 0, cap));
        return new Target("t", fm, sp, Optional.empty());
    }

    private static long pick(Random r, long around) {
        return switch (r.nextInt(6)) {
            case 0 -> 0;
            case 1 -> Math.max(0, around - r.nextInt(3));
            case 2 -> around + r.nextInt(3);
            case 3 -> Long.MAX_VALUE - r.nextInt(3);
            default -> r.nextInt((int) Math.max(1, Math.min(around, 1 << 20)) + 1);
        };
    }

    private static Plan plan(long seed) {
        Random r = new Random(seed);
        Target t = target(r);
        int n = 1 + r.nextInt(r.nextBoolean() ? 8 : 60);
        int steps = 1 + r.nextInt(12);
        List<PlannedBuffer> bs = new ArrayList<>();
        long top = r.nextBoolean() ? 1024 : 4096;
        for (int i = 0; i < n; i++) {
            String space = r.nextInt(5) == 0 ? "l" : r.nextInt(40) == 0 ? "nowhere" : "g";
            long align = 1L << r.nextInt(4);
            long req = r.nextInt(10) == 0 ? pick(r, top) : r.nextInt(64);
            long res = r.nextInt(8) == 0 ? req + r.nextInt(9) - 2 : (req + align - 1) / align * align;
            if (res < 0 || r.nextInt(30) == 0) {
                res = r.nextInt(30) == 0 ? Long.MAX_VALUE : Math.max(0, res);
            }
            long off = r.nextInt(6) == 0 ? pick(r, top) : r.nextInt(16) * align * (r.nextInt(6) == 0 ? 1 : 4)
                    + (r.nextInt(12) == 0 ? 1 : 0);
            int first = r.nextInt(steps);
            int last = first + r.nextInt(Math.max(1, steps - first));
            Origin o = ORIGINS[r.nextInt(ORIGINS.length)];
            if (r.nextInt(50) == 0) {
                req = -1;
            }
            try {
                bs.add(new PlannedBuffer(r.nextInt(60) == 0 && i > 0 ? bs.get(0).name() : "b" + i, space, off, req,
                        res, r.nextInt(40) == 0 ? 0 : align, new Lifetime(first, last), o, Optional.empty()));
            } catch (RuntimeException refused) {
                // the record refuses it: not a plan the validator can be given
            }
        }
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        for (String s : List.of("g", "l")) {
            // the true metrics (the reference computes them) or, sometimes, wrong ones
            m.put(s, new SpaceMetrics(s.equals("g") ? "logical" : "local",
                    s.equals("g") ? OptionalLong.empty() : t.spaces().get("l").capacity(),
                    0, 0, -1, 0, 0));
        }
        Plan p = new Plan(t, "w", SolverChoice.AUTO, m, bs, List.of());
        if (r.nextInt(3) != 0) {
            p = withTrueMetrics(p, r);
        }
        return p;
    }

    /** The plan with the metrics the oracle says are right (so that other rules decide), sometimes one off. */
    private static Plan withTrueMetrics(Plan p, Random r) {
        Map<String, SpaceMetrics> m = new LinkedHashMap<>();
        for (var e : p.spaces().entrySet()) {
            String s = e.getKey();
            long high = 0;
            long gen = 0;
            long[] live = new long[64];
            boolean overflow = false;
            for (PlannedBuffer b : p.buffers()) {
                if (!b.space().equals(s)) {
                    continue;
                }
                try {
                    high = Math.max(high, Math.addExact(b.offset(), b.reserved()));
                    if (b.origin() == Origin.DESCRIPTOR_TABLE || b.origin() == Origin.INSTRUCTIONS) {
                        gen = Math.addExact(gen, b.reserved());
                    }
                    for (int k = b.live().first(); k <= b.live().last(); k++) {
                        live[k] = Math.addExact(live[k], b.reserved());
                    }
                } catch (ArithmeticException x) {
                    overflow = true;
                }
            }
            long peak = 0;
            int step = -1;
            for (int k = 0; k < live.length; k++) {
                if (live[k] > peak) {
                    peak = live[k];
                    step = k;
                }
            }
            if (overflow) {
                m.put(s, e.getValue());
                continue;
            }
            long jiggle = r.nextInt(10) == 0 ? 1 : 0;
            SpaceMetrics old = e.getValue();
            m.put(s, new SpaceMetrics(old.kind(), old.capacity(), high + jiggle, peak, step, gen,
                    p.target().spaces().get(s).runtimeReserve()));
        }
        return new Plan(p.target(), p.workload(), p.solver(), m, p.buffers(), p.descriptors());
    }

    private static List<String> kinds(Verdict v) {
        if (v instanceof Verdict.Invalid inv) {
            return inv.violations().stream().map(x -> x.kind().name()).sorted().toList();
        }
        return List.of();
    }

    /**
     * Seeds 0-299 in every build (and once per mutant under PIT, so they are kept few); seeds
     * 300-2999 with {@code mvn -B -Pchallenging verify}.
     */
    @TestFactory
    Stream<DynamicTest> bothValidatorsFindTheSameViolations() {
        return differential(0, 300);
    }

    @TestFactory
    @Tag("challenging")
    Stream<DynamicTest> bothValidatorsFindTheSameViolationsOnMorePlans() {
        return differential(300, 3000);
    }

    private static Stream<DynamicTest> differential(int fromSeed, int toSeed) {
        return IntStream.range(fromSeed, toSeed).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            Plan p;
            try {
                p = plan(seed);
            } catch (RuntimeException refused) {
                return; // a record refused the random values: nothing to validate
            }
            Verdict fast = PlanValidator.validate(p);
            Verdict ref = ReferenceValidator.validate(p);
            // the oracle predates the rules of tiles and descriptors (PlanValidatorTest and
            // PlanValidatorDetailTest check them): these plans have no descriptors, so the
            // validator finds one more violation per descriptor table, and the rest agree
            long tables = p.buffers().stream().filter(b -> b.origin() == Origin.DESCRIPTOR_TABLE).count();
            List<String> expected = new ArrayList<>(kinds(ref));
            for (long k = 0; k < tables; k++) {
                expected.add(Verdict.Kind.BAD_DESCRIPTOR.name());
            }
            assertThat(kinds(fast)).as("seed %d", seed).isEqualTo(expected.stream().sorted().toList());
            assertThat(fast instanceof Verdict.Valid).isEqualTo(ref instanceof Verdict.Valid && tables == 0);
            if (fast instanceof Verdict.Invalid bad) {
                assertThat(bad.violations()).filteredOn(v -> v.kind() == Verdict.Kind.BAD_DESCRIPTOR)
                        .allSatisfy(v -> assertThat(v.detail()).endsWith(", but the plan has no descriptors"));
            }
        }));
    }
}
