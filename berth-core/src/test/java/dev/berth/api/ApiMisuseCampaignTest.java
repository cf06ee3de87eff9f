package dev.berth.api;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.plan.Effort;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.schedule.Role;
import dev.berth.solve.Progress;
import dev.berth.solve.SolverChoice;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.BufferUse;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Operator;
import dev.berth.workload.Operators;
import dev.berth.workload.Origin;
import dev.berth.workload.Shared;
import dev.berth.workload.TileSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The API misuse campaign: every public constructor and static factory of the input model
 * (targets, spaces, formats, generation, buffers, fixed regions, tiles, workloads, planning
 * options) and every step of the builders, called with seeded random arguments drawn from
 * pools of good and bad values: nulls, empty and duplicate names, space names no deployment
 * input can write, negative, zero and overflowing numbers, spaces of another target. The only
 * failures that may come out are an {@code invalid-input} {@link BerthException} naming a field, or a
 * {@link NullPointerException} that names the null parameter and is thrown by the call that
 * received it. What is accepted is then planned: the plan passes the validator, or the planner
 * fails with a typed {@link BerthException}; nothing else.
 */
class ApiMisuseCampaignTest {
    private static final long SEED = Long.getLong("berth.misuse.seed", 20261201L);
    private static final int CALLS = Integer.getInteger("berth.misuse.calls", 4000);

    private static final AddressFormat F32 = AddressFormat.exclusive("f32", 0xFFFF_FFFFL);
    private static final AddressFormat F20 = AddressFormat.lastByte("f20", 0xF_FFFFL);
    private static final Target MINE = Target.builder("mine")
            .space(Space.logical("global", F32).alignment(64).build())
            .space(Space.local("sram", F20).capacity(64 * 1024).alignment(32).build())
            .generation(new Generation(Optional.of(new Generation.Descriptor("global", 32, 32, Optional.empty())),
                    Optional.of(new Generation.Instruction("global", 16, 16))))
            .build();
    /** A target with a space of the same name but another capacity: its spaces are not MINE's. */
    private static final Target OTHER = Target.builder("other")
            .space(Space.logical("global", F32).build())
            .space(Space.local("sram", F20).capacity(100).build())
            .build();

    /** The calls under test: public constructors and static factories of the input model. */
    private static List<Executable> entryPoints() {
        List<Executable> out = new ArrayList<>();
        for (Class<?> c : List.of(AddressFormat.class, Space.Logical.class, Space.Local.class, Space.External.class,
                Space.class, Target.class, Generation.class, Generation.Descriptor.class,
                Generation.Instruction.class, BufferSpec.class, FixedRegion.class, TileSpec.class, Lifetime.class,
                Workload.class, Planner.Options.class, Planner.class)) {
            for (var k : c.getConstructors()) {
                out.add(k);
            }
            for (Method m : c.getDeclaredMethods()) {
                if (Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()) && !m.isSynthetic()
                        && !m.getName().equals("valueOf") && !m.getName().equals("values")) {
                    out.add(m);
                }
            }
        }
        out.sort(Comparator.comparing(Executable::toGenericString));
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everyEntryPointFailsOnlyWithTypedErrors() {
        List<Executable> entries = entryPoints();
        assertThat(entries).hasSizeGreaterThan(25);
        return entries.stream().map(e -> DynamicTest.dynamicTest(e.getDeclaringClass().getSimpleName() + "."
                + e.getName() + "/" + e.getParameterCount(), () -> campaign(e, new SplittableRandom(SEED
                ^ e.toGenericString().hashCode()))));
    }

    private void campaign(Executable e, SplittableRandom rnd) throws Exception {
        int accepted = 0;
        int rejected = 0;
        int calls = Math.max(50, CALLS / 30);
        for (int k = 0; k < calls; k++) {
            Object[] args = arguments(e.getGenericParameterTypes(), rnd);
            String call = e.getName() + Arrays.deepToString(args);
            try {
                Object r = e instanceof Method m ? m.invoke(null, args)
                        : ((Constructor<?>) e).newInstance(args);
                accepted++;
                useAccepted(r, call);
            } catch (InvocationTargetException ite) {
                rejected++;
                allowed(ite.getCause(), e, call);
            }
        }
        assertThat(accepted + rejected).isEqualTo(calls);
        if (e.getParameterCount() > 0) {
            assertThat(rejected).as("%s: the campaign must reach rejections", e).isPositive();
        }
    }

    /** Random sequences of builder steps, then build: the same rule for what may come out. */
    @TestFactory
    Stream<DynamicTest> everyBuilderStepFailsOnlyWithTypedErrors() {
        Map<String, Supplier<Object>> starts = new LinkedHashMap<>();
        starts.put("BufferSpec.Builder", () -> BufferSpec.named("x"));
        starts.put("Space.Builder(logical)", () -> Space.logical("s", F32));
        starts.put("Space.Builder(local)", () -> Space.local("s", F20));
        starts.put("Space.Builder(external)", () -> Space.external("s", F32));
        starts.put("Target.Builder", () -> Target.builder("t"));
        starts.put("Workload.Builder", () -> Workload.builder("w"));
        return starts.entrySet().stream().map(en -> DynamicTest.dynamicTest(en.getKey(), () -> {
            SplittableRandom rnd = new SplittableRandom(SEED ^ en.getKey().hashCode());
            int rejected = 0;
            int built = 0;
            for (int k = 0; k < Math.max(50, CALLS / 20); k++) {
                Object b = en.getValue().get();
                List<Method> steps = Arrays.stream(b.getClass().getDeclaredMethods())
                        .filter(m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
                                && !m.getName().equals("build"))
                        .sorted(Comparator.comparing(Method::toGenericString)).toList();
                StringBuilder call = new StringBuilder(en.getKey());
                boolean failed = false;
                for (int n = rnd.nextInt(6); n >= 0 && !failed; n--) {
                    Method m = steps.get(rnd.nextInt(steps.size()));
                    Object[] args = arguments(m.getGenericParameterTypes(), rnd);
                    call.append('.').append(m.getName()).append(Arrays.deepToString(args));
                    try {
                        m.invoke(b, args);
                    } catch (InvocationTargetException ite) {
                        rejected++;
                        failed = true;
                        allowed(ite.getCause(), m, call.toString());
                    }
                }
                try {
                    Object r = b.getClass().getMethod("build").invoke(b);
                    built++;
                    useAccepted(r, call + ".build()");
                } catch (InvocationTargetException ite) {
                    rejected++;
                    allowed(ite.getCause(), b.getClass().getMethod("build"), call + ".build()");
                }
            }
            assertThat(rejected).as("rejections reached").isPositive();
            assertThat(built).as("builds reached").isPositive();
        }));
    }

    /** What a caller may see: invalid-input naming a field, or a named NullPointerException from the call itself. */
    private static void allowed(Throwable t, Executable e, String call) {
        if (t instanceof BerthException be && e.getDeclaringClass() == Planner.class) {
            // planning may fail in any category, with its numbers
            assertThat(be.failure().message()).as(call).isNotEmpty();
            return;
        }
        if (t instanceof BerthException be) {
            assertThat(be.category()).as(call).isEqualTo(Category.INVALID_INPUT);
            assertThat(be.failure().fields()).as(call).containsKey("path");
            return;
        }
        if (t instanceof NullPointerException npe && npe.getMessage() != null && !npe.getMessage().startsWith("Cannot ")) {
            // Objects.requireNonNull(value, "name"): helpful NPEs from a dereference start with "Cannot "
            return;
        }
        fail(call + " threw " + t, t);
    }

    /** A built value is usable: builders take their steps, workloads plan, or fail typed. */
    private static void useAccepted(Object r, String call) {
        invariants(r, call);
        if (r instanceof Space.Builder b) {
            try {
                Space s = b.build();
                assertThat(s.name()).isNotEmpty();
            } catch (BerthException be) {
                assertThat(be.category()).as(call).isEqualTo(Category.INVALID_INPUT);
            }
        } else if (r instanceof PlanResult p) {
            assertThat(PlanValidator.validate(p.plan()).valid()).as(call).isTrue();
        } else if (r instanceof Workload w) {
            plan(w, call);
        } else if (r instanceof BufferSpec b) {
            plan(new Workload("one", List.of(b), List.of()), call);
        } else if (r instanceof FixedRegion f) {
            plan(new Workload("one", List.of(), List.of(f)), call);
        }
    }

    /** Nothing invalid is silently accepted: every value that was built holds the model's invariants. */
    private static void invariants(Object r, String call) {
        if (r instanceof BufferSpec b) {
            assertThat(b.name()).as(call).isNotEmpty();
            assertThat(b.size()).as(call).isNotNegative();
            assertThat(b.alignment()).as(call).isPositive();
            invariants(b.live(), call);
            assertThat(b.accesses()).as(call).isNotNegative();
            assertThat(b.candidates()).as(call).isNotEmpty();
            assertThat(b.candidates().stream().map(Space::name).distinct().count()).as(call)
                    .isEqualTo(b.candidates().size());
            b.candidates().forEach(s -> invariants(s, call));
            b.tile().ifPresent(t -> invariants(t, call));
        } else if (r instanceof Lifetime l) {
            assertThat(l.first()).as(call).isNotNegative();
            assertThat(l.last()).as(call).isGreaterThanOrEqualTo(l.first());
        } else if (r instanceof TileSpec t) {
            assertThat(t.buffers()).as(call).isPositive();
            t.count().ifPresent(c -> assertThat(c).as(call).isPositive());
        } else if (r instanceof FixedRegion f) {
            assertThat(f.name()).as(call).isNotEmpty();
            assertThat(f.offset()).as(call).isNotNegative();
            assertThat(f.size()).as(call).isNotNegative().isLessThanOrEqualTo(Long.MAX_VALUE - f.offset());
            invariants(f.live(), call);
        } else if (r instanceof Space sp) {
            assertThat(sp.name()).as(call).isNotEmpty().doesNotContain("=").isEqualTo(sp.name().strip());
            assertThat(sp.name().chars().noneMatch(Character::isISOControl)).as(call).isTrue();
            assertThat(sp.alignment()).as(call).isPositive();
            assertThat(sp.runtimeReserve()).as(call).isNotNegative();
            assertThat(sp.accessCost()).as(call).isNotNegative();
            assertThat(sp.base()).as(call).isNotNegative();
            sp.capacity().ifPresent(c -> assertThat(c).as(call).isGreaterThanOrEqualTo(sp.runtimeReserve()));
            assertThat(sp instanceof Space.Logical && sp.capacity().isPresent()).as(call).isFalse();
        } else if (r instanceof AddressFormat f) {
            assertThat(f.name()).as(call).isNotEmpty();
            assertThat(f.maxAddress()).as(call).isNotNegative();
        } else if (r instanceof Workload w) {
            assertThat(w.name()).as(call).isNotEmpty();
            Set<String> names = new HashSet<>();
            w.buffers().forEach(b -> {
                invariants(b, call);
                assertThat(names.add(b.name())).as(call + ": unique names").isTrue();
            });
            w.fixed().forEach(f -> {
                invariants(f, call);
                assertThat(names.add(f.name())).as(call + ": unique names").isTrue();
            });
        } else if (r instanceof Target t) {
            assertThat(t.spaces()).as(call).isNotEmpty();
            t.spaces().forEach((k, v) -> {
                assertThat(v.name()).as(call).isEqualTo(k);
                assertThat(t.formats().get(v.format().name())).as(call).isEqualTo(v.format());
                invariants(v, call);
            });
            t.formats().forEach((k, v) -> assertThat(v.name()).as(call).isEqualTo(k));
        } else if (r instanceof Planner.Options o) {
            assertThat(o.timeLimitSeconds()).as(call).isPositive().isFinite();
        }
    }

    private static void plan(Workload w, String call) {
        for (Target t : List.of(MINE, OTHER)) {
            try {
                PlanResult p = Planner.plan(t, w, new Planner.Options(SolverChoice.BEST_FIT, 5));
                assertThat(PlanValidator.validate(p.plan()).valid()).as(call).isTrue();
            } catch (BerthException be) {
                assertThat(be.failure().message()).as(call).isNotEmpty();
            }
        }
    }

    /**
     * Arguments for one call: good values but for at most one, drawn from the whole pool (bad
     * values included), so that each rejection or acceptance is about that one argument; one
     * call in four draws every argument from the whole pool.
     */
    private static Object[] arguments(Type[] types, SplittableRandom rnd) {
        Object[] args = new Object[types.length];
        boolean wild = rnd.nextInt(4) == 0;
        int odd = rnd.nextInt(types.length + 1);
        for (int i = 0; i < types.length; i++) {
            args[i] = wild || i == odd ? value(types[i], rnd, 0) : good(types[i], rnd);
        }
        return args;
    }

    /** A value every entry point accepts in that position (names are fresh, numbers small). */
    private static Object good(Type type, SplittableRandom rnd) {
        Class<?> raw = raw(type);
        if (raw == long.class) {
            return (long) rnd.nextInt(1, 4097);
        }
        if (raw == int.class) {
            return rnd.nextInt(1, 4);
        }
        if (raw == double.class) {
            return 5.0;
        }
        if (raw == String.class) {
            return "n" + rnd.nextInt(1_000_000);
        }
        if (raw == Space.class) {
            return MINE.spaces().get("global");
        }
        if (raw == Lifetime.class) {
            return Lifetime.of(0, 1);
        }
        if (raw == Optional.class || raw == OptionalInt.class || raw == OptionalLong.class) {
            return raw == Optional.class ? Optional.empty() : raw == OptionalInt.class ? OptionalInt.empty()
                    : OptionalLong.empty();
        }
        if (raw == List.class) {
            return List.of();
        }
        if (raw == Map.class) {
            // a target's own maps: a target needs a space
            Type v = arg(type, 1);
            return v == Space.class ? MINE.spaces() : v == AddressFormat.class ? MINE.formats() : Map.of();
        }
        Object v;
        do {
            v = value(type, rnd, 1);
        } while (v == null);
        return v;
    }

    private static final long[] LONGS = {-1, 0, 1, 3, 64, 4096, 100_000, Long.MAX_VALUE, Long.MIN_VALUE,
            Long.MAX_VALUE - 10, 1L << 32, 1L << 62};
    private static final int[] INTS = {-1, 0, 1, 2, 3, 7, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE};
    private static final String[] NAMES = {null, "", "a", "a", "global", "sram", "weights", "f32", "mine", "x y",
            "a=b", " a", "a\u0001"};

    private static Object value(Type type, SplittableRandom rnd, int depth) {
        Class<?> raw = raw(type);
        if (raw != long.class && raw != int.class && raw != double.class && raw != boolean.class
                && rnd.nextInt(12) == 0) {
            return null;
        }
        if (raw == long.class) {
            return rnd.nextBoolean() ? LONGS[rnd.nextInt(LONGS.length)] : rnd.nextLong(-10, 1 << 20);
        }
        if (raw == int.class) {
            return rnd.nextBoolean() ? INTS[rnd.nextInt(INTS.length)] : rnd.nextInt(-3, 50);
        }
        if (raw == double.class) {
            double[] ds = {-1, 0, 0.5, 5, Double.NaN, Double.POSITIVE_INFINITY, 1e300};
            return ds[rnd.nextInt(ds.length)];
        }
        if (raw == String.class) {
            return NAMES[rnd.nextInt(NAMES.length)];
        }
        if (raw == AddressFormat.class) {
            return new AddressFormat[]{F32, F20, AddressFormat.exclusive("f32", 99)}[rnd.nextInt(3)];
        }
        if (raw == EndConvention.class) {
            return EndConvention.values()[rnd.nextInt(2)];
        }
        if (raw == Origin.class) {
            return Origin.values()[rnd.nextInt(Origin.values().length)];
        }
        if (raw == SolverChoice.class) {
            return SolverChoice.values()[rnd.nextInt(SolverChoice.values().length)];
        }
        if (raw == Effort.class) {
            return Effort.values()[rnd.nextInt(Effort.values().length)];
        }
        if (raw == Progress.class) {
            return Progress.NONE;
        }
        if (raw == Space.class) {
            Target t = rnd.nextInt(4) == 0 ? OTHER : MINE;
            return rnd.nextBoolean() ? t.spaces().get("global") : t.spaces().get("sram");
        }
        if (raw == Lifetime.class) {
            int f = rnd.nextInt(-1, 6);
            int l = rnd.nextInt(-1, 8);
            return f >= 0 && l >= f ? new Lifetime(f, l) : Lifetime.of(0, 0);
        }
        if (raw == TileSpec.class) {
            return TileSpec.through(rnd.nextBoolean() ? MINE.spaces().get("sram") : MINE.spaces().get("global"),
                    1 + rnd.nextInt(3));
        }
        if (raw == Target.class) {
            return rnd.nextBoolean() ? MINE : OTHER;
        }
        if (raw == Workload.class) {
            List<BufferSpec> bs = new ArrayList<>();
            for (int i = rnd.nextInt(4); i > 0; i--) {
                BufferSpec b = (BufferSpec) value(BufferSpec.class, rnd, depth + 1);
                if (b != null && bs.stream().noneMatch(x -> x.name().equals(b.name()))) {
                    bs.add(b);
                }
            }
            return new Workload("w", bs, List.of());
        }
        if (raw == Operators.class) {
            String a = "b" + rnd.nextInt(6);
            String b = "b" + rnd.nextInt(6);
            List<Operator> ops = List.of(new Operator("op", List.of(a), List.of(b)));
            return switch (rnd.nextInt(3)) {
                case 0 -> new Operators.None();
                case 1 -> new Operators.Listed(ops, List.of(), List.of(
                        new BufferUse(a, Role.INPUT),
                        new BufferUse(b, Role.values()[rnd.nextInt(5)])));
                default -> new Operators.Ordered(ops, rnd.nextBoolean() ? List.of()
                        : List.of(new Shared(b, a)));
            };
        }
        if (raw == Planner.Options.class) {
            return new Planner.Options(SolverChoice.values()[rnd.nextInt(SolverChoice.values().length)], 5);
        }
        if (raw == Generation.Descriptor.class) {
            return new Generation.Descriptor(rnd.nextBoolean() ? "global" : "nowhere", 32, 1 + rnd.nextInt(64),
                    rnd.nextBoolean() ? Optional.empty() : Optional.of(rnd.nextBoolean() ? "f32" : "f99"));
        }
        if (raw == Generation.Instruction.class) {
            return new Generation.Instruction(rnd.nextBoolean() ? "global" : "sram", rnd.nextInt(0, 64), 1 + rnd.nextInt(64));
        }
        if (raw == Generation.class) {
            return MINE.generation().orElseThrow();
        }
        if (raw == BufferSpec.class) {
            Space s = (Space) value(Space.class, rnd, depth + 1);
            return new BufferSpec("b" + rnd.nextInt(6), rnd.nextInt(0, 70_000), s == null ? MINE.spaces().get("global") : s,
                    1 + rnd.nextInt(64), Lifetime.of(0, rnd.nextInt(4)), Optional.empty());
        }
        if (raw == FixedRegion.class) {
            return new FixedRegion("f" + rnd.nextInt(3), MINE.spaces().get(rnd.nextBoolean() ? "global" : "sram"),
                    rnd.nextInt(0, 70_000), rnd.nextInt(0, 4096), Lifetime.of(0, rnd.nextInt(4)));
        }
        if (raw == OptionalLong.class) {
            return rnd.nextBoolean() ? OptionalLong.empty() : OptionalLong.of((long) value(long.class, rnd, depth));
        }
        if (raw == OptionalInt.class) {
            return rnd.nextBoolean() ? OptionalInt.empty() : OptionalInt.of((int) value(int.class, rnd, depth));
        }
        if (raw == Optional.class) {
            return rnd.nextInt(3) == 0 ? Optional.empty() : Optional.ofNullable(value(arg(type, 0), rnd, depth + 1));
        }
        if (raw == List.class) {
            List<Object> l = new ArrayList<>();
            int n = depth > 1 ? 0 : rnd.nextInt(5);
            for (int i = 0; i < n; i++) {
                l.add(value(arg(type, 0), rnd, depth + 1));
            }
            return l.contains(null) ? new ArrayList<>(l) : l;
        }
        if (raw == Map.class) {
            Map<Object, Object> m = new LinkedHashMap<>();
            int n = rnd.nextInt(4);
            for (int i = 0; i < n; i++) {
                Object v = value(arg(type, 1), rnd, depth + 1);
                Object key = rnd.nextInt(4) == 0 ? value(arg(type, 0), rnd, depth + 1)
                        : v instanceof Space s ? s.name() : v instanceof AddressFormat f ? f.name() : "k" + i;
                m.put(key, v);
            }
            return m;
        }
        throw new AssertionError("no values for " + type + ": extend the campaign's pools");
    }

    private static Class<?> raw(Type t) {
        return t instanceof Class<?> c ? c : (Class<?>) ((ParameterizedType) t).getRawType();
    }

    private static Type arg(Type t, int i) {
        return ((ParameterizedType) t).getActualTypeArguments()[i];
    }
}
