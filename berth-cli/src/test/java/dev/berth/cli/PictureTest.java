package dev.berth.cli;

import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.io.TargetJson;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PictureTest {

    private static Target npuRef() {
        Target t = TargetJson.load("npu-ref");
        return new Target(t.name(), t.formats(), t.spaces(), Optional.empty());
    }

    /** Six steps in global: the seed example's shape. */
    private static Plan seedLike() {
        Workload w = new Workload("seed", List.of(
                new BufferSpec("input", 4096, npuRef().space("global", "test"), 1, new Lifetime(0, 1), Optional.empty()),
                new BufferSpec("conv1", 3072, npuRef().space("global", "test"), 1, new Lifetime(1, 2), Optional.empty()),
                new BufferSpec("pool1", 2048, npuRef().space("global", "test"), 1, new Lifetime(2, 3), Optional.empty()),
                new BufferSpec("conv2", 4096, npuRef().space("global", "test"), 1, new Lifetime(3, 4), Optional.empty()),
                new BufferSpec("skip", 1024, npuRef().space("global", "test"), 1, new Lifetime(1, 4), Optional.empty()),
                new BufferSpec("output", 1024, npuRef().space("global", "test"), 1, new Lifetime(4, 5), Optional.empty())),
                List.of(new FixedRegion("abi.args", npuRef().space("global", "test"), 0, 1024, new Lifetime(0, 5))));
        return Planner.plan(npuRef(), w, new Planner.Options(SolverChoice.BEST_FIT, 10)).plan();
    }

    /** {@code n} buffers with long names over {@code steps} steps, in global and sram. */
    private static Plan random(int n, int steps, long seed) {
        Random r = new Random(seed);
        List<BufferSpec> bs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int first = r.nextInt(steps);
            boolean sram = r.nextInt(4) == 0;
            bs.add(new BufferSpec("/model.layers." + i + "/attention/Softmax_output_0", sram ? 256 + r.nextInt(4096)
                    : 64 + r.nextInt(1 << 20), npuRef().space(sram ? "sram" : "global", "test"), 1,
                    new Lifetime(first, Math.min(steps - 1, first + r.nextInt(8))), Optional.empty()));
        }
        return Planner.plan(npuRef(), new Workload("random", bs, List.of()),
                new Planner.Options(SolverChoice.BEST_FIT, 10)).plan();
    }

    @ParameterizedTest
    @ValueSource(ints = {50, 64, 80, 100, 132, 200})
    void everyLineFitsTheWidth(int width) {
        for (Plan p : List.of(seedLike(), random(300, 500, width), random(40, 7, width))) {
            for (String line : Picture.render(p, width).split("\n")) {
                assertThat(line.length()).as("line '%s'", line).isLessThanOrEqualTo(width);
                assertThat(line).matches("\\p{ASCII}*");
            }
        }
    }

    @Test
    void eachStepIsALineAndEachReservationShowsInItsStepsOnly() {
        Plan p = seedLike();
        String pic = Picture.render(p, 100);
        List<String> rows = new ArrayList<>();
        for (String line : pic.split("\n")) {
            if (line.matches(" *\\d+ \\|.*")) {
                rows.add(line.substring(line.indexOf('|') + 1, line.lastIndexOf('|')));
            }
        }
        assertThat(rows).hasSize(6);
        Map<PlannedBuffer, Character> glyphs = Picture.glyphs(p.buffers().stream()
                .filter(b -> b.space().equals("global")).toList(), 10_000);
        for (PlannedBuffer b : p.buffers()) {
            char g = glyphs.get(b);
            for (int s = 0; s < rows.size(); s++) {
                boolean live = b.live().first() <= s && s <= b.live().last();
                if (g != '#') {
                    assertThat(rows.get(s).indexOf(g) >= 0).as("%s (%s) at step %d", b.name(), g, s).isEqualTo(live);
                }
            }
            assertThat(pic).contains(g == '#' ? "'#' fixed (abi.args)" : g + "=" + b.name());
        }
        // abi.args is fixed at [0, 1 KiB): the first columns of every step
        rows.forEach(r -> assertThat(r).startsWith("######"));
        // the address axis: sizes and hex at the ticks
        assertThat(pic).contains("0 B").contains("0x0").contains("2 KiB").contains("0x800");
        assertThat(pic).containsPattern("\\n +1 \\|[^\\n]*\\| <peak\\n");
    }

    @Test
    void longPlansGroupStepsIntoLines() {
        Plan p = random(200, 500, 3);
        String pic = Picture.render(p, 100);
        long lines = pic.lines().filter(l -> l.matches(" *\\d+-\\d+ \\|.*")).count();
        // 500 steps in at most 40 lines a space: 13 steps a line, at most 39 lines (fewer when
        // identical lines are shown once), in each of the two spaces
        assertThat(lines).isBetween(2L * 30, 2L * 39);
        assertThat(pic).contains("one line = 13 steps").contains("  0-12 |").contains("494-499 |");
    }

    @ParameterizedTest
    @ValueSource(ints = {50, 64, 80, 100, 132, 200})
    void everyLetterInThePictureIsNamedInTheLegend(int width) {
        Plan p = random(300, 60, 11);
        String pic = Picture.render(p, width);
        assertThat(pic).doesNotContain("not listed");
        assertThat(pic.lines().filter(l -> l.endsWith("..."))).as("lines cut off").isEmpty();
        for (String space : pic.split("\n\n")) {
            if (!space.contains("legend:")) {
                continue;
            }
            String legend = space.substring(space.indexOf("legend:"));
            for (String line : space.substring(0, space.indexOf("legend:")).split("\n")) {
                if (line.matches(" *\\d+(-\\d+)? \\|.*")) {
                    for (char c : line.substring(line.indexOf('|') + 1, line.lastIndexOf('|')).toCharArray()) {
                        if (Picture.GLYPHS.indexOf(c) >= 0) {
                            assertThat(legend).as("legend names '%s'", c).contains(c + "=");
                        }
                    }
                }
            }
            assertThat(legend).contains("'+*~^'").contains("smaller reservations, not named");
        }
    }

    /** The scale states the bytes a column stands for, not a rounded figure (issue 27: "1 B" for 1.5 B). */
    @Test
    void oneColumnIsTheRealBytesPerColumn() {
        assertThat(Picture.perColumn(150, 100)).isEqualTo("1.50 B");
        assertThat(Picture.perColumn(145, 100)).isEqualTo("1.45 B");
        assertThat(Picture.perColumn(200, 100)).isEqualTo("2 B");
        assertThat(Picture.perColumn(10, 80)).isEqualTo("0.13 B");
        assertThat(Picture.perColumn(1023 * 80 + 40, 80)).isEqualTo("1023.50 B");
        assertThat(Picture.perColumn(6513 * 83, 83)).isEqualTo("6.36 KiB");
    }

    /** A buffer of {@code size} bytes in global over {@code first..last}. */
    private static BufferSpec global(String name, long size, int first, int last) {
        return new BufferSpec(name, size, npuRef().space("global", "test"), 1, new Lifetime(first, last), Optional.empty());
    }

    /**
     * 300 steps of which 0..199 look alike (only "weights" live) and 200..299 hold a short buffer
     * each: the alike lines are one line "0-199", no two lines shown one after the other are the
     * same, and the labels cover every step once, in order, at every width.
     */
    @ParameterizedTest
    @ValueSource(ints = {50, 64, 80, 100, 132, 200})
    void identicalLinesAreShownOnce(int width) {
        List<BufferSpec> bs = new ArrayList<>();
        bs.add(global("weights", 3000, 0, 299));
        for (int s = 200; s < 300; s += 10) {
            bs.add(global("t" + s, 1000 + 100 * (s - 200), s, s + 4));
        }
        Plan p = Planner.plan(npuRef(), new Workload("alike", bs, List.of()),
                new Planner.Options(SolverChoice.BEST_FIT, 10)).plan();
        String pic = Picture.render(p, width);
        List<String> labels = new ArrayList<>();
        List<String> cells = new ArrayList<>();
        for (String line : pic.split("\n")) {
            if (line.matches(" *\\d+(-\\d+)? \\|.*")) {
                labels.add(line.substring(0, line.indexOf('|')).strip());
                cells.add(line.substring(line.indexOf('|') + 1, line.lastIndexOf('|')));
            }
        }
        assertThat(labels.get(0)).isEqualTo("0-199");
        long next = 0;
        for (int i = 0; i < labels.size(); i++) {
            String[] range = labels.get(i).split("-");
            assertThat(Long.parseLong(range[0])).as("line %s starts where the last ended", labels.get(i)).isEqualTo(next);
            next = Long.parseLong(range[range.length - 1]) + 1;
            if (i > 0) {
                assertThat(cells.get(i)).as("line %s differs from the one above", labels.get(i)).isNotEqualTo(cells.get(i - 1));
            }
        }
        assertThat(next).isEqualTo(300);
        for (String line : pic.split("\n")) {
            assertThat(line.length()).as("line '%s'", line).isLessThanOrEqualTo(width);
        }
        // the scale is whole, however narrow: wrapped, never cut off
        String joined = pic.replaceAll("\n    (?=\\S)", " ");
        assertThat(joined).contains("one column = " + Picture.perColumn(p.spaces().get("global").highWater(),
                cells.get(0).length())).contains("; right edge = high-water\n");
    }
}
