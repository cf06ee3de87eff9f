package dev.berth.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.TestData;
import dev.berth.artifact.Plan;
import dev.berth.failure.BerthException;
import dev.berth.plan.Planner;
import dev.berth.target.Target;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The workload and plan readers stream a file's tokens; a file with an error is read again as a
 * tree. Over seeded edits of valid files (a character deleted or inserted, a value replaced, a
 * key added), the streamed reading must give exactly what the reading of the whole tree gives:
 * the same workload or plan when both read, and when the tree is rejected the streamed reading
 * is rejected too (its fallback then reports the tree's error, which the reader of a file
 * returns: checked here through {@link WorkloadJson#read(Path, Target)}).
 */
class StreamingReadersTest {
    private static final Target NPU_REF = TargetJson.load("npu-ref");
    private static final int EDITS = 300;
    private static final List<String> VALUES = List.of("null", "true", "1.5", "20.0", "-1", "0", "9223372036854775808",
            "9223372036854775807", "2147483648", "\"4KiB\"", "\"x\"", "\"\"", "[]", "{}", "[1]", "[1, 2, 3]", "[2, 1]",
            "[0, 2147483648]", "[-1, 3]", "{\"a\": 1}", "1e400", "1E2", "-0", "\"global\"", "\"sram\"", "\"tensor\"",
            "[0, \"1\"]", "[0.0, 1]", "7", "64");
    private static final Pattern VALUE = Pattern.compile("\"[^\"\\\\]*\"|-?[0-9]+(\\.[0-9]+)?");

    @TempDir
    Path dir;

    private record Outcome(Object value, String error) {
        static Outcome of(Read r) {
            try {
                return new Outcome(r.get(), null);
            } catch (BerthException e) {
                return new Outcome(null, e.category().id() + " " + e.failure().fields());
            } catch (IOException e) {
                return new Outcome(null, "io " + e);
            } catch (RuntimeException e) {
                return new Outcome(null, "exception " + e);
            }
        }
    }

    private interface Read {
        Object get() throws IOException;
    }

    /** {@code text} with one seeded edit. */
    private static String edit(String text, SplittableRandom rnd) {
        int at = rnd.nextInt(text.length());
        switch (rnd.nextInt(5)) {
            case 0:
                return text.substring(0, at) + text.substring(Math.min(text.length(), at + 1 + rnd.nextInt(3)));
            case 1:
                String chars = "{}[],:\"-.0123456789eanl \\";
                return text.substring(0, at) + chars.charAt(rnd.nextInt(chars.length())) + text.substring(at);
            case 2:
            case 3:
                Matcher m = VALUE.matcher(text);
                List<int[]> spans = new ArrayList<>();
                while (m.find()) {
                    spans.add(new int[]{m.start(), m.end()});
                }
                int[] s = spans.get(rnd.nextInt(spans.size()));
                return text.substring(0, s[0]) + VALUES.get(rnd.nextInt(VALUES.size())) + text.substring(s[1]);
            default:
                int brace = text.indexOf('{', at);
                if (brace < 0) {
                    brace = text.indexOf('{');
                }
                // duplicates of a buffer's members, of a top-level key, and inside a value read as a tree
                String[] keys = {"\"zzz\": 1, ", "\"name\": \"dup\", ", "\"live\": [0, 1], ", "\"alignment\": 0, ",
                    "\"workload\": \"w\", ", "\"tile\": {\"through\": \"sram\", \"through\": \"sram\", \"buffers\": 2}, ",
                    "\"target\": {\"name\": \"a\", \"name\": \"b\"}, "};
                return text.substring(0, brace + 1) + keys[rnd.nextInt(keys.length)] + text.substring(brace + 1);
        }
    }

    /** A parser as the readers of a file stream it: {@link Json#open}'s, which leaves duplicate keys to them. */
    private static JsonParser parser(byte[] bytes) throws IOException {
        return Json.streaming(Json.MAPPER.createParser(bytes));
    }

    private static JsonNode tree(byte[] bytes, String what) throws IOException {
        return Json.parse(new ByteArrayInputStream(bytes), what);
    }

    @ParameterizedTest
    @ValueSource(strings = {"seed.json", "convnet.json", "tiled.json"})
    void workloadsReadTheSameStreamedAsFromTheTree(String example) throws IOException {
        String text = Files.readString(TestData.root().resolve("examples").resolve(example));
        SplittableRandom rnd = new SplittableRandom(example.hashCode());
        int read = 0;
        for (int k = 0; k < EDITS; k++) {
            String edited = k == 0 ? text : edit(text, rnd);
            byte[] bytes = edited.getBytes(StandardCharsets.UTF_8);
            Path file = Files.write(dir.resolve("w.json"), bytes);
            Outcome tree = Outcome.of(() -> WorkloadJson.read(tree(bytes, file.toString()), "w", NPU_REF));
            Outcome streamed = Outcome.of(() -> {
                try (JsonParser p = parser(bytes)) {
                    return WorkloadJson.readSteps(p, "w", NPU_REF).orElseThrow();
                }
            });
            Outcome fromFile = Outcome.of(() -> WorkloadJson.read(file, NPU_REF));
            assertThat(streamed.error() == null).as("streamed and tree read alike: %s", edited)
                    .isEqualTo(tree.error() == null);
            if (tree.error() == null) {
                assertThat((Workload) streamed.value()).as(edited).isEqualTo(tree.value());
                read++;
            }
            // the same, the message naming the file first (syntax errors and a missing file name it already)
            assertThat(fromFile).as(edited).isEqualTo(tree.error() == null || tree.error().contains("message="
                    + file + ": ") ? tree : new Outcome(null, tree.error().replace("message=", "message=" + file + ": ")));
        }
        assertThat(read).as("edits that still read").isBetween(EDITS / 20, EDITS - EDITS / 20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"seed.json", "tiled.json"})
    void plansReadTheSameStreamedAsFromTheTree(String example) throws IOException {
        Workload w = WorkloadJson.read(TestData.root().resolve("examples").resolve(example), NPU_REF);
        String text = PlanJson.toString(Planner.plan(NPU_REF, w, Planner.Options.defaults()).plan());
        SplittableRandom rnd = new SplittableRandom(example.hashCode() + 1);
        int read = 0;
        for (int k = 0; k < EDITS; k++) {
            String edited = k == 0 ? text : edit(text, rnd);
            byte[] bytes = edited.getBytes(StandardCharsets.UTF_8);
            Path file = Files.write(dir.resolve("p.json"), bytes);
            Outcome tree = Outcome.of(() -> PlanJson.read(tree(bytes, file.toString())));
            Outcome streamed = Outcome.of(() -> {
                try (JsonParser p = parser(bytes)) {
                    return PlanJson.read(p);
                }
            });
            Outcome fromFile = Outcome.of(() -> PlanJson.read(file));
            assertThat(streamed.error() == null).as("streamed and tree read alike: %s", edited)
                    .isEqualTo(tree.error() == null);
            if (tree.error() == null) {
                assertThat(PlanJson.toString((Plan) streamed.value())).as(edited)
                        .isEqualTo(PlanJson.toString((Plan) tree.value()));
                read++;
            }
            assertThat(fromFile.error()).as(edited).isEqualTo(tree.error());
        }
        assertThat(read).as("edits that still read").isBetween(EDITS / 20, EDITS - EDITS / 20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"A.1048576.csv", "C.1048576.csv"})
    void csvFilesReadTheSameLineByLineAsWhole(String instance) throws IOException {
        byte[] original = Files.readAllBytes(TestData.require("benchmarks/minimalloc/" + instance));
        SplittableRandom rnd = new SplittableRandom(instance.hashCode());
        byte[][] inserts = {"\n".getBytes(StandardCharsets.UTF_8), "\r".getBytes(StandardCharsets.UTF_8),
                "\uFEFF".getBytes(StandardCharsets.UTF_8), ",".getBytes(StandardCharsets.UTF_8),
                " ".getBytes(StandardCharsets.UTF_8), {(byte) 0xFF}, "-".getBytes(StandardCharsets.UTF_8),
                "\n\n".getBytes(StandardCharsets.UTF_8), {(byte) 0xE2, (byte) 0x82}};
        int read = 0;
        for (int k = 0; k < EDITS; k++) {
            byte[] edited = original;
            if (k > 0) {
                int at = rnd.nextInt(original.length);
                byte[] ins = rnd.nextBoolean() ? inserts[rnd.nextInt(inserts.length)] : new byte[0];
                int cut = ins.length == 0 ? 1 + rnd.nextInt(3) : 0;
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.write(original, 0, at);
                b.write(ins);
                b.write(original, Math.min(original.length, at + cut), Math.max(0, original.length - at - cut));
                edited = b.toByteArray();
            }
            byte[] bytes = edited;
            Path file = Files.write(dir.resolve("m.csv"), bytes);
            Outcome whole = Outcome.of(() -> MiniMallocCsv.read(bytes, "m", file.toString()));
            Outcome streamed = Outcome.of(() -> MiniMallocCsv.stream(file, "m"));
            Outcome fromFile = Outcome.of(() -> MiniMallocCsv.read(file));
            String shown = new String(bytes, StandardCharsets.UTF_8);
            assertThat(streamed.error() == null).as("line by line and whole read alike: %s", shown)
                    .isEqualTo(whole.error() == null);
            if (whole.error() == null) {
                assertThat(streamed.value()).as(shown).isEqualTo(whole.value());
                read++;
            }
            assertThat(fromFile).as(shown).isEqualTo(whole);
        }
        assertThat(read).as("edits that still read").isBetween(EDITS / 20, EDITS - EDITS / 20);
    }
}
