package dev.berth.bench;

import dev.berth.admit.Admission;
import dev.berth.admit.Placement;
import dev.berth.solve.Budget;
import dev.berth.solve.heuristic.HeuristicSolver;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What the checked vocabulary costs.
 * <ul>
 *   <li>{@code admit*}: 1024 admission requests (space alignment 64, buffer alignments
 *       1..96, random candidates) through {@link Admission#admit} against the same arithmetic
 *       done with plain operators ({@link UncheckedAdmission});</li>
 *   <li>{@code plan*}: greedy-by-size placement of a seeded ONNX-like workload, then the
 *       admission of every placement, through {@link HeuristicSolver} and {@link Admission}
 *       against the unchecked copies ({@link UncheckedGreedy}, {@link UncheckedAdmission}).</li>
 * </ul>
 * Run: {@code java -jar berth-bench/target/benchmarks.jar CheckedArithmetic}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgs = {"-Xmx1g"})
public class CheckedArithmeticBenchmark {
    private static final long SPACE_ALIGNMENT = 64;
    private static final long MAX_ADDRESS = (1L << 40) - 1;
    private static final long CAPACITY = 1L << 40;

    @Param({"10000"})
    int buffers;

    private Space space;
    private SpaceProblem problem;
    private final long[] candidates = new long[1024];
    private final long[] sizes = new long[1024];
    private final long[] alignments = new long[1024];

    @Setup
    public void setup() {
        AddressFormat wide = new AddressFormat("wide", MAX_ADDRESS, EndConvention.EXCLUSIVE);
        space = new Space.Local("sram", wide, SPACE_ALIGNMENT, 0, CAPACITY);
        SpaceProblem raw = SyntheticWorkloads.onnxLike(buffers, 7);
        int n = raw.size();
        String[] names = new String[n];
        long[] reserved = new long[n];
        long[] align = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        long[] fixed = new long[n];
        for (int i = 0; i < n; i++) {
            names[i] = "t" + i;
            align[i] = SPACE_ALIGNMENT;
            reserved[i] = Admission.reservedSize(space, names[i], raw.reserved(i), SPACE_ALIGNMENT);
            first[i] = raw.first(i);
            last[i] = raw.last(i);
            fixed[i] = -1;
        }
        problem = new SpaceProblem(space, names, reserved, align, first, last, fixed, CAPACITY);
        SplittableRandom rnd = new SplittableRandom(3);
        for (int k = 0; k < candidates.length; k++) {
            candidates[k] = rnd.nextLong(1L << 36);
            sizes[k] = 1 + rnd.nextLong(1L << 22);
            alignments[k] = 1 + rnd.nextInt(96);
        }
    }

    @Benchmark
    public void admitChecked(Blackhole bh) {
        for (int k = 0; k < candidates.length; k++) {
            bh.consume(Admission.admit(space, "b", candidates[k], sizes[k], alignments[k]).offset());
        }
    }

    @Benchmark
    public void admitUnchecked(Blackhole bh) {
        for (int k = 0; k < candidates.length; k++) {
            bh.consume(UncheckedAdmission.admit(space, "b", candidates[k], sizes[k], alignments[k]).offset());
        }
    }

    @Benchmark
    public long planChecked() {
        long[] offsets = ((Outcome.Solved) HeuristicSolver.greedyBySize().solve(problem, Budget.unlimited())).offsets();
        long sum = 0;
        for (int i = 0; i < offsets.length; i++) {
            Placement p = Admission.admit(space, problem.name(i), offsets[i], problem.reserved(i), problem.alignment(i));
            sum += p.end();
        }
        return sum;
    }

    @Benchmark
    public long planUnchecked() {
        long[] offsets = UncheckedGreedy.solve(problem);
        long sum = 0;
        for (int i = 0; i < offsets.length; i++) {
            sum += UncheckedAdmission.admit(space, problem.name(i), offsets[i], problem.reserved(i),
                    problem.alignment(i)).end();
        }
        return sum;
    }
}
