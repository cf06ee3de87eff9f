package dev.berth.cli;

import dev.berth.TestData;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The figures README.md and docs/*.md state, checked against what the repository has (issue 27,
 * "docs that cannot drift"): the number of fuzz targets counted from the sources, the PIT figures
 * stated in prose against the PIT output pasted below them (the pasted output itself is compared
 * with PIT's mutations.xml by {@code .ci/check-mutation-figures} after each PIT run), and the ONNX
 * models' table recomputed by planning each model with the inputs the table gives.
 */
class DocFiguresTest {
    private static final Path ROOT = TestData.root();
    private static final List<String> WORDS = List.of("zero", "one", "two", "three", "four", "five", "six",
            "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen");

    private static String read(String relative) throws IOException {
        return Files.readString(ROOT.resolve(relative), StandardCharsets.UTF_8);
    }

    /** {@code Class.method} of every {@code @FuzzTest} under berth-io's fuzz package, from the sources. */
    private static List<String> fuzzTargets() throws IOException {
        Pattern method = Pattern.compile("@FuzzTest[^\\n]*\\n\\s*(?:public\\s+)?void\\s+(\\w+)\\s*\\(");
        List<String> targets = new ArrayList<>();
        int occurrences = 0;
        try (Stream<Path> files = Files.list(ROOT.resolve("berth-io/src/test/java/dev/berth/io/fuzz"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String source = Files.readString(f, StandardCharsets.UTF_8);
                occurrences += source.split("@FuzzTest", -1).length - 1;
                Matcher m = method.matcher(source);
                while (m.find()) {
                    targets.add(f.getFileName().toString().replace(".java", "") + "." + m.group(1));
                }
            }
        }
        assertThat(targets.size()).as("every @FuzzTest is read as a method").isEqualTo(occurrences);
        return targets;
    }

    /** Every number word of {@code pattern}'s group 1 in {@code text}, at least one. */
    private static List<String> stated(String text, String pattern) {
        Matcher m = Pattern.compile(pattern).matcher(text);
        List<String> found = new ArrayList<>();
        while (m.find()) {
            found.add(m.group(1).toLowerCase(Locale.ROOT));
        }
        assertThat(found).as("the docs state /" + pattern + "/").isNotEmpty();
        return found;
    }

    @Test
    void theFuzzTargetCountTheDocsStateIsTheSources() throws IOException {
        List<String> targets = fuzzTargets();
        assertThat(targets).hasSizeGreaterThan(1);
        String word = WORDS.get(targets.size());
        String readme = read("README.md");
        String reliability = read("docs/reliability.md");
        assertThat(stated(readme, "finding of the (\\w+) readers")).containsOnly(word);
        assertThat(stated(reliability, "(\\w+) fuzz tests \\(`@FuzzTest`")).containsOnly(word);
        assertThat(stated(reliability, "fuzzes the (\\w+) tests")).containsOnly(word);
        String pom = read("berth-io/pom.xml");
        for (String t : targets) {
            String methodName = t.substring(t.indexOf('.') + 1);
            assertThat(reliability).as("reliability.md's fuzz table names " + t).contains("| `" + t + "` |");
            assertThat(pom).as("-Pfuzz has an execution for " + t).contains("<id>fuzz-" + methodName + "</id>");
        }
    }

    /** The prose figures of reliability.md §2 are those of the PIT output pasted under them. */
    @Test
    void theMutationFiguresInProseAreThePastedPitOutput() throws IOException {
        String reliability = read("docs/reliability.md");
        Matcher pasted = Pattern.compile(">> Generated (\\d+) mutations Killed (\\d+) \\(").matcher(reliability);
        assertThat(pasted.find()).as("reliability.md pastes PIT's statistics").isTrue();
        long generated = Long.parseLong(pasted.group(1));
        long killed = Long.parseLong(pasted.group(2));
        assertThat(pasted.find()).as("one PIT output pasted").isFalse();
        Matcher prose = Pattern.compile("(\\d+) mutants, (\\d+) killed, (\\d+) not killed").matcher(reliability);
        assertThat(prose.find()).as("reliability.md states the figures in prose").isTrue();
        assertThat(List.of(Long.parseLong(prose.group(1)), Long.parseLong(prose.group(2)),
                Long.parseLong(prose.group(3)))).containsExactly(generated, killed, generated - killed);
    }

    /** One row of the README's ONNX table: the model, the inputs it is planned with, its figures. */
    private record ModelRow(String model, List<String> inputs, long steps, long activations, long weights,
                            long weightBytes, long plannedPeak, long plannedHighWater) {
        static ModelRow parse(String line) {
            String[] c = line.split("\\|");
            String model = c[1].strip().split(" ")[0];
            List<String> inputs = new ArrayList<>();
            if (!c[2].strip().equals("(static)")) {
                for (String s : c[2].split(",")) {
                    inputs.add("--input");
                    inputs.add(s.strip());
                }
            }
            String[] w = c[5].strip().replace(" B", "").split(",\\s*");
            return new ModelRow(model, inputs, number(c[3]), number(c[4]), Long.parseLong(w[0]),
                    Long.parseLong(w[1]), number(c[8]), number(c[9]));
        }

        private static long number(String cell) {
            return Long.parseLong(cell.strip());
        }
    }

    private static long figure(String out, String pattern) {
        Matcher m = Pattern.compile(pattern).matcher(out);
        assertThat(m.find()).as("/" + pattern + "/ in\n" + out).isTrue();
        return Long.parseLong(m.group(1));
    }

    @TestFactory
    Stream<DynamicTest> theOnnxTableIsWhatPlanningTheModelsPrints() throws IOException {
        String readme = read("README.md");
        int header = readme.indexOf("| model | inputs | steps | activation tensors | weights |");
        assertThat(header).as("README's ONNX table").isNotNegative();
        List<ModelRow> rows = new ArrayList<>();
        for (String line : readme.substring(header).lines().skip(2).toList()) {
            if (!line.startsWith("| ")) {
                break;
            }
            rows.add(ModelRow.parse(line));
        }
        List<String> models;
        try (Stream<Path> files = Files.list(ROOT.resolve("testdata/models"))) {
            models = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".onnx"))
                    .map(n -> n.substring(0, n.length() - ".onnx".length())).toList();
        }
        assertThat(rows.stream().map(ModelRow::model).toList()).as("one row per ONNX model of testdata/models")
                .containsExactlyInAnyOrderElementsOf(models);
        return rows.stream().map(row -> DynamicTest.dynamicTest(row.model(), () -> {
            List<String> args = new ArrayList<>(List.of("plan",
                    TestData.require("models/" + row.model() + ".onnx").toString()));
            args.addAll(row.inputs());
            Run r = Run.of(args.toArray(String[]::new));
            assertThat(r.exit()).as(r.err()).isZero();
            String out = r.out();
            assertThat(figure(out, "onnx: (\\d+) steps")).as("steps").isEqualTo(row.steps());
            assertThat(figure(out, "(\\d+) activation tensors")).as("activation tensors").isEqualTo(row.activations());
            assertThat(figure(out, "(\\d+) weights of")).as("weights").isEqualTo(row.weights());
            assertThat(figure(out, "weights of (\\d+) B")).as("weight bytes").isEqualTo(row.weightBytes());
            assertThat(figure(out, "peak live \\(lower bound of any placement\\): +(\\d+) B"))
                    .as("planned peak live").isEqualTo(row.plannedPeak());
            assertThat(figure(out, "high-water \\(this plan\\): +(\\d+) B"))
                    .as("planned high-water").isEqualTo(row.plannedHighWater());
        }));
    }
}
