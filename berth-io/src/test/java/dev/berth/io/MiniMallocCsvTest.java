package dev.berth.io;

import dev.berth.TestData;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MiniMalloc CSV: header aliases, half-open lifetimes, strict rejections with line and column, output. */
class MiniMallocCsvTest {
    /** A target for reading alone (its capacity matters only to planning). */
    private static final Target ANY = MiniMallocCsv.target(1L << 40);

    /** The example of MiniMalloc's README (benchmarks/examples/input.12.csv). */
    static final String INPUT_12 = """
            id,lower,upper,size
            b1,0,3,4
            b2,3,9,4
            b3,0,9,4
            b4,9,21,4
            b5,0,21,4
            """;

    private static MiniMallocCsv.Document parse(String text) {
        return MiniMallocCsv.parse(text, "t", "t.csv");
    }

    @Test
    void readsHalfOpenLifetimesAsInclusiveSteps() {
        MiniMallocCsv.Document d = parse(INPUT_12);
        assertThat(d.name()).isEqualTo("t");
        assertThat(d.rows()).hasSize(5);
        Workload w = d.workload(ANY);
        assertThat(w.buffers()).extracting(BufferSpec::name).containsExactly("b1", "b2", "b3", "b4", "b5");
        assertThat(w.buffers().get(0).live()).isEqualTo(new Lifetime(0, 2));
        assertThat(w.buffers().get(1).live()).isEqualTo(new Lifetime(3, 8));
        assertThat(w.buffers().get(0).live().overlaps(w.buffers().get(1).live())).isFalse();
        assertThat(w.buffers()).allMatch(b -> b.space().name().equals(MiniMallocCsv.SPACE) && b.size() == 4 && b.alignment() == 1);
    }

    @Test
    void leadingZerosAreWholeNumbersUpTo2To63Minus1() {
        MiniMallocCsv.Document d = parse("id,lower,upper,size\na,0,0001,0\nb,000,10,007\nc,0,1,0009223372036854775807\n");
        Workload w = d.workload(ANY);
        assertThat(w.buffers()).extracting(BufferSpec::size).containsExactly(0L, 7L, Long.MAX_VALUE);
        assertThat(w.buffers().get(0).live()).isEqualTo(new Lifetime(0, 0));
        assertThat(w.buffers().get(1).live()).isEqualTo(new Lifetime(0, 9));
        assertThatThrownBy(() -> parse("id,lower,upper,size\nx,0,1,0009223372036854775808\n"))
                .isInstanceOf(BerthException.class).hasMessageContaining("line 2, column 4")
                .hasMessageContaining("above the largest value");
        assertThatThrownBy(() -> parse("id,lower,upper,size\nx,0,1,19223372036854775807\n"))
                .isInstanceOf(BerthException.class).hasMessageContaining("above the largest value");
    }

    @Test
    void input12PlansAtCapacity12WithTheExactSolver() {
        Workload w = parse(INPUT_12).workload(MiniMallocCsv.target(12));
        PlanResult r = Planner.plan(MiniMallocCsv.target(12), w, new Planner.Options(SolverChoice.EXACT, 30));
        assertThat(r.plan().spaces().get("mem").highWater()).isEqualTo(12);
        assertThat(r.plan().spaces().get("mem").peakLive()).isEqualTo(12);
        assertThat(r.verdict().valid()).isTrue();
    }

    @Test
    void sharedInput12FileSolvesAtCapacity12() {
        Path file = TestData.require("benchmarks/minimalloc/input.12.csv");
        MiniMallocCsv.Document d = MiniMallocCsv.read(file);
        assertThat(d.name()).isEqualTo("input.12");
        PlanResult r = Planner.plan(MiniMallocCsv.target(12), d.workload(MiniMallocCsv.target(12)), new Planner.Options(SolverChoice.EXACT, 30));
        assertThat(r.plan().spaces().get("mem").highWater()).isLessThanOrEqualTo(12);
        assertThat(r.verdict().valid()).isTrue();
        // a byte less cannot fit: the peak of live bytes is 12
        assertThatThrownBy(() -> Planner.plan(MiniMallocCsv.target(11), d.workload(MiniMallocCsv.target(11)),
                new Planner.Options(SolverChoice.EXACT, 30)))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.category()).isEqualTo(Category.CAPACITY_EXCEEDED));
    }

    @Test
    void acceptsMiniMallocHeaderAliases() {
        MiniMallocCsv.Document a = parse("buffer_id,begin,upper,size\nx,2,5,8\n");
        assertThat(a.workload(ANY).buffers().get(0).live()).isEqualTo(new Lifetime(2, 4));
        MiniMallocCsv.Document b = parse("buffer,start,upper,size\nx,2,5,8\n");
        assertThat(b.workload(ANY).buffers().get(0).name()).isEqualTo("x");
        // 'end' is MiniMalloc's older column: the last step itself (upper - 1)
        MiniMallocCsv.Document c = parse("id,start,end,size\nx,2,4,8\n");
        assertThat(c.workload(ANY).buffers().get(0).live()).isEqualTo(new Lifetime(2, 4));
        // columns in any order
        MiniMallocCsv.Document d = parse("size,upper,id,lower\n8,5,x,2\n");
        assertThat(d.workload(ANY).buffers().get(0).live()).isEqualTo(new Lifetime(2, 4));
        assertThat(d.workload(ANY).buffers().get(0).size()).isEqualTo(8);
    }

    @Test
    void readsAlignmentOffsetHintAndGaps() {
        MiniMallocCsv.Document d = parse("""
                id,lower,upper,size,alignment,hint,gaps,offset
                a,0,4,10,3,-1,,
                f,1,3,7,1,5,,12
                g,0,9,4,2,-1,2-4,
                """);
        Workload w = d.workload(ANY);
        assertThat(w.buffers()).extracting(BufferSpec::name).containsExactly("a", "g");
        assertThat(w.buffers().get(0).alignment()).isEqualTo(3);
        assertThat(w.fixed()).containsExactly(new FixedRegion("f", ANY.space("mem", "test"), 12, 7, new Lifetime(1, 2)));
        assertThat(d.notes()).singleElement().asString().contains("g").contains("ignored");
    }

    @Test
    void targetHasOneLocalSpaceOfTheCapacity() {
        var t = MiniMallocCsv.target(1_048_576);
        assertThat(t.spaces()).containsOnlyKeys("mem");
        assertThat(t.spaces().get("mem").capacity()).hasValue(1_048_576);
        assertThat(t.spaces().get("mem").alignment()).isEqualTo(1);
        assertThat(t.spaces().get("mem").kind()).isEqualTo("local");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            missing size column           | id,lower,upper\\nx,0,1                  | line 1     | 'size' is missing
            missing upper column          | id,lower,size\\nx,0,1                   | line 1     | 'upper' (or 'end') is missing
            unknown column                | id,lower,upper,size,colour\\nx,0,1,2,red | line 1, column 5 | unknown column 'colour'
            upper and end both            | id,lower,upper,size,end\\nx,0,1,2,3     | line 1, column 5 | 'upper' (the first step after the lifetime) and 'end' (its last step) both give
            repeated column               | id,lower,upper,size,size\\nx,0,1,2,3    | line 1, column 5 | column 'size' repeats an earlier column
            alias repeats a column        | id,buffer,lower,upper,size\\nx,y,0,1,2  | line 1, column 2 | column 'buffer' repeats an earlier column ('buffer' is another name of 'id')
            too many fields               | id,lower,upper,size\\nx,0,1,2,3         | line 2     | 5 fields
            too few fields                | id,lower,upper,size\\nx,0,1             | line 2     | 3 fields
            negative size                 | id,lower,upper,size\\nx,0,1,-5          | line 2, column 4 | negative
            negative lower                | id,lower,upper,size\\nx,-1,1,5          | line 2, column 2 | negative
            size above 2^63-1             | id,lower,upper,size\\nx,0,1,9223372036854775808 | line 2, column 4 | above the largest value
            fraction                      | id,lower,upper,size\\nx,0,1,1.5         | line 2, column 4 | not a whole number
            exponent                      | id,lower,upper,size\\nx,0,1,1e3         | line 2, column 4 | not a whole number
            plus sign                     | id,lower,upper,size\\nx,0,1,+3          | line 2, column 4 | not a whole number
            word                          | id,lower,upper,size\\nx,0,ten,3         | line 2, column 3 | not a whole number
            empty number                  | id,lower,upper,size\\nx,0,,3            | line 2, column 3 | empty
            empty lifetime                | id,lower,upper,size\\nx,4,4,3           | line 2, column 3 | empty
            reversed lifetime             | id,lower,upper,size\\nx,5,4,3           | line 2, column 3 | empty
            reversed end                  | id,lower,end,size\\nx,5,4,3             | line 2, column 3 | empty
            step past 2^31-1              | id,lower,upper,size\\nx,0,2147483649,3  | line 2, column 3 | 2^31-1
            duplicate id                  | id,lower,upper,size\\nx,0,1,3\\nx,1,2,3 | line 3, column 1 | duplicate id
            empty id                      | id,lower,upper,size\\n,0,1,3            | line 2, column 1 | empty
            zero alignment                | id,lower,upper,size,alignment\\nx,0,1,3,0 | line 2, column 5 | positive
            fixed offset overflows        | id,lower,upper,size,offset\\nx,0,1,9223372036854775807,1 | line 2, column 5 | corrupt
            fixed offset misaligned       | id,lower,upper,size,alignment,offset\\nx,0,1,4,4,6 | line 2, column 6 | multiple
            bad hint                      | id,lower,upper,size,hint\\nx,0,1,4,soon | line 2, column 5 | not a whole number
            blank line inside             | id,lower,upper,size\\nx,0,1,4\\n\\ny,0,1,4 | line 3 | blank line
            """)
    void rejectsBadInputWithLineAndColumn(String what, String text, String where, String message) {
        String csv = text.replace("\\n", "\n");
        assertThatThrownBy(() -> parse(csv)).as(what)
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.failure().message()).contains("t.csv: " + where).contains(message);
                });
    }

    @Test
    void rejectsAnEmptyFileAndAMissingFile() {
        assertThatThrownBy(() -> parse("\n\n")).isInstanceOfSatisfying(BerthException.class,
                e -> assertThat(e.failure().message()).contains("empty file"));
        assertThatThrownBy(() -> MiniMallocCsv.read(Path.of("no/such/file.csv"))).isInstanceOfSatisfying(
                BerthException.class, e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT));
    }

    @Test
    void toleratesCarriageReturnsSpacesAndATrailingBlankLine() {
        MiniMallocCsv.Document d = parse("\uFEFFid, lower ,upper,size\r\nx, 0,3 ,4\r\n\r\n");
        assertThat(d.workload(ANY).buffers().get(0).live()).isEqualTo(new Lifetime(0, 2));
    }

    @Test
    void writesInputColumnsPlusOffsets() {
        MiniMallocCsv.Document d = parse(INPUT_12);
        PlanResult r = Planner.plan(MiniMallocCsv.target(12), d.workload(MiniMallocCsv.target(12)), new Planner.Options(SolverChoice.EXACT, 30));
        String out = MiniMallocCsv.write(d, r.plan());
        String[] lines = out.split("\n");
        assertThat(lines[0]).isEqualTo("id,lower,upper,size,offset");
        assertThat(lines).hasSize(6);
        // reading the output back fixes every buffer where the plan put it, and it still plans
        MiniMallocCsv.Document back = parse(out);
        assertThat(back.workload(ANY).buffers()).isEmpty();
        assertThat(back.workload(ANY).fixed()).hasSize(5);
        for (FixedRegion f : back.workload(ANY).fixed()) {
            long planned = r.plan().buffers().stream().filter(b -> b.name().equals(f.name())).findFirst().orElseThrow().offset();
            assertThat(f.offset()).isEqualTo(planned);
        }
        Planner.plan(MiniMallocCsv.target(12), back.workload(MiniMallocCsv.target(12)), new Planner.Options(SolverChoice.EXACT, 30));
        // an existing offset column is filled in place, not repeated
        String again = MiniMallocCsv.write(back, r.plan());
        assertThat(again.split("\n")[0]).isEqualTo("id,lower,upper,size,offset");
        assertThat(again).isEqualTo(out);
    }

    @Test
    void writingAPlanOfAnotherDocumentIsInvalidInputNamingThePlanAndWritesNothing() {
        MiniMallocCsv.Document d = parse(INPUT_12);
        PlanResult r = Planner.plan(MiniMallocCsv.target(12), parse("id,lower,upper,size\nb1,0,3,4\n")
                .workload(MiniMallocCsv.target(12)), Planner.Options.defaults());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MiniMallocCsv.write(d, r.plan(), out))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.failure().fields()).containsEntry("path", "plan");
                })
                .hasMessageContaining("plan: it has no buffer b2 in space mem (line 3 of t)");
        assertThat(out.size()).isZero();
    }

    @Test
    void rowsWithOffsetsThatOverlapAreNamedByTheLaterRowsLine() {
        MiniMallocCsv.Document d = parse("id,lower,upper,size,offset\na,0,10,100,0\nfree,0,10,8,\nb,0,10,100,50\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> d.workload(MiniMallocCsv.target(1000)))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.failure().fields()).containsEntry("path", d.name() + ":4");
                })
                .hasMessageContaining("line 4: two rows with an offset overlap: b [50, +100) overlaps a [0, +100)")
                .hasMessageNotContaining("fixed[");
        // named by the rows themselves, the earlier one's line too: not cut out of the workload's message
        MiniMallocCsv.Document later = parse("id,lower,upper,size,offset\nfree,0,10,8,\nc,20,30,4,0\na,0,10,100,0\n"
                + "d,20,30,4,8\nb,5,6,100,99\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> later.workload(MiniMallocCsv.target(1000)))
                .hasMessageEndingWith(later.name() + ": line 6: two rows with an offset overlap: b [99, +100) overlaps "
                        + "a [0, +100) on line 4 during common steps");
    }
}
