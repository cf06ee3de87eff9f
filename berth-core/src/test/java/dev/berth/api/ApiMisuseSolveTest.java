package dev.berth.api;

import dev.berth.arith.Checked;
import dev.berth.arith.Sizes;
import dev.berth.artifact.Assignment;
import dev.berth.artifact.Plan;
import dev.berth.measure.SpaceUse;
import dev.berth.deploy.DeployCheck;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.plan.Planner;
import dev.berth.plan.Solvers;
import dev.berth.solve.Budget;
import dev.berth.solve.Progress;
import dev.berth.sweep.LiveBytes;
import dev.berth.solve.SolverKind;
import dev.berth.solve.SpaceProblem;
import dev.berth.target.AddressFormat;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The misuse cases of the API outside the input model that {@link ApiMisuseCampaignTest}
 * covers: the solve package ({@link SpaceProblem}, {@link LiveBytes}, {@link Budget},
 * {@link SolverKind}), {@link Checked} and {@link Sizes}, {@link Assignment}, {@link BufferSpec#in},
 * {@link SpaceUse}, {@link Verdict}, {@link Target}'s look-up and spaces, space names,
 * {@link DeployCheck} and {@link PlanValidator}. One case per
 * misuse: a bad value is {@code invalid-input} whose path names the argument, thrown by the
 * call that received it; a null is a {@link NullPointerException} naming the parameter.
 */
class ApiMisuseSolveTest {
    private static final AddressFormat F32 = AddressFormat.exclusive("f32", 0xFFFF_FFFFL);

    /** {@code call} fails with {@code invalid-input} at {@code path}, and the message starts with it. */
    private static BerthException invalid(String path, Executable call) {
        BerthException e = assertThrows(BerthException.class, call);
        assertThat(e.category()).as(path).isEqualTo(Category.INVALID_INPUT);
        assertThat(e.failure().fields()).as(path).containsEntry("path", path);
        assertThat(e.failure().message()).as(path).startsWith(path);
        return e;
    }

    /** {@code call} fails with a NullPointerException whose message is {@code parameter}, from the call itself. */
    private static void nullNamed(String parameter, Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call);
        assertThat(e.getMessage()).isEqualTo(parameter);
    }

    private static SpaceProblem problem(String[] names, long[] reserved, long[] align, int[] first, int[] last,
                                        long[] fixed, long limit) {
        return new SpaceProblem(null, names, reserved, align, first, last, fixed, limit);
    }

    private static long[] ones(int n) {
        long[] a = new long[n];
        Arrays.fill(a, 1);
        return a;
    }

    private static long[] minusOnes(int n) {
        long[] a = new long[n];
        Arrays.fill(a, -1);
        return a;
    }

    private static final String[] AB = {"a", "b"};
    private static final long[] R = {8, 16};
    private static final long[] A = {1, 4};
    private static final int[] F = {0, 1};
    private static final int[] L = {2, 3};
    private static final long[] X = {-1, -1};

    // --- SpaceProblem

    @Test
    void spaceProblemNamesTheBadEntryAndItsItem() {
        assertThat(invalid("reserved[1]", () -> problem(AB, new long[]{8, -1}, A, F, L, X, 100)).getMessage())
                .contains("item 'b'");
        invalid("alignment[0]", () -> problem(AB, R, new long[]{0, 4}, F, L, X, 100));
        invalid("first[1]", () -> problem(AB, R, A, new int[]{0, -1}, L, X, 100));
        invalid("last[0]", () -> problem(AB, R, A, new int[]{3, 1}, L, X, 100));
        invalid("fixedOffset[1]", () -> problem(AB, R, A, F, L, new long[]{-1, -2}, 100));
        invalid("fixedOffset[0]", () -> problem(AB, R, A, F, L, new long[]{Long.MAX_VALUE - 7, -1}, 100));
        invalid("names[1]", () -> problem(new String[]{"a", ""}, R, A, F, L, X, 100));
        assertThat(invalid("names[1]", () -> problem(new String[]{"a", "a"}, R, A, F, L, X, 100)).getMessage())
                .contains("item 0");
        // names whose hashes collide ("Aa" and "BB"), the duplicate found after them, earliest first
        String[] colliding = {"Aa", "BB", "c", "AaBB", "BBAa", "BB", "AaAa", "c"};
        int n = colliding.length;
        assertThat(invalid("names[5]", () -> problem(colliding, new long[n], ones(n), new int[n], new int[n],
                minusOnes(n), 100)).getMessage()).contains("'BB' is also the name of item 1");
        String[] distinct = {"Aa", "BB", "AaBB", "BBAa", "AaAa", "BBBB"};
        int m = distinct.length;
        assertThat(problem(distinct, new long[m], ones(m), new int[m], new int[m], minusOnes(m), 100).size()).isEqualTo(m);
        invalid("limit", () -> problem(AB, R, A, F, L, X, -1));
        invalid("sizes[0]", () -> SpaceProblem.of(new long[]{-1}, new int[]{0}, new int[]{0}, 10));
        invalid("last[0]", () -> SpaceProblem.of(new long[]{1}, new int[]{2}, new int[]{1}, 10));
        invalid("limit", () -> SpaceProblem.of(new long[]{1}, new int[]{0}, new int[]{1}, -5));
    }

    @Test
    void spaceProblemArraysOfAnotherLengthAreInvalidInputNamingTheArray() {
        invalid("reserved", () -> problem(AB, new long[]{8}, A, F, L, X, 100));
        invalid("alignment", () -> problem(AB, R, new long[]{1, 1, 1}, F, L, X, 100));
        invalid("first", () -> problem(AB, R, A, new int[0], L, X, 100));
        invalid("last", () -> problem(AB, R, A, F, new int[]{1}, X, 100));
        invalid("fixedOffset", () -> problem(AB, R, A, F, L, new long[]{-1}, 100));
        invalid("first", () -> SpaceProblem.of(new long[]{1}, new int[]{0, 1}, new int[]{1}, 10));
        invalid("last", () -> SpaceProblem.of(new long[]{1}, new int[]{0}, new int[]{1, 2}, 10));
    }

    @Test
    void spaceProblemNullArraysAndNamesAreNamed() {
        nullNamed("names", () -> problem(null, R, A, F, L, X, 100));
        nullNamed("reserved", () -> problem(AB, null, A, F, L, X, 100));
        nullNamed("alignment", () -> problem(AB, R, null, F, L, X, 100));
        nullNamed("first", () -> problem(AB, R, A, null, L, X, 100));
        nullNamed("last", () -> problem(AB, R, A, F, null, X, 100));
        nullNamed("fixedOffset", () -> problem(AB, R, A, F, L, null, 100));
        nullNamed("names[1]", () -> problem(new String[]{"a", null}, R, A, F, L, X, 100));
        nullNamed("sizes", () -> SpaceProblem.of(null, new int[]{0}, new int[]{1}, 10));
        nullNamed("first", () -> SpaceProblem.of(new long[]{1}, null, new int[]{1}, 10));
        nullNamed("last", () -> SpaceProblem.of(new long[]{1}, new int[]{0}, null, 10));
    }

    @Test
    void spaceProblemKeepsWhatIsValidAndCopiesIt() {
        long[] reserved = {8, 3}; // 3 is no multiple of its alignment 4: solvers place any size
        SpaceProblem p = problem(AB, reserved, A, F, L, new long[]{40, -1}, 0); // a null space, limit 0: allowed
        reserved[0] = -5;
        assertThat(p.reserved(0)).isEqualTo(8);
        assertThat(p.space()).isNull();
        assertThat(p.isFixed(0)).isTrue();
        assertThrows(IndexOutOfBoundsException.class, () -> p.name(99));
        assertThrows(IndexOutOfBoundsException.class, () -> p.reserved(-1));
    }

    @Test
    void withLimitAndSubsetCheckTheirArguments() {
        SpaceProblem p = problem(AB, R, A, F, L, X, 100);
        invalid("limit", () -> p.withLimit(-1));
        assertThat(p.withLimit(0).limit()).isZero();
        invalid("keep[1]", () -> p.subset(new int[]{0, 0}));
        invalid("keep[0]", () -> p.subset(new int[]{5}));
        invalid("keep[1]", () -> p.subset(new int[]{1, -1}));
        nullNamed("keep", () -> p.subset(null));
        SpaceProblem b = p.subset(new int[]{1});
        assertThat(b.size()).isEqualTo(1);
        assertThat(b.name(0)).isEqualTo("b");
        assertThat(p.subset(new int[0]).size()).isZero();
    }

    // --- LiveBytes

    @Test
    void liveBytesNamesTheBadEntry() {
        invalid("last[0]", () -> LiveBytes.peak(new int[]{3}, new int[]{1}, new long[]{1}));
        invalid("first[1]", () -> LiveBytes.peak(new int[]{0, -1}, new int[]{1, 1}, new long[]{1, 1}));
        invalid("reserved[0]", () -> LiveBytes.peak(new int[]{0}, new int[]{1}, new long[]{-1}));
        invalid("reserved[0]", () -> LiveBytes.peak(new int[]{0, 0}, new int[]{1, 1}, new long[]{-1, 5}));
        invalid("last", () -> LiveBytes.peak(new int[]{0}, new int[0], new long[]{1}));
        invalid("reserved", () -> LiveBytes.peak(new int[]{0}, new int[]{0}, new long[]{1, 2}));
        invalid("limit", () -> LiveBytes.firstAbove(new int[]{0}, new int[]{0}, new long[]{1}, -1));
        nullNamed("first", () -> LiveBytes.peak(null, new int[0], new long[0]));
        nullNamed("last", () -> LiveBytes.peak(new int[0], null, new long[0]));
        nullNamed("reserved", () -> LiveBytes.peak(new int[0], new int[0], null));
    }

    // --- Checked

    @Test
    void checkedNegativeOperandsAreInvalidInputNamingTheOperation() {
        assertThat(invalid("add", () -> Checked.add(-1, 5)).failure().fields()).containsEntry("text", "-1");
        assertThat(invalid("multiply", () -> Checked.multiply(5, -2)).failure().fields()).containsEntry("text", "-2");
        invalid("align-up", () -> Checked.alignUp(-3, 4));
        invalid("padding", () -> Checked.padding(-3, 4));
        invalid("subtract", () -> Checked.subtract(1, 2));
        invalid("subtract", () -> Checked.subtract(-1, 0));
        invalid("gcd", () -> Checked.gcd(4, -6));
        invalid("saturating-add", () -> Checked.saturatingAdd(-1, 1));
        invalid("saturating-align-up", () -> Checked.saturatingAlignUp(-1, 1));
        invalid("narrow", () -> Checked.narrow(-1, 8));
        assertThat(Checked.gcd(0, 0)).isZero(); // the convention: gcd(a, 0) = a
        // an overflow of non-negative operands stays arithmetic-overflow
        assertThat(assertThrows(BerthException.class, () -> Checked.add(Long.MAX_VALUE, 1)).category())
                .isEqualTo(Category.ARITHMETIC_OVERFLOW);
    }

    // --- Budget, SolverKind

    @Test
    void budgetSecondsAreZeroToInfinity() {
        for (double bad : new double[]{Double.NaN, -1, -0.5, Double.NEGATIVE_INFINITY}) {
            invalid("seconds", () -> Budget.seconds(bad));
            invalid("seconds", () -> Budget.seconds(bad, Progress.NONE));
            invalid("seconds", () -> Budget.unlimited().child(bad));
            invalid("seconds", () -> Budget.seconds(5).child(bad));
        }
        nullNamed("progress", () -> Budget.seconds(5, null));
        Budget forever = Budget.seconds(Double.POSITIVE_INFINITY);
        assertThat(forever.remainingSeconds()).isInfinite();
        assertThat(forever.exhausted()).isFalse();
        assertThat(Budget.seconds(0).exhausted()).isTrue();
        Budget child = Budget.seconds(5).child(Double.POSITIVE_INFINITY);
        assertThat(child.remainingSeconds()).isLessThanOrEqualTo(5);
    }

    @Test
    void solverThreadsAreZeroOrMore() {
        for (SolverKind k : SolverKind.values()) {
            invalid("threads", () -> Solvers.of(k, -1));
            assertThatCode(() -> Solvers.of(k, 0)).doesNotThrowAnyException();
        }
    }

    // --- Assignment

    @Test
    void assignmentFiguresThatDisagreeAreInvalidInputNamingTheField() {
        Assignment.Proof open = Assignment.Proof.OPEN;
        invalid("lowerBound", () -> new Assignment(5, 10, 0, open, List.of(), List.of()));
        invalid("pinnedCost", () -> new Assignment(10, 5, 6, open, List.of(), List.of()));
        invalid("pinnedCost", () -> new Assignment(10, 5, -1, open, List.of(), List.of()));
        invalid("proof", () -> new Assignment(10, 5, 0, Assignment.Proof.LOWER_BOUND, List.of(), List.of()));
        invalid("cost", () -> new Assignment(10, 5, 0, open, List.of(), List.of()));
        nullNamed("proof", () -> new Assignment(0, 0, 0, null, List.of(), List.of()));
        invalid("rank", () -> new Assignment.Choice("b", "sram", -1, 0, Optional.empty()));
        invalid("cost", () -> new Assignment.Choice("b", "sram", 0, -1, Optional.empty()));
        Assignment.Why why = new Assignment.Why("sram", 0, 10, 10, 4, List.of("x"), Assignment.Reason.FULL);
        invalid("why", () -> new Assignment.Choice("b", "sram", 0, 0, Optional.of(why)));
        assertThat(new Assignment(7, 7, 3, Assignment.Proof.LOWER_BOUND,
                List.of(new Assignment.Choice("b", "sram", 1, 4, Optional.of(why))), List.of()).optimal()).isTrue();
    }

    // --- BufferSpec.in, SpaceUse, Verdict

    @Test
    void aSpaceThatIsNotACandidateIsInvalidInputAtChosen() {
        Space g = Space.logical("g", F32).build();
        Space h = Space.logical("h", F32).build();
        BufferSpec b = BufferSpec.named("b").size(8).in(g).orIn(h).live(0, 1).build();
        BerthException e = invalid("chosen", () -> b.in(Space.logical("x", F32).build()));
        assertThat(e.failure().fields()).containsEntry("text", "x");
        assertThat(e.getMessage()).contains("buffer 'b' (g, h)");
        nullNamed("chosen", () -> b.in(null));
        assertThat(b.in(h).space()).isEqualTo(h);
    }

    @Test
    void spaceUseFiguresAreInvalidInputNamingTheField() {
        invalid("highWater", () -> new SpaceUse(-1, 0, LiveBytes.Peak.NONE));
        invalid("generation", () -> new SpaceUse(10, -5, LiveBytes.Peak.NONE));
        nullNamed("peak", () -> new SpaceUse(0, 0, null));
    }

    @Test
    void aVerdictOfNoViolationsOrANegativeCountIsInvalidInput() {
        invalid("violations", () -> new Verdict.Invalid(List.of()));
        nullNamed("violations", () -> new Verdict.Invalid(null));
        nullNamed("kind", () -> new Verdict.Violation(null, "x"));
        nullNamed("detail", () -> new Verdict.Violation(Verdict.Kind.OVERLAP, null));
        invalid("checks", () -> new Verdict.Valid(-1));
        assertThat(new Verdict.Valid(0).valid()).isTrue();
    }

    // --- Sizes, Target

    @Test
    void sizesNullsAreNamed() {
        nullNamed("text", () -> Sizes.parse(null, "p"));
        nullNamed("path", () -> Sizes.parse("1", null));
        nullNamed("value", () -> Sizes.fromInteger(null, "p"));
        nullNamed("path", () -> Sizes.fromInteger(BigInteger.ONE, null));
    }

    @Test
    void targetLookUpNamesANullPathAndATargetNeedsASpace() {
        Target t = Target.builder("t").space(Space.logical("g", F32).build()).build();
        nullNamed("path", () -> t.space("nope", null));
        nullNamed("spaceName", () -> t.space(null, "p"));
        invalid("buffers[0].space", () -> t.space("nope", "buffers[0].space"));
        invalid("spaces", () -> new Target("t", Map.of(), Map.of(), Optional.empty()));
        invalid("spaces", () -> new Target("t", Map.of("f32", F32), Map.of(), Optional.empty()));
        invalid("spaces", () -> Target.builder("t").format(F32).build());
    }

    @Test
    void aSpaceNameADeploymentInputCannotWriteIsInvalidInput() {
        for (String bad : new String[]{"a=b", "=", " a", "a ", "\ta", "a\n", "a\u0001b", "a\u007Fb", "a\u0085"}) {
            BerthException e = invalid("space.name", () -> Space.logical(bad, F32));
            assertThat(e.failure().fields()).containsEntry("text", bad);
            invalid("space.name", () -> new Space.Logical(bad, F32, 1, 0));
            invalid("space.name", () -> new Space.Local(bad, F32, 1, 0, 100));
            invalid("space.name", () -> Space.external(bad, F32));
        }
        assertThat(invalid("space.name", () -> Space.local("a\u0001", F32)).getMessage()).contains("'a\\u0001'")
                .contains("U+0001");
        for (String good : new String[]{"x y", "sram.0", "fast-bank", "\u00e9t\u00e9", "a\u00a0b"}) {
            assertThat(Space.logical(good, F32).build().name()).isEqualTo(good);
        }
    }

    // --- DeployCheck, PlanValidator

    private static Plan plan() {
        Space global = Space.logical("global", F32).alignment(64).build();
        Target t = Target.builder("t").space(global).build();
        Workload w = Workload.builder("w").buffer(BufferSpec.named("a").size(100).in(global).live(0, 1).build())
                .build();
        return Planner.plan(t, w, Planner.Options.defaults()).plan();
    }

    @Test
    void deployCheckNegativeOrNullInputs() {
        Plan p = plan();
        BerthException e = invalid("provide.global", () -> DeployCheck.check(p, Map.of("global", -1L), Map.of()));
        assertThat(e.failure().fields()).containsEntry("text", "-1");
        invalid("base.global", () -> DeployCheck.check(p, Map.of("global", 1000L), Map.of("global", -64L)));
        nullNamed("plan", () -> DeployCheck.check(null, Map.of("global", 1000L), Map.of()));
        nullNamed("provide", () -> DeployCheck.check(p, null, Map.of()));
        nullNamed("base", () -> DeployCheck.check(p, Map.of("global", 1000L), null));
        Map<String, Long> nullValue = new HashMap<>();
        nullValue.put("global", null);
        nullNamed("provide[global]", () -> DeployCheck.check(p, nullValue, Map.of()));
        nullNamed("base[global]", () -> DeployCheck.check(p, Map.of("global", 1000L), nullValue));
        Map<String, Long> nullKey = new HashMap<>();
        nullKey.put(null, 5L);
        nullNamed("provide key", () -> DeployCheck.check(p, nullKey, Map.of()));
        assertThat(DeployCheck.check(p, Map.of("global", 1000L), Map.of("global", 0L))).containsKey("global");
    }

    @Test
    void planValidatorNamesANullPlan() {
        nullNamed("plan", () -> PlanValidator.validate(null));
    }
}
